import type { RegisterRequest, RegisterResult } from '../../src/common/register-request.ts';
import { callService, type CallOptions } from './call-service.ts';

/** A send request of Interface B (`POST /v1/send`). */
export interface SendNotificationRequest {
  recipientId: string;
  channel?: 'push' | 'in_app';
  title?: string;
  body?: string;
  templateId?: string;
  androidChannelId?: string;
  androidSound?: string;
  data?: Record<string, string>;
}

/** The service's answer to a send: the notification is queued. */
export interface SendNotificationResult {
  notificationId: string;
  status: 'queued';
}

/** What `registerSubscriber` returns: the ids, and whether the device was new (201) or updated (200). */
export interface RegisterSubscriberResult extends RegisterResult {
  created: boolean;
}

/** A typed client of Interface B, for the app's backend: it holds the server key. */
export interface NotificationClient {
  /**
   * Idempotent, so retried after 429, any 5xx and any network error within the deadline.
   * @throws {@link ServiceError} (409 `subscription_conflict` among others)
   */
  registerSubscriber(request: RegisterRequest): Promise<RegisterSubscriberResult>;
  /**
   * Not idempotent (a repeat queues a second notification), so retried only when the service
   * cannot have queued it: 429, 503 with `Retry-After`, a refused connection. A 500, 502 or 504,
   * which a gateway may answer after the service committed, and a connection lost mid-request
   * are thrown: the notification may or may not be queued.
   * @throws {@link ServiceError}
   */
  sendNotification(request: SendNotificationRequest): Promise<SendNotificationResult>;
}

/** Options of {@link createNotificationClient}. */
export interface NotificationClientOptions extends CallOptions {
  /** Interface B server key, sent as `X-API-Key`. Keep it on the server. */
  apiKey: string;
}

/**
 * Create a client of Interface B.
 *
 * @example
 * ```ts
 * const push = createNotificationClient({ baseUrl: process.env.PUSH_BASE_URL!, apiKey: process.env.PUSH_API_KEY! });
 * await push.sendNotification({ recipientId: 'user-42', title: 'Hi', body: 'There', data: { url: '/inbox' } });
 * ```
 */
export function createNotificationClient(options: NotificationClientOptions): NotificationClient {
  const headers = { 'x-api-key': options.apiKey };
  return {
    async registerSubscriber(request) {
      const { status, json } = await callService(options, { path: '/v1/subscribers/register', body: request, headers, idempotent: true });
      return { subscriberId: String(json.subscriberId), deviceId: String(json.deviceId), created: status === 201 };
    },
    async sendNotification(request) {
      const { json } = await callService(options, { path: '/v1/send', body: request, headers, idempotent: false });
      return { notificationId: String(json.notificationId), status: 'queued' };
    },
  };
}

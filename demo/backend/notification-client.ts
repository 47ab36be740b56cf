import type { RegisterRequest, RegisterResult } from '../../src/common/register-request.ts';
import { ServiceError } from './service-error.ts';

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
  registerSubscriber(request: RegisterRequest): Promise<RegisterSubscriberResult>;
  sendNotification(request: SendNotificationRequest): Promise<SendNotificationResult>;
}

/**
 * Create a client of Interface B. The key is a server key: keep it on the server.
 *
 * @example
 * ```ts
 * const push = createNotificationClient({ baseUrl: process.env.PUSH_BASE_URL!, apiKey: process.env.PUSH_API_KEY! });
 * await push.sendNotification({ recipientId: 'user-42', title: 'Hi', body: 'There', data: { url: '/inbox' } });
 * ```
 */
export function createNotificationClient(options: { baseUrl: string; apiKey: string; timeoutMs?: number }): NotificationClient {
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, options.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new ServiceError(503, 'service_unreachable', 'The notification service could not be reached.', null, { cause });
    }
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ServiceError(
        response.status,
        typeof json.error === 'string' ? json.error : 'unknown_error',
        typeof json.message === 'string' ? json.message : `The service answered ${response.status}.`,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
        json.details === undefined ? {} : { details: json.details },
      );
    }
    return { status: response.status, json };
  }

  return {
    async registerSubscriber(request) {
      const { status, json } = await post('/v1/subscribers/register', request);
      return { subscriberId: String(json.subscriberId), deviceId: String(json.deviceId), created: status === 201 };
    },
    async sendNotification(request) {
      const { json } = await post('/v1/send', request);
      return { notificationId: String(json.notificationId), status: 'queued' };
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeviceStore } from './device-store.ts';
import { HttpError, readJsonObject, sendJson } from './http-json.ts';
import type { NotificationQueue } from './notification-queue.ts';
import { buildEnvelope } from './push-envelope.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { TemplateStore } from './template-store.ts';
import { validateRegister, validateSend } from './validate.ts';
import type { WorkspaceKey, WorkspaceKeys } from './workspace-keys.ts';

/** What Interface B's routes need. */
export interface PushRoutesOptions {
  keys: WorkspaceKeys;
  /** Limit for requests whose key is not valid, bucketed by client IP. */
  anonymousRateLimitPerMinute: number;
  limiter: RateLimiter;
  devices: DeviceStore;
  templates: TemplateStore;
  queue: NotificationQueue;
  ttlSeconds: number;
  /** Told after a notification was committed. */
  onQueued: () => void;
}

/** Interface B's handlers. */
export interface PushRoutes {
  register(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** CORS preflight of register. */
  registerPreflight(request: IncomingMessage, response: ServerResponse): void;
  send(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The workspace of a valid server key, else 401; for the emulator's routes too. */
  authenticateServer(request: IncomingMessage): WorkspaceKey;
}

const CORS_PREFLIGHT = {
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type, x-api-key',
  'access-control-max-age': '600',
};

/**
 * `POST /v1/subscribers/register` and `POST /v1/send`. Order of checks: rate limit (decisions.md:
 * before the key), key, body, fields, then the lookups.
 */
export function createPushRoutes(options: PushRoutesOptions): PushRoutes {
  const invalidKey = (): HttpError => new HttpError(401, 'invalid_api_key', 'Invalid API key.');

  function limit(request: IncomingMessage): WorkspaceKey | undefined {
    const key = options.keys.find(request.headers['x-api-key']);
    const bucket = key ? `push:key:${key.fingerprint}` : `push:ip:${request.socket.remoteAddress ?? 'unknown'}`;
    const decision = options.limiter.take(bucket, key ? key.workspace.rateLimitPerMinute : options.anonymousRateLimitPerMinute);
    if (!decision.allowed) throw new HttpError(429, 'rate_limited', 'Too many requests.', { retryAfter: decision.retryAfterSeconds });
    return key;
  }

  function authenticateServer(request: IncomingMessage): WorkspaceKey {
    const key = options.keys.find(request.headers['x-api-key']);
    if (key?.kind !== 'server') throw invalidKey();
    return key;
  }

  /** CORS headers for register: only for an origin the workspace (or, without a valid key, some workspace) allows. */
  function corsHeaders(request: IncomingMessage, key: WorkspaceKey | undefined): Record<string, string> {
    const origin = request.headers.origin;
    if (typeof origin !== 'string') return {};
    const browser = key?.workspace.browserRegistration;
    const allowed = key ? browser !== undefined && browser.enabled && browser.allowedOrigins.includes(origin) : options.keys.originAllowedAnywhere(origin);
    return allowed ? { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Retry-After' } : {};
  }

  return {
    authenticateServer,

    registerPreflight(request, response) {
      const origin = request.headers.origin;
      const headers = typeof origin === 'string' && options.keys.originAllowedAnywhere(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin', ...CORS_PREFLIGHT } : {};
      response.writeHead(204, headers);
      response.end();
    },

    async register(request, response) {
      const key = options.keys.find(request.headers['x-api-key']);
      for (const [name, value] of Object.entries(corsHeaders(request, key))) response.setHeader(name, value);
      limit(request);
      const browser = key?.workspace.browserRegistration;
      if (!key || (key.kind === 'client' && !browser?.enabled)) throw invalidKey();
      const input = validateRegister(await readJsonObject(request, 'validation_error'));
      const outcome = options.devices.register({ workspace: key.workspace.id, ...input });
      if (outcome.kind === 'conflict') {
        throw new HttpError(409, 'subscription_conflict', 'The subscription is registered to another recipient.');
      }
      const created = outcome.kind === 'created';
      sendJson(response, created ? 201 : 200, { subscriberId: outcome.subscriberId, deviceId: outcome.deviceId, message: created ? 'registered' : 'updated' });
    },

    async send(request, response) {
      const key = limit(request);
      if (key?.kind !== 'server') throw invalidKey();
      const workspace = key.workspace.id;
      const input = validateSend(await readJsonObject(request, 'validation_error'));
      const template = input.templateId === undefined ? undefined : options.templates.get(workspace, input.templateId);
      if (input.templateId !== undefined && !template) throw new HttpError(404, 'template_not_found', 'Template not found.');
      if (!options.devices.hasRecipient(input.recipientId, workspace)) throw new HttpError(404, 'recipient_not_found', 'Recipient not found.');
      const notificationId = randomUUID();
      const { json } = buildEnvelope(notificationId, input, template);
      const deviceIds = options.devices.devicesOf(input.recipientId, workspace).map((device) => device.deviceId);
      options.queue.enqueue({ notificationId, workspace, recipientId: input.recipientId, channel: input.channel, payload: json, ttlSeconds: options.ttlSeconds, deviceIds });
      options.onQueued();
      sendJson(response, 202, { notificationId, status: 'queued' });
    },
  };
}

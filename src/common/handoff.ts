import type { HandoffConfig } from './database.js';
import { PushError } from './push-error.js';
import type { RegisterRequest, RegisterResult } from './register-request.js';

/** The three values the register call needs, as base64url strings. */
export interface SubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Build the register request for a subscription.
 *
 * @example
 * ```ts
 * const body = registerRequest('user-42', subscriptionKeys(subscription), { app: 'shop' });
 * ```
 */
export function registerRequest(
  recipientId: string,
  keys: SubscriptionKeys,
  metadata: Record<string, string | number | boolean> = {},
): RegisterRequest {
  return {
    recipientId,
    platform: 'web',
    deviceTransport: 'web_push',
    webPush: { endpoint: keys.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    metadata,
  };
}

/**
 * POST the register request where a declarative hand-off says (the app's backend, or the
 * service itself with a client-safe key) and read `{subscriberId, deviceId}` back. Runs in pages
 * and in the worker.
 *
 * @throws {@link PushError} `register-conflict` on 409, `register-rejected` on any other
 * refusal, `network` when the server cannot be reached, `timeout` after `timeoutMs`.
 *
 * @example
 * ```ts
 * const ids = await postRegistration(fetch, { kind: 'url', url: '/api/push/register', headers: {}, credentials: 'same-origin' }, body, 10_000);
 * ```
 */
export async function postRegistration(
  fetchFn: typeof fetch,
  handoff: Exclude<HandoffConfig, { kind: 'callback' }>,
  body: RegisterRequest,
  timeoutMs: number,
): Promise<RegisterResult> {
  const target =
    handoff.kind === 'url'
      ? { url: handoff.url, headers: handoff.headers, credentials: handoff.credentials }
      : {
          url: `${handoff.pushBaseUrl.replace(/\/+$/, '')}/v1/subscribers/register`,
          headers: { 'x-api-key': handoff.clientKey },
          credentials: 'omit' as const,
        };
  let response: Response;
  try {
    response = await fetchFn(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      credentials: target.credentials,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
    throw new PushError(timedOut ? 'timeout' : 'network', undefined, { cause });
  }
  const answer: unknown = await response.json().catch(() => null);
  const fields = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  if (!response.ok) {
    const details = { status: response.status, ...(typeof fields.error === 'string' ? { backendCode: fields.error } : {}) };
    const message = typeof fields.message === 'string' ? fields.message : undefined;
    throw new PushError(response.status === 409 ? 'register-conflict' : 'register-rejected', message, details);
  }
  if (typeof fields.subscriberId !== 'string' || typeof fields.deviceId !== 'string') {
    throw new PushError('register-rejected', 'The answer has no subscriberId and deviceId.', { status: response.status });
  }
  return { subscriberId: fields.subscriberId, deviceId: fields.deviceId };
}

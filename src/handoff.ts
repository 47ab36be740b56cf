import { PushError } from './push-error.js';
import type { RegisterRequest, RegisterResult } from './common/register-request.js';
import type { SubscriptionKeys } from './subscription.js';

/** Where and how the page hands the subscription to the app's backend. */
export interface RegisterEndpoint {
  /** The backend route that makes the service's register call, e.g. `/api/push/register`. */
  url: string;
  /** Extra non-secret headers, such as a CSRF token. */
  headers?: Record<string, string>;
  /** Fetch credentials mode; `same-origin` by default. */
  credentials?: RequestCredentials;
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
 * POST the register request to the app's backend and read `{subscriberId, deviceId}` back.
 *
 * @throws {@link PushError} `register-conflict` on 409, `register-rejected` on any other
 * refusal, `network` when the backend cannot be reached, `timeout` after `timeoutMs`.
 *
 * @example
 * ```ts
 * const { deviceId } = await postRegistration(fetch, { url: '/api/push/register' }, body, 10_000);
 * ```
 */
export async function postRegistration(
  fetchFn: typeof fetch,
  endpoint: RegisterEndpoint,
  body: RegisterRequest,
  timeoutMs: number,
): Promise<RegisterResult> {
  let response: Response;
  try {
    response = await fetchFn(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...endpoint.headers },
      credentials: endpoint.credentials ?? 'same-origin',
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
    throw new PushError('register-rejected', 'The backend answered without subscriberId and deviceId.', { status: response.status });
  }
  return { subscriberId: fields.subscriberId, deviceId: fields.deviceId };
}

import type { HandoffConfig } from './common/database.js';
import type { RegisterRequest, RegisterResult } from './common/register-request.js';

/** Hand-off to the app's backend (the default): POST the register request to `url`. */
export interface RegisterEndpoint {
  /** The backend route that makes the service's register call, e.g. `/api/push/register`. */
  url: string;
  /** Extra non-secret headers, such as a CSRF token. Stored so that the worker can replay them. */
  headers?: Record<string, string>;
  /** Fetch credentials mode; `same-origin` by default. */
  credentials?: RequestCredentials;
}

/** Hand-off straight to the service with a client-safe key (`pk_...`), where the workspace allows it. */
export interface DirectRegistration {
  direct: { pushBaseUrl: string; clientKey: string };
}

/** Hand-off through the app's own code; the worker cannot replay it, so it asks a window to. */
export type RegisterCallback = (request: RegisterRequest, subscription: PushSubscription) => Promise<RegisterResult>;

/** The three ways a subscription can reach the register call. */
export type RegisterOption = RegisterEndpoint | DirectRegistration | RegisterCallback;

/**
 * The declarative form of a register option, as stored for the worker.
 *
 * @example
 * ```ts
 * handoffConfig({ url: '/api/push/register' }); // { kind: 'url', url: '/api/push/register', headers: {}, credentials: 'same-origin' }
 * ```
 */
export function handoffConfig(option: RegisterOption): HandoffConfig {
  if (typeof option === 'function') return { kind: 'callback' };
  if ('direct' in option) return { kind: 'direct', pushBaseUrl: option.direct.pushBaseUrl, clientKey: option.direct.clientKey };
  return { kind: 'url', url: option.url, headers: option.headers ?? {}, credentials: option.credentials ?? 'same-origin' };
}

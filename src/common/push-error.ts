/**
 * Why a pushbridge call failed. One code per thing the app can act on:
 * - `unsupported`: this browser has no Push API, service workers or notifications;
 * - `needs-install`: Safari on iOS/iPadOS allows push only in a home-screen app;
 * - `permission-denied` / `permission-dismissed`: the user blocked, or closed the prompt;
 * - `worker-failed`: the service worker did not install or activate;
 * - `subscribe-failed`: `pushManager.subscribe()` failed;
 * - `register-rejected` / `register-conflict`: the backend refused the hand-off (409 for conflict);
 * - `network`: the backend could not be reached; `timeout`: a wait ran out of time.
 */
export type PushErrorCode =
  | 'unsupported'
  | 'needs-install'
  | 'permission-denied'
  | 'permission-dismissed'
  | 'worker-failed'
  | 'subscribe-failed'
  | 'register-rejected'
  | 'register-conflict'
  | 'network'
  | 'timeout';

const messages: Record<PushErrorCode, string> = {
  unsupported: 'Web Push is not supported here.',
  'needs-install': 'Add the app to the home screen to get notifications.',
  'permission-denied': 'Notifications are blocked.',
  'permission-dismissed': 'The notification prompt was dismissed.',
  'worker-failed': 'The service worker did not activate.',
  'subscribe-failed': 'The push subscription failed.',
  'register-rejected': 'The backend refused the subscription.',
  'register-conflict': 'The subscription belongs to another recipient.',
  network: 'The backend could not be reached.',
  timeout: 'Timed out.',
};

/** Structured details a {@link PushError} may carry. */
export interface PushErrorDetails {
  /** The native error, kept as it was. */
  cause?: unknown;
  /** HTTP status of the backend's answer, when it answered. */
  status?: number;
  /** The backend's machine-readable error code (`error` in its JSON body), when it gave one. */
  backendCode?: string;
}

/**
 * The one error class pushbridge throws (or rejects with).
 *
 * @example
 * ```ts
 * try { await push.subscribe(); }
 * catch (error) {
 *   if (isPushError(error) && error.code === 'permission-denied') showHowToUnblock();
 * }
 * ```
 */
export class PushError extends Error {
  override readonly name = 'PushError' as const;
  readonly code: PushErrorCode;
  readonly status: number | undefined;
  readonly backendCode: string | undefined;

  constructor(code: PushErrorCode, message: string = messages[code], details: PushErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.backendCode = details.backendCode;
  }
}

/**
 * Tell whether a value is a {@link PushError}, also across realms (iframes, bundles with two copies).
 *
 * @example
 * ```ts
 * if (isPushError(error)) console.warn(error.code);
 * ```
 */
export function isPushError(value: unknown): value is PushError {
  return value instanceof PushError || (value instanceof Error && value.name === 'PushError' && 'code' in value);
}

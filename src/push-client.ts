import { openPushbridgeDb, type RegistrationRecord } from './common/database.js';
import { browserEnv, type BrowserEnv } from './browser-env.js';
import { fingerprint } from './common/fingerprint.js';
import { postRegistration, registerRequest } from './common/handoff.js';
import type { PushState } from './common/push-state.js';
import type { RegisterResult } from './common/register-request.js';
import { PushError, isPushError } from './common/push-error.js';
import { ensurePermission } from './permission.js';
import { subscribeWithKey, subscriptionKeys } from './subscription.js';
import { waitForActiveWorker } from './wait-for-active-worker.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link createPushClient}. */
export interface PushClientOptions {
  /** The service's VAPID public key (base64url), as the backend hands it out. Never a private key. */
  vapidPublicKey: string;
  /** The worker script that imports `pushbridge/sw` (or the ready-made `pushbridge-sw.js`). */
  serviceWorker: { url: string; scope?: string };
  /** The app backend's route that makes the service's register call. */
  register: RegisterEndpoint;
  /** The caller's stable identifier of the signed-in user. */
  recipientId: string;
  /** Free-form attributes stored with the device. */
  metadata?: Record<string, string | number | boolean>;
  /** Upper bound of each wait (worker activation, subscribe, hand-off); 20 000 ms by default. */
  timeoutMs?: number;
}

/** What a successful {@link PushClient.subscribe} returns. */
export interface SubscribeResult extends RegisterResult {
  endpoint: string;
}

/** The object an app holds to manage push for one recipient. */
export interface PushClient {
  /**
   * Ask permission (call it from a click handler), register the worker and wait until it is
   * active, subscribe with the VAPID key and hand the subscription to the backend.
   */
  subscribe(): Promise<SubscribeResult>;
  /** Read the current {@link PushState} from the browser and the shared database. */
  getState(): Promise<PushState>;
}

/** Where and how the page hands the subscription to the app's backend. */
export interface RegisterEndpoint {
  /** The backend route that makes the service's register call, e.g. `/api/push/register`. */
  url: string;
  /** Extra non-secret headers, such as a CSRF token. */
  headers?: Record<string, string>;
  /** Fetch credentials mode; `same-origin` by default. */
  credentials?: RequestCredentials;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Create the push client of a page. Creating it does nothing yet: no prompt, no worker, no request.
 *
 * @param env The browser APIs to use; tests pass fakes, apps leave it out.
 *
 * @example
 * ```ts
 * const push = createPushClient({
 *   vapidPublicKey: config.vapidPublicKey,
 *   serviceWorker: { url: '/pushbridge-sw.js' },
 *   register: { url: '/api/push/register' },
 *   recipientId: user.id,
 * });
 * enableButton.onclick = () => push.subscribe().catch(showError);
 * ```
 */
export function createPushClient(options: PushClientOptions, env: BrowserEnv = browserEnv()): PushClient {
  validateOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const workerUrl = options.serviceWorker.url;
  const scope = options.serviceWorker.scope;
  let running: Promise<SubscribeResult> | null = null;

  function supported(): boolean {
    return env.serviceWorker !== undefined && env.pushManager && env.notification !== undefined;
  }

  /** The key of this client's record: the scope the worker controls. */
  function scopeUrl(): string {
    const base = typeof location === 'undefined' ? 'http://localhost/' : location.href;
    return new URL(scope ?? './', new URL(workerUrl, base)).href;
  }

  async function saveRecord(record: RegistrationRecord): Promise<void> {
    const db = await openPushbridgeDb();
    try {
      await db.put('registration', record, scopeUrl());
    } finally {
      db.close();
    }
  }

  async function readRecord(): Promise<RegistrationRecord | undefined> {
    const db = await openPushbridgeDb();
    try {
      return await db.get('registration', scopeUrl());
    } finally {
      db.close();
    }
  }

  async function runSubscribe(): Promise<SubscribeResult> {
    if (!supported()) throw new PushError('unsupported');
    // First, while the user gesture is still fresh: browsers ignore prompts without one.
    await ensurePermission(env);

    let registration: ServiceWorkerRegistration;
    try {
      registration = await withTimeout(env.registerWorker(workerUrl, scope), timeoutMs, 'Service worker registration');
      await withTimeout(waitForActiveWorker(registration), timeoutMs, 'Service worker activation');
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      throw new PushError('worker-failed', undefined, { cause });
    }

    let subscription: PushSubscription;
    try {
      subscription = await withTimeout(subscribeWithKey(registration.pushManager, options.vapidPublicKey), timeoutMs, 'Push subscription');
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      const denied = cause instanceof DOMException && cause.name === 'NotAllowedError';
      throw new PushError(denied ? 'permission-denied' : 'subscribe-failed', undefined, { cause });
    }

    const keys = subscriptionKeys(subscription);
    const record: RegistrationRecord = {
      fingerprint: fingerprint(keys, options.vapidPublicKey, options.recipientId),
      endpoint: keys.endpoint,
      recipientId: options.recipientId,
      subscriberId: null,
      deviceId: null,
      registeredAt: null,
      pending: true,
      lastError: null,
    };
    await saveRecord(record);
    try {
      const body = registerRequest(options.recipientId, keys, options.metadata);
      const handoff = { kind: 'url' as const, url: options.register.url, headers: options.register.headers ?? {}, credentials: options.register.credentials ?? 'same-origin' };
      const result = await postRegistration(env.fetch, handoff, body, timeoutMs);
      await saveRecord({ ...record, ...result, registeredAt: Date.now(), pending: false });
      return { ...result, endpoint: keys.endpoint };
    } catch (error) {
      await saveRecord({ ...record, lastError: isPushError(error) ? error.code : String(error) });
      throw error;
    }
  }

  return {
    subscribe() {
      // One tab clicking twice makes one subscription and one register call.
      running ??= runSubscribe().finally(() => {
        running = null;
      });
      return running;
    },

    async getState() {
      if (!supported() || !env.serviceWorker || !env.notification) return 'unsupported';
      if (running) return 'subscribing';
      if (env.notification.permission === 'denied') return 'denied';
      if (env.notification.permission === 'default') return 'default';
      const registration = await env.serviceWorker.getRegistration(scopeUrl());
      const subscription = registration ? await registration.pushManager.getSubscription() : null;
      if (!subscription) return 'unsubscribed';
      const record = await readRecord();
      const current = fingerprint(subscriptionKeys(subscription), options.vapidPublicKey, options.recipientId);
      return record && !record.pending && record.fingerprint === current ? 'subscribed' : 'pending';
    },
  };
}

function validateOptions(options: PushClientOptions): void {
  const problems: string[] = [];
  if (typeof options.vapidPublicKey !== 'string' || options.vapidPublicKey.length === 0) problems.push('vapidPublicKey');
  if (typeof options.serviceWorker?.url !== 'string' || options.serviceWorker.url.length === 0) problems.push('serviceWorker.url');
  if (typeof options.register?.url !== 'string' || options.register.url.length === 0) problems.push('register.url');
  if (typeof options.recipientId !== 'string' || options.recipientId.length === 0) problems.push('recipientId');
  if (problems.length > 0) throw new TypeError(`createPushClient: missing or empty option(s): ${problems.join(', ')}`);
}

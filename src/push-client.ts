import { browserEnv, type BrowserEnv } from './browser-env.js';
import { openPushbridgeDb, type ClientConfig, type RegistrationRecord } from './common/database.js';
import { fingerprint } from './common/fingerprint.js';
import { postRegistration, registerRequest } from './common/handoff.js';
import type { PushbridgeMessage } from './common/messages.js';
import { PushError, isPushError } from './common/push-error.js';
import type { PushState } from './common/push-state.js';
import type { RegisterResult } from './common/register-request.js';
import { handoffConfig, type RegisterOption } from './handoff-mode.js';
import { createInbox, type Inbox } from './inbox.js';
import { createMessageBus } from './message-bus.js';
import { ensurePermission } from './permission.js';
import { createPermissionPolicy } from './permission-policy.js';
import { reconcile, REREGISTER_AFTER_MS, type ReconcileAction } from './reconcile.js';
import { sameApplicationServerKey, subscribeWithKey, subscriptionKeys } from './subscription.js';
import { waitForActiveWorker } from './wait-for-active-worker.js';
import { lockHeld, withLock } from './with-lock.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link createPushClient}. */
export interface PushClientOptions {
  /** The service's VAPID public key (base64url), as the backend hands it out. Never a private key. */
  vapidPublicKey: string;
  /** The worker script that imports `pushbridge/sw` (or the ready-made `pushbridge-sw.js`), and its scope. */
  serviceWorker: { url: string; scope?: string };
  /**
   * How the subscription reaches the service's register call: `{ url, headers?, credentials? }`
   * (your backend, the default), `{ direct: { pushBaseUrl, clientKey } }` (the service itself,
   * with a client-safe key), or a function of yours.
   */
  register: RegisterOption;
  /** The caller's stable identifier of the signed-in user. */
  recipientId: string;
  /** Free-form attributes stored with the device. */
  metadata?: Record<string, string | number | boolean>;
  /**
   * Called when a device the backend knows stops being valid: unsubscribed, permission revoked,
   * subscription lost, replaced after a key change, or handed to another recipient. Tell your
   * backend to forget it. If it throws, the next `sync()` calls it again.
   */
  onUnregister?: (device: UnregisteredDevice) => void | Promise<void>;
  /** Run `sync()` once soon after creation (default true). */
  autoSync?: boolean;
  /** Upper bound of each wait (worker activation, subscribe, hand-off, lock); 20 000 ms by default. */
  timeoutMs?: number;
}

/** A device the backend should forget, as {@link PushClientOptions.onUnregister} receives it. */
export interface UnregisteredDevice {
  endpoint: string;
  recipientId: string;
  subscriberId: string | null;
  deviceId: string | null;
  reason: 'unsubscribed' | 'permission-revoked' | 'subscription-lost' | 'recipient-changed' | 'key-changed' | 'conflict';
}

/** What a successful {@link PushClient.subscribe} returns. */
export interface SubscribeResult extends RegisterResult {
  endpoint: string;
}

type MessageOf<T extends PushbridgeMessage['type']> = Extract<PushbridgeMessage, { type: T }>;

/** The worker's messages a page can listen to with {@link PushClient.on}. */
export interface PushEventMap {
  /** A push arrived while this page was open. */
  notification: MessageOf<'notification'>;
  /** A notification was clicked; `url` lets an SPA route without a reload. Listening acknowledges it. */
  click: MessageOf<'click'>;
  /** An in-app item was stored or marked read. */
  inbox: MessageOf<'inbox'>;
  /** A delivered / clicked / dismissed event. */
  event: MessageOf<'event'>;
  /** The worker resubscribed after the browser replaced the subscription. */
  'subscription-change': MessageOf<'subscription-change'>;
}

/** The object an app holds to manage push for one recipient. */
export interface PushClient {
  /** Read the current {@link PushState} from the browser and the shared database (any tab's work counts). */
  getState(): Promise<PushState>;
  /** Call `listener` whenever the state changes, in this tab or another; returns a function that stops it. */
  onStateChange(listener: (state: PushState) => void): () => void;
  /**
   * Ask permission (call it from a click handler), register the worker and wait until it is
   * active, subscribe with the VAPID key and hand the subscription off. One run at a time across
   * every tab; a tab that finds the work done makes no second register call.
   */
  subscribe(): Promise<SubscribeResult>;
  /** Remove the subscription, forget the registration and call `onUnregister`. */
  unsubscribe(): Promise<void>;
  /**
   * Bring the registration in line with the browser: re-register when the subscription changed or
   * the last registration is 7 days old, resubscribe when the VAPID key changed, forget it when it
   * is gone. Cheap when nothing changed. A failed hand-off leaves `pending`, retried on the next
   * `sync()` and when the browser comes back online.
   */
  sync(): Promise<PushState>;
  /** Switch user: a subscribed browser gets a fresh subscription for the new recipient. */
  setRecipient(recipientId: string): Promise<void>;
  /** Whether the app's own soft prompt may show now (not asked yet, no "not now" backoff running). */
  shouldAskPermission(): boolean;
  /** The user said "not now" to the soft prompt: wait 3, then 7, then 30 days. */
  notNow(): void;
  /** Listen to the worker's messages; returns a function that stops it. */
  on<K extends keyof PushEventMap>(type: K, listener: (message: PushEventMap[K]) => void): () => void;
  /** The in-app inbox that the worker fills. */
  inbox: Inbox;
  /** Stop listening to other tabs, the worker and the network. */
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Create the push client of a page. Creating it prompts for nothing and registers nothing; it
 * only schedules a cheap `sync()` (unless `autoSync: false`).
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
 * push.onStateChange((state) => render(state));
 * enableButton.onclick = () => push.subscribe().catch(showError);
 * ```
 */
export function createPushClient(options: PushClientOptions, env: BrowserEnv = browserEnv()): PushClient {
  validateOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const workerUrl = new URL(options.serviceWorker.url, env.baseUrl).href;
  const scope = new URL(options.serviceWorker.scope ?? './', workerUrl).href;
  const handoff = handoffConfig(options.register);
  const bus = createMessageBus(env);
  const policy = createPermissionPolicy(env);
  let recipientId = options.recipientId;
  let busy = 0;
  let running: Promise<SubscribeResult> | null = null;
  let syncing: Promise<PushState> | null = null;
  let stopOnline: (() => void) | null = null;

  const supported = (): boolean => env.serviceWorker !== undefined && env.pushManager && env.notification !== undefined;

  async function inDb<T>(work: (db: Awaited<ReturnType<typeof openPushbridgeDb>>) => Promise<T>): Promise<T> {
    const db = await openPushbridgeDb();
    try {
      return await work(db);
    } finally {
      db.close();
    }
  }

  const readRecord = (): Promise<RegistrationRecord | undefined> => inDb((db) => db.get('registration', scope));
  const writeRecord = (record: RegistrationRecord): Promise<unknown> => inDb((db) => db.put('registration', record, scope));
  const deleteRecord = (): Promise<void> => inDb((db) => db.delete('registration', scope));

  function writeConfig(): Promise<unknown> {
    // What the worker needs to re-register alone after pushsubscriptionchange.
    const stored: ClientConfig = {
      vapidPublicKey: options.vapidPublicKey,
      recipientId,
      metadata: options.metadata ?? {},
      handoff: handoff.kind === 'url' ? { ...handoff, url: new URL(handoff.url, env.baseUrl).href } : handoff,
    };
    return inDb((db) => db.put('config', stored, scope));
  }

  async function currentRegistration(): Promise<ServiceWorkerRegistration | undefined> {
    return env.serviceWorker?.getRegistration(scope);
  }

  function fingerprintOf(subscription: PushSubscription): string {
    return fingerprint(subscriptionKeys(subscription), options.vapidPublicKey, recipientId);
  }

  async function announce(): Promise<PushState> {
    const state = await getState();
    bus.post({ pushbridge: 1, type: 'state', scope, state });
    return state;
  }

  async function notifyUnregistered(record: RegistrationRecord, reason: UnregisteredDevice['reason']): Promise<void> {
    if (!options.onUnregister) return;
    const { endpoint, subscriberId, deviceId } = record;
    await options.onUnregister({ endpoint, recipientId: record.recipientId, subscriberId, deviceId, reason });
  }

  async function newSubscription(registration: ServiceWorkerRegistration): Promise<PushSubscription> {
    try {
      return await withTimeout(subscribeWithKey(registration.pushManager, options.vapidPublicKey), timeoutMs, 'Push subscription');
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      const denied = cause instanceof DOMException && cause.name === 'NotAllowedError';
      throw new PushError(denied ? 'permission-denied' : 'subscribe-failed', undefined, { cause });
    }
  }

  /** Hand the subscription off once; the record says pending until the backend confirms. */
  async function handOff(subscription: PushSubscription): Promise<SubscribeResult> {
    const keys = subscriptionKeys(subscription);
    const record: RegistrationRecord = {
      fingerprint: fingerprintOf(subscription),
      endpoint: keys.endpoint,
      recipientId,
      subscriberId: null,
      deviceId: null,
      registeredAt: null,
      pending: true,
      lastError: null,
    };
    await writeRecord(record);
    const body = registerRequest(recipientId, keys, options.metadata);
    try {
      const result =
        typeof options.register === 'function'
          ? await withTimeout(options.register(body, subscription), timeoutMs, 'The register callback')
          : await postRegistration(env.fetch, handoff as Exclude<typeof handoff, { kind: 'callback' }>, body, timeoutMs);
      await writeRecord({ ...record, subscriberId: result.subscriberId, deviceId: result.deviceId, registeredAt: env.now(), pending: false });
      stopOnline?.();
      stopOnline = null;
      return { subscriberId: result.subscriberId, deviceId: result.deviceId, endpoint: keys.endpoint };
    } catch (error) {
      await writeRecord({ ...record, lastError: isPushError(error) ? error.code : String(error) });
      // Retried when the network returns, as well as on the next sync().
      stopOnline ??= env.onOnline(() => void sync());
      throw error;
    }
  }

  /** Hand off; a 409 (the endpoint belongs to another recipient) is met once with a fresh subscription. */
  async function handOffWithRotation(registration: ServiceWorkerRegistration, subscription: PushSubscription): Promise<SubscribeResult> {
    try {
      return await handOff(subscription);
    } catch (error) {
      if (!isPushError(error) || error.code !== 'register-conflict') throw error;
      await subscription.unsubscribe();
      return handOff(await newSubscription(registration));
    }
  }

  async function registerWorker(): Promise<ServiceWorkerRegistration> {
    try {
      const registration = await withTimeout(env.registerWorker(workerUrl, options.serviceWorker.scope), timeoutMs, 'Service worker registration');
      await withTimeout(waitForActiveWorker(registration), timeoutMs, 'Service worker activation');
      return registration;
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      throw new PushError('worker-failed', undefined, { cause });
    }
  }

  async function runSubscribe(): Promise<SubscribeResult> {
    if (!supported()) throw new PushError(env.ios && !env.standalone ? 'needs-install' : 'unsupported');
    // First, while the user gesture is still fresh: browsers ignore prompts without one.
    await ensurePermission(env);
    const registration = await registerWorker();
    return withLock(env.locks, scope, timeoutMs, async () => {
      await writeConfig();
      const subscription = await newSubscription(registration);
      const record = await readRecord();
      const current = fingerprintOf(subscription);
      const fresh = record?.registeredAt != null && env.now() - record.registeredAt < REREGISTER_AFTER_MS;
      if (record && !record.pending && record.fingerprint === current && fresh && record.subscriberId && record.deviceId) {
        // Another tab (or an earlier call) did the work while this one waited for the lock.
        return { subscriberId: record.subscriberId, deviceId: record.deviceId, endpoint: subscription.endpoint };
      }
      if (record && !record.pending && record.endpoint !== subscription.endpoint) await forgetQuietly(record, 'key-changed');
      return handOffWithRotation(registration, subscription);
    });
  }

  /** Call onUnregister; failures are left for the next sync (the record is kept by the caller's order). */
  async function forgetQuietly(record: RegistrationRecord, reason: UnregisteredDevice['reason']): Promise<boolean> {
    try {
      await notifyUnregistered(record, reason);
      return true;
    } catch {
      return false;
    }
  }

  async function decide(): Promise<{ action: ReconcileAction; registration: ServiceWorkerRegistration | undefined; subscription: PushSubscription | null; record: RegistrationRecord | undefined }> {
    const registration = await currentRegistration();
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    const record = await readRecord();
    const permission = env.notification?.permission ?? 'default';
    const action = reconcile({
      permission,
      subscription: subscription ? { fingerprint: fingerprintOf(subscription), sameKey: sameApplicationServerKey(subscription, options.vapidPublicKey) } : null,
      record,
      now: env.now(),
    });
    return { action, registration, subscription, record };
  }

  async function apply(step: Awaited<ReturnType<typeof decide>>): Promise<void> {
    const { action, registration, subscription, record } = step;
    if (action.kind === 'none') return;
    if (action.kind === 'forget') {
      if (subscription) await subscription.unsubscribe();
      if (record && (await forgetQuietly(record, action.reason))) await deleteRecord();
      return;
    }
    if (!registration || !subscription) return;
    await writeConfig();
    if (action.kind === 'resubscribe') {
      await subscription.unsubscribe();
      if (record && !record.pending) await forgetQuietly(record, 'key-changed');
      await handOffWithRotation(registration, await newSubscription(registration));
      return;
    }
    await handOffWithRotation(registration, subscription);
  }

  function sync(): Promise<PushState> {
    syncing ??= (async () => {
      if (!supported()) return getState();
      busy++;
      try {
        const first = await decide();
        if (first.action.kind !== 'none') {
          // Decided again under the lock: another tab may have done the work meanwhile.
          await withLock(env.locks, scope, timeoutMs, async () => apply(await decide())).catch((error: unknown) => {
            // The record says pending and keeps the error; sync reports state, not failures.
            if (!isPushError(error)) throw error;
          });
        }
      } finally {
        busy--;
      }
      return announce();
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  }

  async function getState(): Promise<PushState> {
    if (!supported() || !env.notification) return env.ios && !env.standalone ? 'needs-install' : 'unsupported';
    if (busy > 0 || running || (await lockHeld(env.locks, scope))) return 'subscribing';
    if (env.notification.permission === 'denied') return 'denied';
    if (env.notification.permission === 'default') return 'default';
    const registration = await currentRegistration();
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    if (!subscription) return 'unsubscribed';
    const record = await readRecord();
    const confirmed = record && !record.pending && record.fingerprint === fingerprintOf(subscription);
    return confirmed && sameApplicationServerKey(subscription, options.vapidPublicKey) ? 'subscribed' : 'pending';
  }

  async function exclusive<T>(work: () => Promise<T>): Promise<T> {
    busy++;
    void announce();
    try {
      return await withLock(env.locks, scope, timeoutMs, work);
    } finally {
      busy--;
      await announce();
    }
  }

  const clickListeners = new Set<(message: PushEventMap['click']) => void>();
  let stopClicks: (() => void) | null = null;

  if (options.autoSync !== false && supported()) {
    // Soon, not now: creating the client must not run work in the caller's stack.
    setTimeout(() => void sync().catch(() => undefined), 0);
  }

  return {
    getState,

    onStateChange(listener) {
      let last: PushState | null = null;
      const emit = (state: PushState): void => {
        if (state === last) return;
        last = state;
        listener(state);
      };
      void getState().then(emit);
      return bus.subscribe((message) => {
        if (message.type === 'state' && message.scope === scope) emit(message.state);
        // The worker changed the subscription: re-read rather than trust the message alone.
        else if (message.type === 'subscription-change' && message.scope === scope) void getState().then(emit);
      });
    },

    subscribe() {
      // One tab clicking twice makes one subscription and one register call.
      running ??= (async () => {
        busy++;
        void announce();
        try {
          return await runSubscribe();
        } finally {
          busy--;
          running = null;
          await announce();
        }
      })();
      return running;
    },

    async unsubscribe() {
      if (!supported()) return;
      await exclusive(async () => {
        const registration = await currentRegistration();
        const subscription = registration ? await registration.pushManager.getSubscription() : null;
        const record = await readRecord();
        if (subscription) await subscription.unsubscribe();
        if (record) await forgetQuietly(record, 'unsubscribed');
        await deleteRecord();
      });
    },

    sync,

    async setRecipient(next) {
      if (typeof next !== 'string' || next.length === 0) throw new TypeError('setRecipient: the recipient id must be a non-empty string');
      if (next === recipientId) return;
      recipientId = next;
      if (!supported() || env.notification?.permission !== 'granted') return;
      await exclusive(async () => {
        const registration = await currentRegistration();
        const old = registration ? await registration.pushManager.getSubscription() : null;
        await writeConfig();
        if (!registration || !old) return;
        // A fresh subscription, so that the old user's endpoint never reaches the new user.
        const record = await readRecord();
        await old.unsubscribe();
        if (record) await forgetQuietly(record, 'recipient-changed');
        await deleteRecord();
        await handOffWithRotation(registration, await newSubscription(registration));
      });
    },

    shouldAskPermission: () => policy.shouldAskPermission(),
    notNow: () => policy.notNow(),

    on(type, listener) {
      if (type === 'click') {
        const clickListener = listener as (message: PushEventMap['click']) => void;
        clickListeners.add(clickListener);
        stopClicks ??= bus.subscribe((message) => {
          if (message.type !== 'click' || clickListeners.size === 0) return;
          for (const each of [...clickListeners]) each(message);
          // Tells the worker that a page routed the click, so it need not navigate.
          bus.post({ pushbridge: 1, type: 'click-ack', clickId: message.clickId });
        });
        return () => {
          clickListeners.delete(clickListener);
        };
      }
      return bus.subscribe((message) => {
        if (message.type === type) (listener as (m: PushbridgeMessage) => void)(message);
      });
    },

    inbox: createInbox(bus, env.now),

    close() {
      stopOnline?.();
      stopOnline = null;
      stopClicks = null;
      clickListeners.clear();
      bus.close();
    },
  };
}

function validateOptions(options: PushClientOptions): void {
  const problems: string[] = [];
  const register = options.register as unknown;
  if (typeof options.vapidPublicKey !== 'string' || options.vapidPublicKey.length === 0) problems.push('vapidPublicKey');
  if (typeof options.serviceWorker?.url !== 'string' || options.serviceWorker.url.length === 0) problems.push('serviceWorker.url');
  const validRegister =
    typeof register === 'function' ||
    (typeof register === 'object' &&
      register !== null &&
      ((typeof (register as { url?: unknown }).url === 'string' && (register as { url: string }).url.length > 0) ||
        (typeof (register as { direct?: { pushBaseUrl?: unknown; clientKey?: unknown } }).direct?.pushBaseUrl === 'string' &&
          typeof (register as { direct: { clientKey?: unknown } }).direct.clientKey === 'string')));
  if (!validRegister) problems.push('register');
  if (typeof options.recipientId !== 'string' || options.recipientId.length === 0) problems.push('recipientId');
  if (problems.length > 0) throw new TypeError(`createPushClient: missing or invalid option(s): ${problems.join(', ')}`);
}

import { browserEnv, type BrowserEnv } from './browser-env.js';
import type { BrowserSnapshot, ClientContext } from './client-context.js';
import type { ClientOperations } from './client-operations.js';
import { fingerprint } from './common/fingerprint.js';
import type { PushbridgeMessage } from './common/messages.js';
import { PushError, isPushError } from './common/push-error.js';
import type { PushState } from './common/push-state.js';
import type { RegisterResult } from './common/register-request.js';
import type { RegisterOption } from './handoff-mode.js';
import type { Inbox } from './inbox.js';
import { configSource } from './config-source.js';
import { createMessageBus } from './message-bus.js';
import { ensurePermission } from './permission.js';
import { createPermissionPolicy } from './permission-policy.js';
import { reconcile } from './reconcile.js';
import { createRegistrationStore } from './registration-store.js';
import { sameApplicationServerKey, subscriptionKeys } from './subscription.js';
import { lockHeld, withLock } from './with-lock.js';

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
  reason: 'unsubscribed' | 'permission-revoked' | 'subscription-lost' | 'recipient-changed' | 'key-changed';
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
  /**
   * A notification was clicked and the worker brought this window forward; `url` lets an SPA
   * route without a reload. Listening acknowledges it, so the worker does not navigate. Other
   * tabs hear of the click as an `event` (`clicked`).
   */
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
  const workerUrl = new URL(options.serviceWorker.url, env.baseUrl).href;
  const scope = new URL(options.serviceWorker.scope ?? './', workerUrl).href;
  const bus = createMessageBus(env);
  const policy = createPermissionPolicy(env);
  let busy = 0;
  let running: Promise<SubscribeResult> | null = null;
  let syncing: Promise<PushState> | null = null;
  let loaded: Promise<ClientOperations> | null = null;
  let closed = false;
  let autoSyncTimer: ReturnType<typeof setTimeout> | undefined;
  let stopAdopting: (() => void) | null = null;

  const supported = (): boolean => env.serviceWorker !== undefined && env.pushManager && env.notification !== undefined;
  const unsupportedState = (): PushState => (env.ios && !env.standalone ? 'needs-install' : 'unsupported');

  const ctx: ClientContext = {
    options,
    env,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    workerUrl,
    scope,
    recipientId: options.recipientId,
    bus,
    store: createRegistrationStore(scope),
    closed: false,
    stopOnline: null,
    fingerprintOf: (subscription) => fingerprint(subscriptionKeys(subscription), options.vapidPublicKey, ctx.recipientId),
    announce,
    sync,
  };

  /** The operations, loaded on first need: a healthy page load never fetches them. */
  function operations(): Promise<ClientOperations> {
    loaded ??= import('./client-operations.js').then(
      (module) => module.createClientOperations(ctx),
      (cause: unknown) => {
        // Offline, or a deploy replaced the chunk: the next call tries again.
        loaded = null;
        throw new PushError('network', "pushbridge's subscription code could not be loaded.", { cause });
      },
    );
    return loaded;
  }

  /** Tell every tab the state: the one given, or a fresh reading. */
  async function announce(known?: PushState): Promise<PushState> {
    const state = known ?? (await getState());
    if (!closed) bus.post({ pushbridge: 1, type: 'state', scope, state });
    return state;
  }

  /** Follow user switches made in other tabs, so that a stale tab never registers the old user again. */
  function adoptRecipients(): void {
    if (closed || stopAdopting) return;
    stopAdopting = bus.subscribe((message) => {
      if (message.type === 'recipient' && message.scope === scope) ctx.recipientId = message.recipientId;
    });
  }

  async function snapshot(): Promise<BrowserSnapshot> {
    const registration = await env.serviceWorker?.getRegistration(scope);
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    const record = await ctx.store.read();
    const action = reconcile({
      permission: env.notification?.permission ?? 'default',
      subscription: subscription ? { fingerprint: ctx.fingerprintOf(subscription), sameKey: sameApplicationServerKey(subscription, options.vapidPublicKey) } : null,
      record,
      recipientId: ctx.recipientId,
      now: env.now(),
    });
    return { action, registration, subscription, record };
  }

  function sync(): Promise<PushState> {
    syncing ??= (async () => {
      if (!supported() || closed) return getState();
      adoptRecipients();
      const first = await snapshot();
      let settled: PushState | undefined;
      if (first.action.kind === 'none') {
        // Cheap path: a healthy page load. Keep what the worker replays current (a CSRF header may have changed).
        if (first.subscription && (await ctx.store.readConfig())?.source !== configSource(ctx)) await (await operations()).saveConfig();
        settled = await settledState(first);
      } else {
        busy++;
        try {
          // Decided again under the lock: another tab may have done the work meanwhile.
          const work = await operations();
          await withLock(env.locks, scope, ctx.timeoutMs, async () => work.apply(await snapshot()));
        } catch (error) {
          // The record says pending and keeps the error; sync reports state, not failures.
          if (!isPushError(error)) throw error;
        } finally {
          busy--;
        }
      }
      if (options.onUnregister && (await ctx.store.pendingUnregisters()).length > 0) {
        await (await operations()).retryUnregisters().catch(() => undefined);
      }
      return announce(settled);
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  }

  /**
   * The state after a snapshot that needed no work, without reading the browser again: nothing
   * to do means a confirmed subscription, or none and no record.
   */
  async function settledState({ subscription }: BrowserSnapshot): Promise<PushState> {
    if (running || (await lockHeld(env.locks, scope))) return 'subscribing';
    const permission = env.notification?.permission;
    if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'default';
    return subscription ? 'subscribed' : 'unsubscribed';
  }

  async function getState(): Promise<PushState> {
    if (!supported() || !env.notification) return unsupportedState();
    if (busy > 0 || running || (await lockHeld(env.locks, scope))) return 'subscribing';
    if (env.notification.permission === 'denied') return 'denied';
    if (env.notification.permission === 'default') return 'default';
    const registration = await env.serviceWorker?.getRegistration(scope);
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    if (!subscription) return 'unsubscribed';
    const record = await ctx.store.read();
    const confirmed = record && !record.pending && record.fingerprint === ctx.fingerprintOf(subscription);
    return confirmed && sameApplicationServerKey(subscription, options.vapidPublicKey) ? 'subscribed' : 'pending';
  }

  /** Run `work` as this tab's one change at a time, telling every tab before and after. */
  async function changing<T>(work: () => Promise<T>): Promise<T> {
    busy++;
    void announce();
    try {
      return await work();
    } finally {
      busy--;
      await announce();
    }
  }

  const clickListeners = new Set<(message: PushEventMap['click']) => void>();
  let stopClicks: (() => void) | null = null;

  if (options.autoSync !== false && supported()) {
    // Soon, not now: creating the client must not run work in the caller's stack.
    autoSyncTimer = setTimeout(() => void sync().catch(() => undefined), 0);
  }

  return {
    getState,

    onStateChange(listener) {
      let last: PushState | null = null;
      // Each reading carries a number, so that a slow read never overwrites a newer state.
      let issued = 0;
      let shown = 0;
      const emit = (state: PushState, order: number): void => {
        if (order < shown || state === last) return;
        shown = order;
        last = state;
        listener(state);
      };
      const read = (): void => {
        const order = ++issued;
        void getState().then((state) => emit(state, order));
      };
      read();
      return bus.subscribe((message) => {
        if (message.type === 'state' && message.scope === scope) emit(message.state, ++issued);
        // The worker changed the subscription: re-read rather than trust the message alone.
        else if (message.type === 'subscription-change' && message.scope === scope) read();
      });
    },

    subscribe() {
      // One tab clicking twice makes one subscription and one register call.
      running ??= (async () => {
        busy++;
        void announce();
        try {
          if (!supported()) throw new PushError(unsupportedState() as 'unsupported' | 'needs-install');
          // First, while the user gesture is still fresh: no code is loaded before the prompt.
          await ensurePermission(env);
          adoptRecipients();
          return await (await operations()).subscribe();
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
      const work = await operations();
      await changing(() => withLock(env.locks, scope, ctx.timeoutMs, () => work.unsubscribe()));
    },

    sync,

    async setRecipient(next) {
      if (typeof next !== 'string' || next.length === 0) throw new TypeError('setRecipient: the recipient id must be a non-empty string');
      if (next === ctx.recipientId) return;
      ctx.recipientId = next;
      adoptRecipients();
      bus.post({ pushbridge: 1, type: 'recipient', scope, recipientId: next });
      if (!supported() || env.notification?.permission !== 'granted') return;
      const work = await operations();
      await changing(() => withLock(env.locks, scope, ctx.timeoutMs, () => work.switchRecipient()));
    },

    shouldAskPermission: () => policy.shouldAskPermission(),
    notNow: () => policy.notNow(),

    on(type, listener) {
      if (type === 'click') {
        const clickListener = listener as (message: PushEventMap['click']) => void;
        clickListeners.add(clickListener);
        stopClicks ??= bus.subscribe((message, toThisWindow) => {
          // Only the window the worker brought forward routes a click: a click heard on the
          // channel (an older worker's broadcast) is some other tab's to handle.
          if (message.type !== 'click' || !toThisWindow || clickListeners.size === 0) return;
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

    inbox: {
      list: async () => (await operations()).inbox.list(),
      unreadCount: async () => (await operations()).inbox.unreadCount(),
      markRead: async (notificationId) => (await operations()).inbox.markRead(notificationId),
    },

    close() {
      closed = true;
      ctx.closed = true;
      clearTimeout(autoSyncTimer);
      stopAdopting?.();
      ctx.stopOnline?.();
      ctx.stopOnline = null;
      stopClicks = null;
      clickListeners.clear();
      bus.close();
      ctx.store.close();
    },
  };
}

function validateOptions(options: PushClientOptions): void {
  const text = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
  const register = options.register as { url?: unknown; direct?: { pushBaseUrl?: unknown; clientKey?: unknown } } | undefined;
  const checks: [string, boolean][] = [
    ['vapidPublicKey', text(options.vapidPublicKey)],
    ['serviceWorker.url', text(options.serviceWorker?.url)],
    ['register', typeof register === 'function' || text(register?.url) || (text(register?.direct?.pushBaseUrl) && text(register?.direct?.clientKey))],
    ['recipientId', text(options.recipientId)],
  ];
  const problems = checks.filter(([, ok]) => !ok).map(([name]) => name);
  if (problems.length > 0) throw new TypeError(`createPushClient: missing or invalid option(s): ${problems.join(', ')}`);
}

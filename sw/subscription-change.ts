import { bytesToBase64Url } from '../src/common/base64url.js';
import { openPushbridgeDb, type ClientConfig, type RegistrationRecord } from '../src/common/database.js';
import { fingerprint } from '../src/common/fingerprint.js';
import { postRegistration, registerRequest, type SubscriptionKeys } from '../src/common/handoff.js';
import { lockName } from '../src/common/lock-name.js';
import { isPushError } from '../src/common/push-error.js';
import { subscribeWithKey } from '../src/common/subscribe-with-key.js';
import { subscriptionKeys } from '../src/common/subscription-keys.js';
import { broadcast } from './broadcast.js';
import { keepAlive } from './keep-alive.js';
import { workerScope } from './worker-scope.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Handle `pushsubscriptionchange` inside `waitUntil`, under the same Web Lock the page takes to
 * subscribe: resubscribe with the stored VAPID key (unless the browser already gave a new
 * subscription), hand it to the backend again through the stored `url` or `direct` hand-off,
 * update the `registration` record, and tell the windows (`subscription-change`). With the
 * `callback` hand-off, which only a page can run, the record is left pending and the message
 * says `registered: false, error: null`, so that a page redoes the hand-off.
 *
 * The wait for the lock is bounded by `timeoutMs`: a page that holds it longer (or forever) would
 * otherwise keep the event waiting until the browser kills the worker and the change is lost.
 * On timeout the record is left pending (error `timeout`), so the next `sync()` of a page
 * registers the subscription the browser holds, and the windows are told.
 *
 * @example
 * ```ts
 * self.addEventListener('pushsubscriptionchange', (event) => handleSubscriptionChange(event as PushSubscriptionChangeEvent));
 * ```
 */
export function handleSubscriptionChange(event: PushSubscriptionChangeEvent, options: WorkerOptions = {}): Promise<void> {
  const scope = workerScope(options);
  const name = lockName(scope.registration.scope);
  const locks = scope.navigator?.locks;
  if (!locks) return keepAlive(event, resubscribe(event, options));
  let granted = false;
  const work = (): Promise<void> => {
    granted = true;
    return resubscribe(event, options);
  };
  const locked = locks.request(name, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) }, work).catch((error: unknown) => {
    // Only a wait that never got the lock is a timeout; an error of the work itself is not.
    if (granted) throw error;
    return leavePending(event, options);
  });
  return keepAlive(event, locked);
}

/** Post the outcome to the windows. */
function tell(scope: string, endpoint: string | null, registered: boolean, error: string | null): void {
  broadcast({ pushbridge: 1, type: 'subscription-change', scope, endpoint, registered, error });
}

/** A record that says: this subscription is not registered yet. */
function pendingRecord(keys: SubscriptionKeys, config: ClientConfig, lastError: string | null): RegistrationRecord {
  return {
    fingerprint: fingerprint(keys, config.vapidPublicKey, config.recipientId),
    endpoint: keys.endpoint,
    recipientId: config.recipientId,
    subscriberId: null,
    deviceId: null,
    registeredAt: null,
    pending: true,
    lastError,
  };
}

async function resubscribe(event: PushSubscriptionChangeEvent, options: WorkerOptions): Promise<void> {
  const { registration } = workerScope(options);
  const key = registration.scope;
  const db = await openPushbridgeDb();
  let endpoint: string | null = null;
  try {
    const config = await db.get('config', key);
    let keys: SubscriptionKeys;
    try {
      const subscription = event.newSubscription ?? (await currentSubscription(registration.pushManager, config, event.oldSubscription));
      if (!subscription) return tell(key, null, false, 'subscribe-failed');
      endpoint = subscription.endpoint;
      keys = subscriptionKeys(subscription);
    } catch {
      return tell(key, endpoint, false, 'subscribe-failed');
    }
    if (!config) return tell(key, endpoint, false, 'no stored config');
    const record = pendingRecord(keys, config, null);
    const { handoff } = config;
    if (handoff.kind !== 'callback') {
      try {
        const body = registerRequest(config.recipientId, keys, config.metadata);
        const ids = await postRegistration(options.fetch ?? fetch, handoff, body, options.timeoutMs ?? 10_000);
        Object.assign(record, ids, { registeredAt: Date.now(), pending: false });
      } catch (error) {
        record.lastError = isPushError(error) ? error.code : String(error);
      }
    }
    await db.put('registration', record, key);
    tell(key, endpoint, !record.pending, record.lastError);
  } finally {
    db.close();
  }
}

/**
 * The subscription to register: one made with the stored VAPID key (the same rule as the page's
 * subscribe); without a stored config, one made with the old subscription's key, else whatever
 * the browser holds.
 */
async function currentSubscription(
  pushManager: PushManager,
  config: ClientConfig | undefined,
  old: PushSubscription | null | undefined,
): Promise<PushSubscription | null> {
  if (config) return subscribeWithKey(pushManager, config.vapidPublicKey);
  const oldKey = old?.options.applicationServerKey;
  if (oldKey) return subscribeWithKey(pushManager, bytesToBase64Url(oldKey));
  return pushManager.getSubscription();
}

/**
 * The lock did not come in time: without it the worker must not subscribe or register (a page
 * is doing that now, or is stuck). Leave a pending record for the page's next `sync()`: for the
 * browser's new subscription when the event carries one, else the current record marked pending.
 * Written outside the lock, it can at worst overwrite a record the page confirmed a moment ago;
 * the cost is one more (idempotent) register call.
 */
async function leavePending(event: PushSubscriptionChangeEvent, options: WorkerOptions): Promise<void> {
  const key = workerScope(options).registration.scope;
  const db = await openPushbridgeDb();
  try {
    const [config, existing] = await Promise.all([db.get('config', key), db.get('registration', key)]);
    let record: RegistrationRecord | undefined;
    if (event.newSubscription && config) {
      try {
        record = pendingRecord(subscriptionKeys(event.newSubscription), config, 'timeout');
      } catch {
        // No keys: nothing a page could register either; fall back to the current record.
      }
    }
    record ??= existing && { ...existing, pending: true, lastError: 'timeout' };
    if (record) await db.put('registration', record, key);
    tell(key, record?.endpoint ?? event.newSubscription?.endpoint ?? null, false, 'timeout');
  } finally {
    db.close();
  }
}


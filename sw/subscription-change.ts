import { base64UrlToBytes, bytesToBase64Url } from '../src/common/base64url.js';
import { openPushbridgeDb, type RegistrationRecord } from '../src/common/database.js';
import { fingerprint } from '../src/common/fingerprint.js';
import { postRegistration, registerRequest, type SubscriptionKeys } from '../src/common/handoff.js';
import { lockName } from '../src/common/lock-name.js';
import { isPushError } from '../src/common/push-error.js';
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
 * @example
 * ```ts
 * self.addEventListener('pushsubscriptionchange', (event) => handleSubscriptionChange(event as PushSubscriptionChangeEvent));
 * ```
 */
export function handleSubscriptionChange(event: PushSubscriptionChangeEvent, options: WorkerOptions = {}): Promise<void> {
  const scope = workerScope(options);
  const name = lockName(scope.registration.scope);
  const locks = scope.navigator?.locks;
  const work = () => resubscribe(event, options);
  return keepAlive(event, locks ? locks.request(name, work) : work());
}

async function resubscribe(event: PushSubscriptionChangeEvent, options: WorkerOptions): Promise<void> {
  const { registration } = workerScope(options);
  const key = registration.scope;
  const db = await openPushbridgeDb();
  let endpoint: string | null = null;
  try {
    const config = await db.get('config', key);
    const tell = (registered: boolean, error: string | null): void =>
      broadcast({ pushbridge: 1, type: 'subscription-change', scope: key, endpoint, registered, error });
    let subscription: PushSubscription | null;
    try {
      subscription = event.newSubscription ?? (await registration.pushManager.getSubscription());
      const serverKey = config ? base64UrlToBytes(config.vapidPublicKey) : event.oldSubscription?.options.applicationServerKey;
      if (!subscription && serverKey) subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
    } catch {
      subscription = null;
    }
    if (!subscription) return tell(false, 'subscribe-failed');
    endpoint = subscription.endpoint;
    if (!config) return tell(false, 'no stored config');
    const keys: SubscriptionKeys = { endpoint, p256dh: keyOf(subscription, 'p256dh'), auth: keyOf(subscription, 'auth') };
    const record: RegistrationRecord = {
      fingerprint: fingerprint(keys, config.vapidPublicKey, config.recipientId),
      endpoint,
      recipientId: config.recipientId,
      subscriberId: null,
      deviceId: null,
      registeredAt: null,
      pending: true,
      lastError: null,
    };
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
    tell(!record.pending, record.lastError);
  } finally {
    db.close();
  }
}

function keyOf(subscription: PushSubscription, name: PushEncryptionKeyName): string {
  const bytes = subscription.getKey(name);
  return bytes ? bytesToBase64Url(bytes) : '';
}

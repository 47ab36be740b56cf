import { base64UrlToBytes, bytesToBase64Url } from './common/base64url.js';
import type { SubscriptionKeys } from './common/handoff.js';

/**
 * Whether the subscription was created with this application server (VAPID) public key.
 * Subscriptions that predate `options.applicationServerKey` count as different.
 *
 * @example
 * ```ts
 * if (!sameApplicationServerKey(existing, vapidPublicKey)) await existing.unsubscribe();
 * ```
 */
export function sameApplicationServerKey(subscription: PushSubscription, vapidPublicKey: string): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const a = new Uint8Array(current);
  const b = base64UrlToBytes(vapidPublicKey);
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Return a push subscription made with `vapidPublicKey`: the existing one when it matches,
 * otherwise a new one (an existing subscription with another key is removed first, because
 * the browser refuses to subscribe over it).
 *
 * @example
 * ```ts
 * const subscription = await subscribeWithKey(registration.pushManager, vapidPublicKey);
 * ```
 */
export async function subscribeWithKey(pushManager: PushManager, vapidPublicKey: string): Promise<PushSubscription> {
  const existing = await pushManager.getSubscription();
  if (existing && sameApplicationServerKey(existing, vapidPublicKey)) return existing;
  if (existing) await existing.unsubscribe();
  return pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(vapidPublicKey) });
}

/**
 * Read endpoint, p256dh and auth from a subscription.
 *
 * @example
 * ```ts
 * const { endpoint, p256dh, auth } = subscriptionKeys(subscription);
 * ```
 */
export function subscriptionKeys(subscription: PushSubscription): SubscriptionKeys {
  const p256dh = subscription.getKey('p256dh');
  const auth = subscription.getKey('auth');
  if (!p256dh || !auth) throw new Error('The push subscription has no encryption keys.');
  return { endpoint: subscription.endpoint, p256dh: bytesToBase64Url(p256dh), auth: bytesToBase64Url(auth) };
}

import { bytesToBase64Url } from './base64url.js';
import type { SubscriptionKeys } from './handoff.js';

/**
 * Read endpoint, p256dh and auth from a subscription. Shared by the page and the worker, so that
 * both refuse a subscription without keys the same way instead of registering empty keys.
 *
 * @throws Error when the subscription has no encryption keys.
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

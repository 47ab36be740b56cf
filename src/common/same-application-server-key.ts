import { base64UrlToBytes } from './base64url.js';

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

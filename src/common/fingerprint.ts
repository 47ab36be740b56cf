import type { SubscriptionKeys } from './handoff.js';

/**
 * One string that changes whenever anything the backend's record depends on changes: the
 * endpoint, both keys, the application server key and the recipient.
 *
 * @example
 * ```ts
 * if (fingerprint(keys, vapidPublicKey, recipientId) !== stored.fingerprint) reRegister();
 * ```
 */
export function fingerprint(keys: SubscriptionKeys, vapidPublicKey: string, recipientId: string): string {
  return JSON.stringify([keys.endpoint, keys.p256dh, keys.auth, vapidPublicKey.replace(/=+$/, ''), recipientId]);
}

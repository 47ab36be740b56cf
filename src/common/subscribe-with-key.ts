import { base64UrlToBytes } from './base64url.js';
import { sameApplicationServerKey } from './same-application-server-key.js';

/**
 * Return a push subscription made with `vapidPublicKey`: the existing one when it matches,
 * otherwise a new one (an existing subscription with another key is removed first, because
 * the browser refuses to subscribe over it). Shared by the page's subscribe and the worker's
 * `pushsubscriptionchange`, so that both end with the same subscription.
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

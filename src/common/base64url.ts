/**
 * Decode base64url (with or without `=` padding, and tolerating standard base64) to bytes.
 *
 * @example
 * ```ts
 * const key = base64UrlToBytes(vapidPublicKey); // 65 bytes for a P-256 public key
 * ```
 */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Encode bytes as base64url without padding, the form the Push API's `toJSON()` uses.
 *
 * @example
 * ```ts
 * bytesToBase64Url(subscription.getKey('p256dh')!);
 * ```
 */
export function bytesToBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

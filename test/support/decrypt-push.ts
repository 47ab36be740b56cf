import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';

/** A browser's side of a push subscription: its key pair and auth secret (RFC 8291). */
export interface BrowserKeys {
  ecdh: ECDH;
  /** base64url of the uncompressed public key, as `keys.p256dh`. */
  p256dh: string;
  /** base64url of the 16-byte secret, as `keys.auth`. */
  auth: string;
}

/** Make the keys a browser would make for a subscription. */
export function createBrowserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/**
 * Decrypt an `aes128gcm` Web Push body (RFC 8188 framing, RFC 8291 keys) as the browser would.
 * Supports the single record that Web Push messages use.
 *
 * @throws Error when the framing, the key or the tag is wrong.
 */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] as number;
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not a P-256 public key`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const receiverKey = keys.ecdh.getPublicKey();
  const shared = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, Buffer.from(keys.auth, 'base64url'), keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // Padding: the last record ends with 0x02 followed by zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('last record delimiter missing');
  return padded.subarray(0, end).toString('utf8');
}

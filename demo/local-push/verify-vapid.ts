import { createPublicKey, verify } from 'node:crypto';

/** The outcome of checking a request's VAPID authorization. */
export type VapidCheck = { ok: true; claims: { aud: string; exp: number; sub: string } } | { ok: false; why: string };

/**
 * Check `Authorization: vapid t=<JWT>, k=<key>` as a push service must (RFC 8292): an ES256
 * JWT signed by `k`, `aud` equal to the endpoint's origin, `exp` within 24 hours, a `sub`, and
 * `k` equal to the application server key the subscription was made with.
 */
export function verifyVapid(authorization: string | undefined, subscribedKey: string | null, endpointOrigin: string): VapidCheck {
  const match = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (!match?.[1]) return { ok: false, why: 'no vapid Authorization header' };
  const params = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const token = params.get('t');
  const keyText = params.get('k');
  if (!token || !keyText) return { ok: false, why: 'vapid header lacks t= or k=' };
  const key = Buffer.from(keyText, 'base64url');
  if (key.length !== 65 || key[0] !== 4) return { ok: false, why: 'k is not an uncompressed P-256 point' };
  if (subscribedKey !== null && !Buffer.from(subscribedKey, 'base64url').equals(key)) {
    return { ok: false, why: 'k differs from the applicationServerKey of the subscription' };
  }
  const [head, payload, signature] = token.split('.');
  if (!head || !payload || !signature) return { ok: false, why: 'malformed JWT' };
  let header: { alg?: unknown };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, why: 'JWT is not JSON' };
  }
  if (header.alg !== 'ES256') return { ok: false, why: `JWT alg ${String(header.alg)}` };
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${head}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) return { ok: false, why: 'JWT signature invalid' };
  if (claims.aud !== endpointOrigin) return { ok: false, why: `aud ${String(claims.aud)} is not ${endpointOrigin}` };
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 24 * 3600) return { ok: false, why: 'exp out of range' };
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return { ok: false, why: 'sub is not a mailto: or https: URL' };
  return { ok: true, claims: { aud: claims.aud, exp: claims.exp, sub: claims.sub } };
}

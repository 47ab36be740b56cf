import webpush from 'web-push';
import type { Clock } from './clock.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** Builds the VAPID `Authorization` header (RFC 8292) for an endpoint. */
export interface VapidSigner {
  authorization(endpoint: string): string;
}

const LIFETIME_SECONDS = 12 * 3600;
const RENEW_BEFORE_SECONDS = 3600;

/**
 * Sign with web-push, once per push-service origin and then from a cache until an hour before
 * the token's 12-hour expiry: an ES256 signature per message would cost more than the
 * encryption itself when a notification fans out to thousands of devices on one push service.
 */
export function createVapidSigner(keys: VapidKeys, subject: string, clock: Clock): VapidSigner {
  const cache = new Map<string, { header: string; expires: number }>();
  return {
    authorization(endpoint) {
      const audience = new URL(endpoint).origin;
      const now = Math.floor(clock.now() / 1000);
      const cached = cache.get(audience);
      if (cached && cached.expires - RENEW_BEFORE_SECONDS > now) return cached.header;
      const expires = now + LIFETIME_SECONDS;
      const { Authorization } = webpush.getVapidHeaders(audience, subject, keys.publicKey, keys.privateKey, 'aes128gcm', expires);
      cache.set(audience, { header: Authorization, expires });
      return Authorization;
    },
  };
}

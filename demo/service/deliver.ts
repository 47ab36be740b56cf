import webpush from 'web-push';
import { parseRetryAfter } from './backoff.ts';

/** One Web Push message to one device. */
export interface PushMessage {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The envelope's JSON. */
  payload: string;
  ttlSeconds: number;
  /** The VAPID Authorization header. */
  authorization: string;
}

/** What the push service answered. */
export interface PushResult {
  /** HTTP status; null when no answer came (network error, timeout). */
  status: number | null;
  error: string | null;
  retryAfterSeconds: number | null;
}

/**
 * Encrypt the payload for one device (RFC 8291 aes128gcm) and POST it to the device's push
 * service. web-push builds the request; it is sent with fetch because web-push's own sender
 * only speaks https, and tests run push services on http loopback. Never throws.
 */
export async function sendPush(message: PushMessage, send: typeof fetch, timeoutMs: number, now: () => number): Promise<PushResult> {
  try {
    const request = webpush.generateRequestDetails({ endpoint: message.endpoint, keys: { p256dh: message.p256dh, auth: message.auth } }, message.payload, {
      TTL: message.ttlSeconds,
      contentEncoding: 'aes128gcm',
      headers: { Authorization: message.authorization },
    });
    const response = await send(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : null,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    return {
      status: response.status,
      error: response.ok ? null : `push service answered ${response.status}`,
      retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after'), now()),
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { status: null, error: `${error instanceof Error ? error.message : String(error)}${cause}`, retryAfterSeconds: null };
  }
}

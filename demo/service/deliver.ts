import webpush from 'web-push';
import type { PushEnvelope } from '../../src/common/envelope.ts';
import type { Device, DeviceStore } from './device-store.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** What delivery needs besides the message. */
export interface DeliveryContext {
  store: DeviceStore;
  vapid: VapidKeys;
  /** VAPID `sub` claim: a mailto: or https: URL of the sender. */
  subject: string;
  /** Seconds the push service keeps an undelivered message. */
  ttlSeconds: number;
}

/** The result of one attempt to one device. */
export interface DeliveryAttempt {
  deviceId: string;
  status: number | null;
  error: string | null;
}

/**
 * Encrypt the envelope for one device (RFC 8291 aes128gcm), sign VAPID (RFC 8292) and POST it
 * to the device's push service. web-push builds the request; it is sent with fetch because
 * web-push's own sender only speaks https, and tests run push services on http loopback.
 * A 404 or 410 removes the device: the subscription is gone for good.
 */
export async function deliverToDevice(context: DeliveryContext, device: Device, envelope: PushEnvelope): Promise<DeliveryAttempt> {
  const request = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(envelope),
    {
      vapidDetails: { subject: context.subject, publicKey: context.vapid.publicKey, privateKey: context.vapid.privateKey },
      TTL: context.ttlSeconds,
      contentEncoding: 'aes128gcm',
    },
  );
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : null,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    if (response.status === 404 || response.status === 410) await context.store.remove(device.deviceId);
    return { deviceId: device.deviceId, status: response.status, error: response.ok ? null : `push service answered ${response.status}` };
  } catch (error) {
    return { deviceId: device.deviceId, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

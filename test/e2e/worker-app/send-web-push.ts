import webpush from 'web-push';

/**
 * Encrypt `payload` (aes128gcm) and sign VAPID as an application server does, and POST it to the
 * subscription's endpoint. web-push's own sender only speaks https; the local push service is
 * http on loopback, so the request is built by web-push and sent with fetch.
 */
export async function sendWebPush(
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string | null,
  vapid: { publicKey: string; privateKey: string },
): Promise<number> {
  const request: webpush.RequestDetails = webpush.generateRequestDetails(subscription, payload ?? undefined, {
    vapidDetails: { subject: 'mailto:tests@pushbridge.example', publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 60,
    contentEncoding: 'aes128gcm',
  });
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : null,
  });
  await response.arrayBuffer();
  return response.status;
}

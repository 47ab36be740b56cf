/**
 * The register request of Interface B (`POST /v1/subscribers/register`), which the page hands
 * to the app's backend and the backend passes on with its key.
 */
export interface RegisterRequest {
  recipientId: string;
  platform: 'web';
  deviceTransport: 'web_push';
  webPush: { endpoint: string; keys: { p256dh: string; auth: string } };
  metadata: Record<string, string | number | boolean>;
}

/** The ids the service gives a registered device, as the backend passes them back. */
export interface RegisterResult {
  subscriberId: string;
  deviceId: string;
}

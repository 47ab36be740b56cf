/**
 * Where push stands for this browser and recipient:
 * - `unsupported`: no Push API here; `needs-install`: iOS/iPadOS Safari outside a home-screen app;
 * - `default`: not asked yet; `denied`: blocked by the user;
 * - `subscribing`: a subscribe, register or unsubscribe is running (in any tab);
 * - `subscribed`: the backend confirmed this exact subscription;
 * - `unsubscribed`: allowed, but there is no subscription;
 * - `pending`: subscribed in the browser, not (yet) confirmed by the backend.
 */
export type PushState =
  | 'unsupported'
  | 'needs-install'
  | 'default'
  | 'denied'
  | 'subscribing'
  | 'subscribed'
  | 'unsubscribed'
  | 'pending';

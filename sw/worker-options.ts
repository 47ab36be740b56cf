/** Display options applied to every notification whose payload does not set them. */
export interface NotificationDefaults {
  icon?: string;
  badge?: string;
  image?: string;
  requireInteraction?: boolean;
  silent?: boolean;
}

/**
 * How a click on a notification reaches a window:
 * - `focus-or-open`: focus a window already at the URL, else bring an open window of the app
 *   there (its page may route itself and acknowledge; otherwise it is navigated), else open one;
 * - `open-new`: always open a new window.
 */
export type ClickMode = 'focus-or-open' | 'open-new';

/**
 * Options of the worker handlers. Every handler takes the same object, so one value configures
 * {@link installPushHandlers} and each plain handler alike.
 *
 * @example
 * ```ts
 * const options: WorkerOptions = { fallbackTitle: 'Shop', defaults: { icon: '/icon-192.png' }, reportUrl: '/api/push/events' };
 * self.addEventListener('push', (event) => handlePush(event, options));
 * ```
 */
export interface WorkerOptions {
  /** The worker global to act on; defaults to `self`. Tests pass a small fake. */
  scope?: ServiceWorkerGlobalScope;
  /** Title of the notification shown for a payload that cannot be read. Default `'New notification'`. */
  fallbackTitle?: string;
  /** Body of that notification. */
  fallbackBody?: string;
  /** Display options for notifications whose payload does not set them. */
  defaults?: NotificationDefaults;
  /**
   * Pushes without `pushbridge: 1`: `'show'` (default) displays them, tolerating flat FCM-like
   * shapes, because every push must show something; `'leave'` ignores them, for a worker where
   * other code shows its own pushes (two handlers showing one push is a double notification).
   */
  foreignPushes?: 'show' | 'leave';
  /** Default `'focus-or-open'`. */
  clickMode?: ClickMode;
  /** How long the window told of a click has to answer `click-ack` before it is navigated. Default 1000 ms. */
  clickAckTimeoutMs?: number;
  /**
   * Where delivered / clicked / dismissed events are POSTed as `{"events": [...]}`; resolved
   * against the worker's location. Events wait in the IndexedDB outbox (at most 1000) until it
   * answers. Without it, events are only posted to the windows and nothing is stored.
   */
  reportUrl?: string;
  /**
   * Bound of each request the worker makes (report, re-registration) and of its wait for the
   * subscription lock after `pushsubscriptionchange`. Default 10 000 ms.
   */
  timeoutMs?: number;
  /** The `fetch` to use; defaults to the worker's. */
  fetch?: typeof fetch;
}

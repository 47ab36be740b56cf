import { Workbox } from 'workbox-window';

/**
 * The browser APIs pushbridge uses, gathered in one place so that tests can hand in small
 * fakes instead of patching globals. Read lazily: importing the package touches nothing.
 */
export interface BrowserEnv {
  /** `navigator.serviceWorker`, or undefined where service workers are unavailable. */
  serviceWorker: ServiceWorkerContainer | undefined;
  /** The `Notification` constructor's static side, or undefined. */
  notification: { readonly permission: NotificationPermission; requestPermission(): Promise<NotificationPermission> } | undefined;
  /** Whether `PushManager` exists. */
  pushManager: boolean;
  /** `fetch`, bound to the window. */
  fetch: typeof fetch;
  /** Register a worker script and return its registration. */
  registerWorker(url: string, scope: string | undefined): Promise<ServiceWorkerRegistration>;
}

/**
 * The {@link BrowserEnv} of the current page. Call it when needed, not at import time, so that
 * server-side rendering and tests never meet a missing global.
 *
 * @example
 * ```ts
 * const env = browserEnv();
 * if (!env.serviceWorker) console.log('no service workers here');
 * ```
 */
export function browserEnv(): BrowserEnv {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return {
    serviceWorker: nav && 'serviceWorker' in nav ? nav.serviceWorker : undefined,
    notification: typeof Notification === 'undefined' ? undefined : Notification,
    pushManager: typeof PushManager !== 'undefined',
    fetch: (input, init) => fetch(input, init),
    async registerWorker(url, scope) {
      // workbox-window handles registration and update events; `immediate` because a user
      // gesture is waiting, not a page load.
      const workbox = new Workbox(url, scope === undefined ? {} : { scope });
      const registration = await workbox.register({ immediate: true });
      if (!registration) throw new Error(`The service worker ${url} was not registered.`);
      return registration;
    },
  };
}

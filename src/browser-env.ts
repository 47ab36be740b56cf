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
  /** `navigator.locks`, where Web Locks exist. */
  locks: LockManager | undefined;
  /** Open a BroadcastChannel, or undefined where there is none. */
  openChannel(name: string): BroadcastChannel | undefined;
  /** `localStorage`, where it can be used (it throws in some private modes). */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  /** Call `listener` when the browser comes back online; returns a function that stops it. */
  onOnline(listener: () => void): () => void;
  /** The page's own URL, for resolving the worker's URL and scope. */
  baseUrl: string;
  /** Safari on an iPhone or iPad, which allows push only in a home-screen app. */
  ios: boolean;
  /** Whether the page runs as an installed (home-screen / standalone) app. */
  standalone: boolean;
  /** Epoch milliseconds. */
  now(): number;
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
  const win = typeof window === 'undefined' ? undefined : window;
  let storage: BrowserEnv['storage'];
  try {
    storage = win?.localStorage;
  } catch {
    storage = undefined;
  }
  const userAgent = nav?.userAgent ?? '';
  // iPadOS reports a Mac user agent; touch points give it away.
  const ios = /iPad|iPhone|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && (nav?.maxTouchPoints ?? 0) > 1);
  return {
    serviceWorker: nav && 'serviceWorker' in nav ? nav.serviceWorker : undefined,
    notification: typeof Notification === 'undefined' ? undefined : Notification,
    pushManager: typeof PushManager !== 'undefined',
    fetch: (input, init) => fetch(input, init),
    async registerWorker(url, scope) {
      // workbox-window is loaded only when a worker is registered, so that pages that merely
      // read the state or sync do not pay for it.
      const { Workbox } = await import('workbox-window');
      // `immediate`: a user gesture is waiting, not a page load.
      const registration = await new Workbox(url, scope === undefined ? {} : { scope }).register({ immediate: true });
      if (!registration) throw new Error(`The service worker ${url} was not registered.`);
      return registration;
    },
    locks: nav?.locks,
    openChannel: (name) => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name)),
    storage,
    onOnline(listener) {
      win?.addEventListener('online', listener);
      return () => win?.removeEventListener('online', listener);
    },
    baseUrl: typeof location === 'undefined' ? 'http://localhost/' : location.href,
    ios,
    standalone:
      (nav as { standalone?: boolean } | undefined)?.standalone === true ||
      (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches),
    now: () => Date.now(),
  };
}

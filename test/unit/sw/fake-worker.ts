import { CHANNEL_NAME, type PushbridgeMessage } from '../../../src/common/messages.ts';

/** A window of the app as the fake `clients` returns it. */
export interface FakeWindow {
  url: string;
  visibilityState?: DocumentVisibilityState;
  focused?: boolean;
  /** Whether `navigate()` works (the worker controls the window). */
  controlled?: boolean;
  /**
   * A page with a click listener, like `push.on('click')`: it hears what is posted to its window
   * and, as the page's message bus does, the shared channel too, and answers every `click` it
   * hears with a `click-ack` on the channel (with `ackAs` instead of the click's id, if given).
   */
  spa?: boolean;
  ackAs?: string;
}

/**
 * A service worker global with just what the handlers use, recording what they did in `log`.
 * Notifications shown are kept, so tests can click them.
 */
export function fakeWorker(windows: FakeWindow[] = [], scopeUrl = 'https://shop.example/') {
  const log: string[] = [];
  const shown: { title: string; options: NotificationOptions & Record<string, unknown> }[] = [];
  const listeners = new Map<string, EventListener>();
  let subscription: PushSubscription | null = null;
  const subscribeCalls: unknown[] = [];
  /** What the worker posted to one window (`client.postMessage`), by the window's URL. */
  const posted: { url: string; message: PushbridgeMessage }[] = [];
  const channels: BroadcastChannel[] = [];
  /** The SPA windows that heard a `click`, by URL, by whatever way it reached them. */
  const heard: string[] = [];
  const pages = new Map<FakeWindow, (message: PushbridgeMessage) => void>();
  for (const w of windows.filter((each) => each.spa)) {
    const channel = new BroadcastChannel(CHANNEL_NAME);
    channels.push(channel);
    const hear = (message: PushbridgeMessage): void => {
      if (message.type === 'click') heard.push(w.url);
      if (message.type === 'click') channel.postMessage({ pushbridge: 1, type: 'click-ack', clickId: w.ackAs ?? message.clickId });
    };
    channel.onmessage = (event: MessageEvent<PushbridgeMessage>) => hear(event.data);
    pages.set(w, hear);
  }
  const scope = {
    registration: {
      scope: scopeUrl,
      async showNotification(title: string, options: NotificationOptions & Record<string, unknown>) {
        if (options.renotify && !options.tag) throw new TypeError('renotify without tag');
        if (Array.isArray(options.actions) && options.actions.length > 2) throw new TypeError('too many actions');
        shown.push({ title, options });
        log.push(`show ${title}`);
      },
      pushManager: {
        getSubscription: async () => subscription,
        async subscribe(init: PushSubscriptionOptionsInit) {
          subscribeCalls.push(init);
          subscription = fakeSubscription(`https://push.example/${subscribeCalls.length}`);
          return subscription;
        },
      },
    },
    clients: {
      async matchAll() {
        return windows.map((w) => ({
          url: w.url,
          visibilityState: w.visibilityState ?? 'visible',
          focused: w.focused ?? false,
          focus: async () => void log.push(`focus ${w.url}`),
          postMessage: (message: PushbridgeMessage) => {
            posted.push({ url: w.url, message });
            // Delivered as a task, like the browser's client message queue.
            setTimeout(() => pages.get(w)?.(message), 0);
          },
          navigate: async (url: string) => {
            if (w.controlled === false) throw new TypeError('not controlled');
            log.push(`navigate ${w.url} -> ${url}`);
            return {};
          },
        }));
      },
      async openWindow(url: string) {
        log.push(`open ${url}`);
        return null;
      },
    },
    addEventListener: (type: string, listener: EventListener) => listeners.set(type, listener),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  return {
    scope: scope as unknown as ServiceWorkerGlobalScope,
    log,
    shown,
    listeners,
    subscribeCalls,
    posted,
    heard,
    /** Close the SPA windows' channels. */
    close: () => channels.forEach((channel) => channel.close()),
    setSubscription: (value: PushSubscription | null) => void (subscription = value),
  };
}

/**
 * A subscription with a given endpoint and fixed keys (none with `withKeys: false`), made with
 * `applicationServerKey` (none by default). `unsubscribed` counts its unsubscribe() calls.
 */
export function fakeSubscription(endpoint: string, init: { applicationServerKey?: Uint8Array; withKeys?: boolean } = {}): PushSubscription & { unsubscribed: number } {
  const keys: Record<string, Uint8Array> = init.withKeys === false ? {} : { p256dh: new Uint8Array(65).fill(4), auth: new Uint8Array(16).fill(7) };
  const subscription = {
    endpoint,
    unsubscribed: 0,
    getKey: (name: string) => keys[name]?.buffer ?? null,
    options: { applicationServerKey: init.applicationServerKey?.buffer ?? null },
    unsubscribe: async () => ((subscription.unsubscribed += 1), true),
  };
  return subscription as unknown as PushSubscription & { unsubscribed: number };
}

/** An event whose waitUntil collects promises, as the browser keeps the worker alive for them. */
export function fakeEvent<T extends object>(fields: T): T & { waitUntil(p: Promise<unknown>): void; waited: Promise<unknown>[] } {
  const waited: Promise<unknown>[] = [];
  return Object.assign(fields, { waited, waitUntil: (p: Promise<unknown>) => void waited.push(p) });
}

/** A push event carrying `text` (or an object, JSON-encoded). */
export function pushEvent(payload: unknown) {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return fakeEvent({ data: payload === null ? null : { text: () => text } });
}

/** The notification the fake showed last, as the browser would hand it to a click. */
export function clickEvent(shown: { title: string; options: NotificationOptions & Record<string, unknown> }, action = '') {
  const closed: boolean[] = [];
  const notification = { title: shown.title, tag: (shown.options.tag as string | undefined) ?? '', data: shown.options.data, close: () => void closed.push(true) };
  return Object.assign(fakeEvent({ action, notification }), { closed });
}

/** Listens on the shared channel like a page does; `answer` may reply (e.g. with click-ack). */
export function listen(answer?: (message: PushbridgeMessage, channel: BroadcastChannel) => void) {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  const messages: PushbridgeMessage[] = [];
  channel.onmessage = (event: MessageEvent<PushbridgeMessage>) => {
    messages.push(event.data);
    answer?.(event.data, channel);
  };
  return { messages, close: () => channel.close() };
}

/** Delete the shared database between tests (fake-indexeddb). */
export function deleteDatabase(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase('pushbridge');
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

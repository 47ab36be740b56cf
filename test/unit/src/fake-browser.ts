// A small in-memory browser for the page package's unit tests: one "profile" (push manager,
// permission, locks, channels, storage) that several tabs (envs) can share.
import type { BrowserEnv } from '../../../src/browser-env.ts';
import { base64UrlToBytes, bytesToBase64Url } from '../../../src/common/base64url.ts';

export interface FakeSubscription extends PushSubscription {
  unsubscribed: boolean;
}

export function fakeSubscription(endpoint: string, key: string, seed = 4): FakeSubscription {
  const subscription = {
    endpoint,
    unsubscribed: false,
    options: { applicationServerKey: base64UrlToBytes(key).buffer, userVisibleOnly: true },
    getKey: (name: string) =>
      name === 'p256dh' ? Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : seed)).buffer : Uint8Array.from({ length: 16 }, () => seed).buffer,
    async unsubscribe() {
      subscription.unsubscribed = true;
      return true;
    },
  };
  return subscription as unknown as FakeSubscription;
}

/** A Web Locks stand-in: exclusive locks by name, granted in request order. */
function fakeLocks(): LockManager {
  const queues = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  return {
    async request(name: string, optionsOrTask: unknown, maybeTask?: unknown) {
      const task = (typeof optionsOrTask === 'function' ? optionsOrTask : maybeTask) as () => Promise<unknown>;
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous.then(async () => {
        held.add(name);
        try {
          return await task();
        } finally {
          held.delete(name);
        }
      });
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
    async query() {
      return { held: [...held].map((name) => ({ name, mode: 'exclusive' as const, clientId: 'x' })), pending: [] };
    },
  } as unknown as LockManager;
}

/** BroadcastChannels that deliver to every other channel of the same name, asynchronously like browsers. */
function channelHub(): (name: string) => BroadcastChannel {
  const open = new Set<{ name: string; listeners: Set<(event: MessageEvent) => void> }>();
  return (name) => {
    const me = { name, listeners: new Set<(event: MessageEvent) => void>() };
    open.add(me);
    return {
      postMessage(data: unknown) {
        for (const other of open) {
          if (other === me || other.name !== name) continue;
          queueMicrotask(() => other.listeners.forEach((listener) => listener({ data } as MessageEvent)));
        }
      },
      addEventListener: (_type: string, listener: (event: MessageEvent) => void) => me.listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MessageEvent) => void) => me.listeners.delete(listener),
      close: () => open.delete(me),
    } as unknown as BrowserChannel;
  };
}
type BrowserChannel = BroadcastChannel;

export interface FakeProfile {
  log: string[];
  posts: { url: string; body: Record<string, unknown> }[];
  /** What the backend answers to the next register calls (status), in order; 201 when empty. */
  backendAnswers: number[];
  permission: NotificationPermission;
  /** The browser's current subscription. */
  subscription: FakeSubscription | null;
  clock: { now: number };
  onlineListeners: Set<() => void>;
  /** A new tab of this profile. */
  tab(overrides?: Partial<BrowserEnv>): BrowserEnv;
  /** Post from the worker to one tab alone (client.postMessage), as to the window it brought forward. */
  postToTab(tab: BrowserEnv, data: unknown): void;
}

export function fakeProfile(initial: { permission?: NotificationPermission; subscription?: FakeSubscription } = {}): FakeProfile {
  const locks = fakeLocks();
  const openChannel = channelHub();
  const store = new Map<string, string>();
  const workerListeners = new Map<BrowserEnv, Set<(event: MessageEvent) => void>>();
  let serial = 0;
  const profile: FakeProfile = {
    log: [],
    posts: [],
    backendAnswers: [],
    permission: initial.permission ?? 'default',
    subscription: initial.subscription ?? null,
    clock: { now: 1_700_000_000_000 },
    onlineListeners: new Set(),
    tab(overrides = {}) {
      const pushManager = {
        async getSubscription() {
          const current = profile.subscription;
          return current && !current.unsubscribed ? current : null;
        },
        async subscribe(init: PushSubscriptionOptionsInit) {
          profile.log.push('subscribe');
          const key = bytesToBase64Url(init.applicationServerKey as Uint8Array);
          const existing = profile.subscription;
          if (existing && !existing.unsubscribed) return existing;
          serial++;
          profile.subscription = fakeSubscription(`https://push.example/${serial}`, key, serial + 10);
          return profile.subscription;
        },
      };
      const registration = { scope: 'http://localhost/', active: {}, installing: null, waiting: null, pushManager } as unknown as ServiceWorkerRegistration;
      const fromWorker = new Set<(event: MessageEvent) => void>();
      const env: BrowserEnv = {
        serviceWorker: {
          getRegistration: async () => registration,
          addEventListener: (_type: string, listener: (event: MessageEvent) => void) => fromWorker.add(listener),
          removeEventListener: (_type: string, listener: (event: MessageEvent) => void) => fromWorker.delete(listener),
        } as unknown as ServiceWorkerContainer,
        notification: {
          get permission() {
            return profile.permission;
          },
          async requestPermission() {
            profile.log.push('permission');
            if (profile.permission === 'default') profile.permission = 'granted';
            return profile.permission;
          },
        },
        pushManager: true,
        fetch: (async (url: string | URL | Request, init?: RequestInit) => {
          profile.log.push('post');
          profile.posts.push({ url: String(url), body: JSON.parse(String(init?.body)) as Record<string, unknown> });
          const status = profile.backendAnswers.shift() ?? 201;
          if (status === 0) throw new TypeError('Failed to fetch');
          const body = status < 300 ? { subscriberId: 's1', deviceId: `d${profile.posts.length}` } : { error: status === 409 ? 'subscription_conflict' : 'down' };
          return new Response(JSON.stringify(body), { status });
        }) as typeof fetch,
        async registerWorker(url) {
          profile.log.push(`register ${url}`);
          return registration;
        },
        locks,
        openChannel,
        storage: { getItem: (key) => store.get(key) ?? null, setItem: (key, value) => void store.set(key, value), removeItem: (key) => void store.delete(key) },
        onOnline(listener) {
          profile.onlineListeners.add(listener);
          return () => profile.onlineListeners.delete(listener);
        },
        baseUrl: 'http://localhost/app',
        ios: false,
        standalone: false,
        now: () => profile.clock.now,
        ...overrides,
      };
      workerListeners.set(env, fromWorker);
      return env;
    },
    postToTab(tab, data) {
      queueMicrotask(() => workerListeners.get(tab)?.forEach((listener) => listener({ data } as MessageEvent)));
    },
  };
  return profile;
}

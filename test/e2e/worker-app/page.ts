// The test app's page: records the worker's messages, acknowledges clicks when it is an SPA
// (`?spa=1`), and exposes what the specs drive as `window.app`.
import { openPushbridgeDb, type ClientConfig } from '../../../src/common/database.ts';
import { CHANNEL_NAME, isPushbridgeMessage, type PushbridgeMessage } from '../../../src/common/messages.ts';

const messages: PushbridgeMessage[] = [];
const waiters: { test: (m: PushbridgeMessage) => boolean; resolve: (m: PushbridgeMessage) => void }[] = [];
const spa = new URLSearchParams(location.search).has('spa');
const channel = new BroadcastChannel(CHANNEL_NAME);

// The worker posts `click` to this window alone (navigator.serviceWorker); the rest comes on the channel.
const receive = (event: MessageEvent<unknown>): void => {
  const message = event.data;
  if (!isPushbridgeMessage(message)) return;
  messages.push(message);
  if (spa && message.type === 'click') {
    // An SPA routes without a reload, then tells the worker it need not navigate.
    history.pushState(null, '', message.url);
    channel.postMessage({ pushbridge: 1, type: 'click-ack', clickId: message.clickId });
  }
  for (const waiter of waiters.filter((w) => w.test(message))) {
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve(message);
  }
};
channel.onmessage = receive;
navigator.serviceWorker.addEventListener('message', receive);

/** What test-sw.js reports on its `probe` channel: push→shown times and uncaught errors. */
const probes: { type: 'shown' | 'error'; ms?: number; message?: string; title?: string }[] = [];
const probeWaiters: (() => void)[] = [];
new BroadcastChannel('probe').onmessage = (event: MessageEvent<(typeof probes)[number]>) => {
  probes.push(event.data);
  for (const wake of probeWaiters.splice(0)) wake();
};

/** Match a message by type and a few fields. */
type Match = Partial<Record<string, unknown>> & { type: PushbridgeMessage['type'] };
const matches = (message: PushbridgeMessage, wanted: Match): boolean =>
  Object.entries(wanted).every(([key, value]) => JSON.stringify((message as Record<string, unknown>)[key]) === JSON.stringify(value));

async function withDb<T>(run: (db: Awaited<ReturnType<typeof openPushbridgeDb>>) => Promise<T>): Promise<T> {
  const db = await openPushbridgeDb();
  try {
    return await run(db);
  } finally {
    db.close();
  }
}

const app = {
  /** A value fixed at load: it changes when the page reloads. */
  loadId: crypto.randomUUID(),
  messages,
  /** Resolve with the first message (already received or to come) that matches. */
  next(wanted: Match): Promise<PushbridgeMessage> {
    const seen = messages.find((m) => matches(m, wanted));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ test: (m) => matches(m, wanted), resolve }));
  },
  /** Resolve once `count` messages match. */
  async count(wanted: Match, count: number): Promise<number> {
    while (messages.filter((m) => matches(m, wanted)).length < count) {
      await new Promise<PushbridgeMessage>((resolve) => waiters.push({ test: (m) => matches(m, wanted), resolve }));
    }
    return messages.filter((m) => matches(m, wanted)).length;
  },
  probes,
  /** Resolve once `count` `shown` probes arrived. */
  async shownProbes(count: number): Promise<number[]> {
    while (probes.filter((p) => p.type === 'shown').length < count) await new Promise<void>((resolve) => probeWaiters.push(resolve));
    return probes.flatMap((p) => (p.type === 'shown' && p.ms !== undefined ? [p.ms] : []));
  },
  /** Register a worker at the root scope and wait until it controls this page. */
  async register(script: string): Promise<void> {
    const controlled = new Promise<void>((resolve) => {
      if (navigator.serviceWorker.controller?.scriptURL.endsWith(script)) resolve();
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve());
    });
    await navigator.serviceWorker.register(script, { scope: '/' });
    await navigator.serviceWorker.ready;
    await controlled;
  },
  /** Read notifications; call only after the worker said it showed them (Chromium race). */
  async notifications(): Promise<{ title: string; body: string; tag: string; data: unknown; icon: string; requireInteraction: boolean }[]> {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
      icon: n.icon,
      requireInteraction: n.requireInteraction,
    }));
  },
  async subscribe(vapidPublicKey: string): Promise<PushSubscriptionJSON> {
    const registration = await navigator.serviceWorker.ready;
    const padded = vapidPublicKey.replace(/-/g, '+').replace(/_/g, '/');
    const key = Uint8Array.from(atob(padded + '='.repeat((4 - (padded.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })).toJSON();
  },
  async subscription(): Promise<PushSubscriptionJSON | null> {
    return (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.toJSON() ?? null;
  },
  /** Store what the page package would store for the worker (the shared contract). */
  async storeConfig(config: ClientConfig): Promise<void> {
    const scope = (await navigator.serviceWorker.ready).scope;
    await withDb((db) => db.put('config', config, scope));
  },
  async registrationRecord() {
    const scope = (await navigator.serviceWorker.ready).scope;
    return withDb((db) => db.get('registration', scope));
  },
  inbox: () => withDb((db) => db.getAll('inbox')),
  outbox: () => withDb((db) => db.getAll('events')),
};

/** What the specs call in the page as `window.app`. */
export type PageApi = typeof app;

(window as unknown as { app: PageApi }).app = app;
document.body.dataset.ready = 'true';

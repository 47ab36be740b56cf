import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import webpush from 'web-push';
import { openCdpPush, type CdpPush } from '../support/cdp-push.ts';
import type { FakeNotificationDaemon } from '../support/fake-notification-daemon.ts';
import type { WorkerApp } from './worker-app/worker-app-server.ts';
import { expect, openApp, test } from './worker-fixtures.ts';

// Chromium: real worker, real notifications through a fake desktop daemon (D-Bus), real clicks
// and closes; pushes arrive over the DevTools protocol (the one stubbed boundary).

interface Setup {
  page: Page;
  push: CdpPush;
}

/** Open the app, register the test worker (pushbridge-sw.js under importScripts) with `query`, and connect CDP push. */
async function setUp(context: BrowserContext, app: WorkerApp, query = '', path = '/'): Promise<Setup> {
  const page = await context.newPage();
  await openApp(page, app, path);
  await page.evaluate((script) => window.app.register(script), `/test-sw.js${query}`);
  const push = await openCdpPush(context, page, `${app.url}/`);
  return { page, push };
}

function envelope(fields: Record<string, unknown> = {}) {
  return { pushbridge: 1, notificationId: randomUUID(), channel: 'push', title: `T ${randomUUID()}`, body: 'Body', data: { url: '/' }, ...fields };
}

/** Push an envelope and wait for the worker's `notification` message and the desktop notification. */
async function pushShown(setup: Setup, daemon: FakeNotificationDaemon, fields: Record<string, unknown> = {}) {
  const message = envelope(fields);
  await setup.push.send(message);
  await setup.page.evaluate((id) => window.app.next({ type: 'notification', notificationId: id }), message.notificationId);
  const desktop = await daemon.waitFor(message.title);
  return { message, desktop };
}

test('a push is shown with its options; push→shown timed over 20 pushes', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp, '?icon=/icon.png');
  const { message, desktop } = await pushShown(setup, notificationDaemon, { body: 'Arrives Tuesday', data: { url: '/orders/1' }, requireInteraction: true });
  expect(desktop.body).toContain('Arrives Tuesday');
  const shown = await setup.page.evaluate(() => window.app.notifications());
  expect(shown).toEqual([
    {
      title: message.title,
      body: 'Arrives Tuesday',
      tag: `pushbridge:${message.notificationId}`,
      data: { url: '/orders/1' },
      icon: `${workerApp.url}/icon.png`,
      requireInteraction: true,
    },
  ]);

  for (let i = 0; i < 20; i++) {
    await setup.push.send(envelope({ title: `Bench ${i}` }));
    await setup.page.evaluate((n) => window.app.shownProbes(n), i + 2);
  }
  const times = (await setup.page.evaluate(() => window.app.shownProbes(21))).slice(1).sort((a, b) => a - b);
  const median = (times[9]! + times[10]!) / 2;
  test.info().annotations.push({ type: 'push event→notification shown, ms (median of 20)', description: `${median.toFixed(1)} (min ${times[0]!.toFixed(1)}, max ${times[19]!.toFixed(1)})` });
  expect(await setup.page.evaluate(() => window.app.probes.filter((p) => p.type === 'error'))).toEqual([]);
});

test('focus-or-open: a real click with no window of the app open opens one at data.url', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp);
  // The DevTools session stays on a page outside the app, so the app can have no window.
  const holder = await chromiumContext.newPage();
  const push = await openCdpPush(chromiumContext, holder, `${workerApp.url}/`);
  await setup.page.close();
  const message = envelope({ data: { url: '/orders/42?from=push' } });
  await push.send(message);
  const desktop = await notificationDaemon.waitFor(message.title);
  const [opened] = await Promise.all([chromiumContext.waitForEvent('page'), notificationDaemon.click(desktop.id)]);
  await opened.waitForURL(`${workerApp.url}/orders/42?from=push`);
});

test('focus-or-open: a real click focuses a window already at the URL and tells it', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp);
  const atUrl = await chromiumContext.newPage();
  await openApp(atUrl, workerApp, '/orders/7');
  const { desktop, message } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/7', k: 'v' } });
  const pagesBefore = chromiumContext.pages().length;
  const loadId = await atUrl.evaluate(() => window.app.loadId);
  notificationDaemon.click(desktop.id);
  const click = await atUrl.evaluate(() => window.app.next({ type: 'click' }));
  expect(click).toMatchObject({ notificationId: message.notificationId, action: '', url: `${workerApp.url}/orders/7`, data: { url: '/orders/7', k: 'v' } });
  expect(chromiumContext.pages()).toHaveLength(pagesBefore);
  expect(await atUrl.evaluate(() => window.app.loadId)).toBe(loadId);
  expect(atUrl.url()).toBe(`${workerApp.url}/orders/7`);
});

test('focus-or-open: a real click navigates an open window of the app that does not route itself', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp, '?clickAckTimeoutMs=300');
  const { desktop } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/9' } });
  const pagesBefore = chromiumContext.pages().length;
  notificationDaemon.click(desktop.id);
  await setup.page.waitForURL(`${workerApp.url}/orders/9`);
  expect(chromiumContext.pages()).toHaveLength(pagesBefore);
});

test('focus-or-open: an SPA acknowledges the click and routes itself without a reload', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp, '', '/?spa=1');
  const loadId = await setup.page.evaluate(() => window.app.loadId);
  const { desktop } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/10' } });
  notificationDaemon.click(desktop.id);
  await setup.page.waitForURL(`${workerApp.url}/orders/10`);
  // The same document: routed by the page, not navigated by the worker.
  expect(await setup.page.evaluate(() => window.app.loadId)).toBe(loadId);
  expect(await setup.page.evaluate(() => window.app.messages.filter((m) => m.type === 'click').length)).toBe(1);
});

test('open-new: a real click opens a new window even when one is at the URL', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp, '?clickMode=open-new', '/orders/11');
  const { desktop } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/11' } });
  const [opened] = await Promise.all([chromiumContext.waitForEvent('page'), notificationDaemon.click(desktop.id)]);
  await opened.waitForURL(`${workerApp.url}/orders/11`);
});

test('an action button goes to its own URL and reports its action', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  // The outbox keeps events only with a reportUrl; the endpoint is down so that they stay there.
  workerApp.setReportUp(false);
  const setup = await setUp(chromiumContext, workerApp, '?reportUrl=/api/events');
  await chromiumContext.newPage(); // keeps the browser open once the app's page is closed
  const actions = [
    { action: 'track', title: 'Track parcel', url: '/track/12' },
    { action: 'later', title: 'Later' },
  ];
  const { desktop, message } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/12' }, actions });
  // The daemon gets [key, label, key, label, ...]; Chromium picks the keys.
  const key = desktop.actions[desktop.actions.indexOf('Track parcel') - 1];
  expect(key).toBeDefined();
  await setup.page.close();
  const [opened] = await Promise.all([chromiumContext.waitForEvent('page'), notificationDaemon.click(desktop.id, key)]);
  await opened.waitForURL(`${workerApp.url}/track/12`);
  // The worker stores the event alongside opening the window; neither waits for the other.
  await expect
    .poll(async () => (await opened.evaluate(() => window.app.outbox())).filter((e) => e.type === 'clicked'))
    .toEqual([expect.objectContaining({ notificationId: message.notificationId, action: 'track' })]);
});

test('events: dismissed on close; all events reach reportUrl once it is back, across a worker stop', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  workerApp.setReportUp(false);
  const setup = await setUp(chromiumContext, workerApp, '?reportUrl=/api/events&clickAckTimeoutMs=100');
  const first = await pushShown(setup, notificationDaemon, { data: { url: '/' } });
  const second = await pushShown(setup, notificationDaemon);
  notificationDaemon.dismiss(second.desktop.id);
  const dismissed = await setup.page.evaluate(() => window.app.next({ type: 'event' }).then(() => window.app.count({ type: 'event' }, 3)));
  expect(dismissed).toBe(3);
  notificationDaemon.click(first.desktop.id);
  await setup.page.evaluate(() => window.app.count({ type: 'event' }, 4));
  const events = await setup.page.evaluate(() => window.app.messages.flatMap((m) => (m.type === 'event' ? [`${m.event.type} ${m.event.notificationId}`] : [])));
  const [a, b] = [first.message.notificationId, second.message.notificationId];
  expect(events).toEqual([`delivered ${a}`, `delivered ${b}`, `dismissed ${b}`, `clicked ${a}`]);
  // Every report so far failed; the events wait in the outbox, also across a worker stop.
  expect(workerApp.reported).toEqual([]);
  expect(workerApp.reportAttempts.every((status) => status === 503)).toBe(true);
  await setup.push.cdp.send('ServiceWorker.stopAllWorkers');
  expect((await setup.page.evaluate(() => window.app.outbox())).map((e) => e.type)).toEqual(['delivered', 'delivered', 'dismissed', 'clicked']);

  workerApp.setReportUp(true);
  const third = await pushShown(setup, notificationDaemon);
  const reported = await workerApp.waitForReport((all) => all.length >= 5);
  expect(reported.map((e) => `${e.type} ${e.notificationId}`)).toEqual([...events, `delivered ${third.message.notificationId}`]);
  // The worker deletes what was reported once the server's answer reaches it, after the server
  // has already seen the request: wait for that, rather than read the outbox at once.
  await expect.poll(() => setup.page.evaluate(() => window.app.outbox())).toEqual([]);
});

test('in_app with a visible window: no system notification, stored in the inbox and posted to the window', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp);
  const message = envelope({ channel: 'in_app', title: `In-app ${randomUUID()}`, data: { url: '/inbox' } });
  await setup.push.send(message);
  const told = await setup.page.evaluate((id) => window.app.next({ type: 'notification', notificationId: id }), message.notificationId);
  expect(told).toMatchObject({ channel: 'in_app', shown: false });
  expect(await setup.page.evaluate(() => window.app.next({ type: 'inbox' }))).toMatchObject({ item: { notificationId: message.notificationId, title: message.title } });
  expect(await setup.page.evaluate(() => window.app.inbox())).toEqual([
    { notificationId: message.notificationId, title: message.title, body: 'Body', data: { url: '/inbox' }, receivedAt: expect.any(Number), readAt: null },
  ]);
  // A push shown afterwards proves the worker is done with the first one; only it reached the desktop.
  await pushShown(setup, notificationDaemon);
  expect(await setup.page.evaluate(() => window.app.notifications())).toHaveLength(1);
  expect(notificationDaemon.notifications.filter((n) => n.summary === message.title)).toEqual([]);
});

test('in_app with no window of the app: a system notification, and the item in the inbox', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp);
  const holder = await chromiumContext.newPage();
  const push = await openCdpPush(chromiumContext, holder, `${workerApp.url}/`);
  await setup.page.close();
  const message = envelope({ channel: 'in_app', title: `In-app ${randomUUID()}` });
  await push.send(message);
  await notificationDaemon.waitFor(message.title);
  const page = await chromiumContext.newPage();
  await openApp(page, workerApp);
  expect((await page.evaluate(() => window.app.inbox())).map((item) => item.notificationId)).toEqual([message.notificationId]);
});

test('hostile data.url values never take a click off the origin', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const setup = await setUp(chromiumContext, workerApp, '?clickAckTimeoutMs=100', '/somewhere');
  const hostile = ['javascript:alert(1)', 'data:text/html,<h1>x</h1>', 'https://evil.example/phish', '//evil.example/x', 'http://localhost:1/', 'blob:https://evil.example/1', '\\\\evil.example\\x'];
  for (const url of hostile) {
    const { desktop } = await pushShown(setup, notificationDaemon, { data: { url } });
    notificationDaemon.click(desktop.id);
    const click = await setup.page.evaluate(() => window.app.next({ type: 'click' }));
    expect(click).toMatchObject({ url: `${workerApp.url}/`, data: { url } });
    await setup.page.waitForURL(`${workerApp.url}/`);
    await openApp(setup.page, workerApp, '/somewhere');
  }
  const urls = chromiumContext.pages().map((p) => p.url()).filter((url) => url !== 'about:blank');
  expect(urls).toEqual([`${workerApp.url}/somewhere`]);
});

test('500 malformed payloads over CDP: exactly one notification each, no uncaught error', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  test.setTimeout(180_000);
  const setup = await setUp(chromiumContext, workerApp, '?fallbackTitle=Fallback');
  const before = notificationDaemon.notifications.length;
  const payloads: string[] = [];
  const shapes: ((i: number) => string)[] = [
    () => '',
    (i) => `not json ${i}`,
    (i) => `{"pushbridge":1,"title":${i}`,
    () => 'null',
    (i) => String(i),
    (i) => JSON.stringify([i, 'x']),
    (i) => JSON.stringify({ pushbridge: 1, notificationId: i, title: { t: i }, body: [i], data: 'x', actions: 'x' }),
    (i) => JSON.stringify({ pushbridge: 1, notificationId: `m${i}`, title: `Renotify ${i}`, body: '', renotify: true, tag: 7 }),
    (i) => JSON.stringify({ pushbridge: 1, notificationId: `a${i}`, title: `Actions ${i}`, body: '', actions: Array.from({ length: 9 }, (_, n) => ({ action: `a${n}`, title: `A${n}` })) }),
    (i) => JSON.stringify({ pushbridge: 1, notificationId: `b${i}`, title: `Big ${i}`, body: 'x'.repeat(6000) }),
    (i) => JSON.stringify({ pushbridge: 1, notificationId: `i${i}`, title: `Icon ${i}`, body: '', icon: 'http://[::1', image: 'javascript:x', badge: '' }),
    (i) => JSON.stringify({ title: `Flat ${i}`, body: 'flat', url: 'javascript:alert(1)' }),
    (i) => `\u0000\uFFFF${'\u{1F600}'.repeat(i % 40)}`,
    (i) => JSON.stringify({ pushbridge: 1, notificationId: `c${i}`, channel: 42, title: `Channel ${i}`, body: '', data: { url: 5 } }),
  ];
  for (let i = 0; i < 500; i++) payloads.push(shapes[i % shapes.length]!(i));
  for (const payload of payloads) await setup.push.send(payload);
  expect(await setup.page.evaluate(() => window.app.count({ type: 'notification' }, 500))).toBe(500);
  // Read only now that the worker said all are shown (Chromium's getNotifications race).
  expect(await setup.page.evaluate(() => window.app.notifications().then((all) => all.length))).toBe(500);
  // Chromium hands each to the desktop daemon over D-Bus, which may trail the worker's message.
  await expect.poll(() => notificationDaemon.notifications.length - before).toBe(500);
  expect(await setup.page.evaluate(() => window.app.probes.filter((p) => p.type === 'error'))).toEqual([]);
});

test('pushsubscriptionchange (synthetic in Chromium): resubscribes with the stored key and hands off again', async ({ chromiumContext, workerApp }) => {
  const setup = await setUp(chromiumContext, workerApp);
  const vapid = webpush.generateVAPIDKeys();
  const old = await setup.page.evaluate((key) => window.app.subscribe(key), vapid.publicKey);
  await setup.page.evaluate(
    (key) => window.app.storeConfig({ vapidPublicKey: key, recipientId: 'user-7', metadata: { plan: 'pro' }, handoff: { kind: 'url', url: '/api/register', headers: {}, credentials: 'same-origin' } }),
    vapid.publicKey,
  );
  const [worker] = chromiumContext.serviceWorkers().filter((w) => w.url().startsWith(workerApp.url));
  if (!worker) throw new Error('no service worker');
  // What the push service does: the subscription is gone. Chromium never fires the event itself.
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const subscription = await scope.registration.pushManager.getSubscription();
    await subscription?.unsubscribe();
    const event = new Event('pushsubscriptionchange');
    Object.assign(event, { oldSubscription: subscription, newSubscription: null, waitUntil: () => undefined });
    scope.dispatchEvent(event);
  });
  const change = await setup.page.evaluate(() => window.app.next({ type: 'subscription-change' }));
  const current = await setup.page.evaluate(() => window.app.subscription());
  expect(change).toMatchObject({ registered: true, error: null, endpoint: current?.endpoint, scope: `${workerApp.url}/` });
  expect(current?.endpoint).not.toBe(old.endpoint);
  const call = await workerApp.waitForRegisterCall((c) => c.webPush.endpoint === current?.endpoint);
  expect(call).toMatchObject({ recipientId: 'user-7', metadata: { plan: 'pro' }, webPush: { keys: { p256dh: current?.keys?.p256dh, auth: current?.keys?.auth } } });
  expect(await setup.page.evaluate(() => window.app.registrationRecord())).toMatchObject({ endpoint: current?.endpoint, recipientId: 'user-7', pending: false, subscriberId: 'sub-1' });
});

test('Workbox recipe: the app-bundled worker with pushbridge/sw shows pushbridge pushes and leaves the app its own', async ({ chromiumContext, workerApp, notificationDaemon }) => {
  const page = await chromiumContext.newPage();
  await openApp(page, workerApp);
  await page.evaluate(() => window.app.register('/recipe-sw.js'));
  const setup = { page, push: await openCdpPush(chromiumContext, page, `${workerApp.url}/`) };
  // The app's precache and fetch route work beside pushbridge.
  expect(await page.evaluate(async () => (await caches.match('/precached.txt'))?.text())).toBe('precached by the recipe worker');
  const { message, desktop } = await pushShown(setup, notificationDaemon, { data: { url: '/orders/3' } });
  expect(desktop.summary).toBe(message.title);
  // The app's own push: only the app's handler shows it (no pushbridge fallback beside it).
  await setup.push.send({ chat: 'hello' });
  await notificationDaemon.waitFor('Chat: hello');
  const after = await pushShown(setup, notificationDaemon);
  expect(notificationDaemon.notifications.filter((n) => n.summary === 'Recipe app')).toEqual([]);
  const titles = (await page.evaluate(() => window.app.notifications())).map((n) => n.title).sort();
  expect(titles).toEqual(['Chat: hello', message.title, after.message.title].sort());
  // The delivered events went to the app's report route.
  await workerApp.waitForReport((events) => events.some((e) => e.notificationId === message.notificationId));
});

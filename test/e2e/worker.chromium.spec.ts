import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
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
  const setup = await setUp(chromiumContext, workerApp);
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
  const clicked = await opened.evaluate(() => window.app.outbox());
  expect(clicked.filter((e) => e.type === 'clicked')).toEqual([expect.objectContaining({ notificationId: message.notificationId, action: 'track' })]);
});

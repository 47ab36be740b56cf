import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { openCdpPush, type CdpPush } from '../support/cdp-push.ts';
import { expect, test } from './fixtures.ts';

/** Enable notifications on the demo page as a user would, and return the recipient used. */
async function enable(page: Page, demoUrl: string, name: string): Promise<string> {
  await page.goto(demoUrl);
  const recipient = `chromium-${name}-${randomUUID()}`;
  await page.getByLabel('Recipient').fill(recipient);
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  return recipient;
}

/** Deliver one envelope over CDP and wait for the worker's "shown" broadcast on the page. */
async function pushAndWait(push: CdpPush, page: Page, title: string, url: string): Promise<void> {
  await push.send({ pushbridge: 1, notificationId: randomUUID(), channel: 'push', title, body: 'Parcel 42', data: { url } });
  await expect(page.locator('#events li[data-type="notification"]', { hasText: title })).toHaveCount(1);
}

test('real subscribe is registered through the backend and the service', async ({ chromiumContext, demo, fakeGcm }) => {
  const page = await chromiumContext.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const recipient = await enable(page, demo.url, 'register');

  const subscription = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.toJSON());
  const devices = demo.service.store.devicesOf(recipient);
  expect(devices).toHaveLength(1);
  expect(devices[0]).toMatchObject({ endpoint: subscription?.endpoint, p256dh: subscription?.keys?.p256dh, auth: subscription?.keys?.auth });
  // The endpoint carries the token our fake GCM issued: the browser's own subscribe() ran.
  expect(fakeGcm.tokens.some((token) => subscription?.endpoint?.endsWith(token))).toBe(true);
  expect(Buffer.from(subscription?.keys?.p256dh ?? '', 'base64url')).toHaveLength(65);
  expect(errors).toEqual([]);
});

test('a pushed notification is shown, and a real click brings the app to data.url', async ({ chromiumContext, demo, notificationDaemon }) => {
  const page = await chromiumContext.newPage();
  await enable(page, demo.url, 'open');
  const push = await openCdpPush(chromiumContext, page, `${demo.url}/`);
  const title = `Order ${randomUUID()} shipped`;
  await pushAndWait(push, page, title, '/orders/42?from=push');

  const shown = await page.evaluate(async (wanted) => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).filter((n) => n.title === wanted).map((n) => ({ body: n.body, data: n.data as unknown }));
  }, title);
  expect(shown).toEqual([{ body: 'Parcel 42', data: { url: '/orders/42?from=push' } }]);

  const desktop = await notificationDaemon.waitFor(title);
  const target = `${demo.url}/orders/42?from=push`;
  const started = Date.now();
  notificationDaemon.click(desktop.id);
  // In the default mode the worker brings an open window of the app there (navigating it, as
  // this page does not route clicks itself), or opens one.
  await expect.poll(() => chromiumContext.pages().some((p) => p.url() === target), { timeout: 10_000 }).toBe(true);
  test.info().annotations.push({ type: 'click→page at data.url ms', description: String(Date.now() - started) });
  // The click closed the notification.
  await expect.poll(() => page.evaluate(async (wanted) => (await (await navigator.serviceWorker.ready).getNotifications()).filter((n) => n.title === wanted).length, title)).toBe(0);
});

test('a real click focuses a window already at data.url instead of opening another', async ({ chromiumContext, demo, notificationDaemon }) => {
  const page = await chromiumContext.newPage();
  await enable(page, demo.url, 'focus');
  const atUrl = await chromiumContext.newPage();
  await atUrl.goto(`${demo.url}/orders/7`);
  const push = await openCdpPush(chromiumContext, page, `${demo.url}/`);
  const title = `Order ${randomUUID()} delayed`;
  await pushAndWait(push, page, title, '/orders/7');
  const pagesBefore = chromiumContext.pages().length;

  const desktop = await notificationDaemon.waitFor(title);
  notificationDaemon.click(desktop.id);
  // The worker reports the click once it has focused the window; the page lists it.
  await expect(atUrl.locator('#events li[data-type="click"]', { hasText: `${demo.url}/orders/7` })).toHaveCount(1);
  expect(chromiumContext.pages()).toHaveLength(pagesBefore);
});

test('a click on a notification whose data.url leaves the origin goes to the app instead', async ({ chromiumContext, demo, notificationDaemon }) => {
  const page = await chromiumContext.newPage();
  await enable(page, demo.url, 'hostile');
  const push = await openCdpPush(chromiumContext, page, `${demo.url}/`);
  const title = `Hostile ${randomUUID()}`;
  await pushAndWait(push, page, title, 'https://evil.example/phish');
  const desktop = await notificationDaemon.waitFor(title);
  // A window already at the scope root exists (the demo page): it is focused, nothing is opened.
  const pagesBefore = chromiumContext.pages().length;
  notificationDaemon.click(desktop.id);
  await expect(page.locator('#events li[data-type="click"]', { hasText: `${demo.url}/` })).toHaveCount(1);
  expect(chromiumContext.pages()).toHaveLength(pagesBefore);
  const urls = chromiumContext.pages().map((p) => p.url()).filter((url) => url !== 'about:blank');
  expect(urls.every((url) => url.startsWith(`${demo.url}/`))).toBe(true);
});

test('the demo page loads without console errors and its send form reaches the service', async ({ chromiumContext, demo }) => {
  const page = await chromiumContext.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(demo.url);
  await expect(page.locator('#state')).toHaveText('unsubscribed');
  await page.getByLabel('Recipient').fill(`nobody-${randomUUID()}`);
  await page.getByRole('button', { name: 'Send test notification' }).click();
  // The service's own answer, passed through by the backend: no such recipient yet.
  await expect(page.locator('#send-result')).toHaveText(/^404 recipient_not_found: /);
  expect(problems.filter((text) => !text.includes('404 (Not Found)'))).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('demo.png'), fullPage: true });
});

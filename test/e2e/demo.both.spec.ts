import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { openCdpPush, type CdpPush } from '../support/cdp-push.ts';
import { expect, test, type LocalDemo } from './fixtures.ts';

// The demo page as a person uses it, in both browsers. Firefox: every step real, through the
// local push service. Chromium: Chromium's push service is Google's, out of reach offline, so the
// payload the service queued for the device is delivered over DevTools; clicks are real (D-Bus).

/** Open the demo, enable notifications as a fresh user, and wait until the page says registered. */
async function enable(page: Page, demo: LocalDemo, testInfo: TestInfo): Promise<string> {
  await page.goto(demo.url);
  const recipient = `${testInfo.project.name}-${randomUUID()}`;
  await page.getByLabel('Recipient').fill(recipient);
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  await expect(page.locator('#status-registration')).toHaveText('Registered with the service');
  return recipient;
}

/** Submit the send form and return the id the service queued. */
async function send(page: Page, fields: { title: string; body?: string; url?: string; channel?: 'Push' | 'In-app' }): Promise<string> {
  await page.getByLabel('Title').fill(fields.title);
  await page.getByLabel('Body').fill(fields.body ?? 'From the demo test');
  await page.getByLabel('URL path opened on click').fill(fields.url ?? '/');
  await page.getByRole('radio', { name: new RegExp(`^${fields.channel ?? 'Push'}`) }).check();
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect(page.locator('#send-result')).toHaveText(/^Queued /);
  return (await page.locator('#send-result').getAttribute('data-notification-id')) ?? '';
}

/**
 * Get a queued notification to the browser: Firefox's comes through the local push service by
 * itself; for Chromium, deliver over DevTools the exact payload the service made for the device.
 */
async function arrive(context: BrowserContext, page: Page, demo: LocalDemo, notificationId: string, testInfo: TestInfo, cdp: { push?: CdpPush }): Promise<void> {
  if (testInfo.project.name === 'firefox') return;
  const payload = demo.service.notification(notificationId)?.payload;
  expect(payload).toMatchObject({ pushbridge: 1, notificationId });
  cdp.push ??= await openCdpPush(context, page, `${demo.url}/`);
  await cdp.push.send(payload);
}

async function shownNotifications(page: Page, title: string): Promise<{ body: string; data: unknown }[]> {
  return page.evaluate(async (wanted) => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).filter((n) => n.title === wanted).map((n) => ({ body: n.body, data: n.data as unknown }));
  }, title);
}

test('enable, send from the form, the notification shows (and a click lands on its URL); every tab agrees', async ({ browserContext, demo, notificationDaemon }, testInfo) => {
  const page = await browserContext.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const other = await browserContext.newPage();
  await other.goto(demo.url);
  await expect(other.locator('#status-subscription')).toHaveText('Not subscribed');

  await enable(page, demo, testInfo);
  // The second tab hears the change without a reload.
  await expect(other.locator('#status-subscription')).toHaveText('Subscribed');
  await expect(other.locator('#status-registration')).toHaveText('Registered with the service');
  await expect(other.locator('#status-permission')).toHaveText('Granted');
  await expect(other.getByRole('button', { name: 'Disable notifications' })).toBeEnabled();

  const title = `Order ${randomUUID().slice(0, 8)} shipped`;
  const id = await send(page, { title, body: 'Arrives Tuesday', url: '/orders/42' });
  await arrive(browserContext, page, demo, id, testInfo, {});
  await expect(page.locator('#events li[data-type="notification"]', { hasText: title })).toHaveCount(1);
  await expect(other.locator('#events li[data-type="notification"]', { hasText: title })).toHaveCount(1);
  expect(await shownNotifications(page, title)).toEqual([{ body: 'Arrives Tuesday', data: { url: '/orders/42' } }]);
  await expect(page.locator('#events li[data-type="delivered"]', { hasText: id })).toHaveCount(1);
  await testInfo.attach('after-send', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  if (testInfo.project.name === 'chromium') {
    // A real click (Firefox shows its own alert windows, which nothing can click here).
    const desktop = await notificationDaemon.waitFor(title);
    notificationDaemon.click(desktop.id);
    // The page acknowledges the click and routes itself: same document, now at data.url.
    await expect.poll(() => browserContext.pages().some((p) => p.url() === `${demo.url}/orders/42`)).toBe(true);
    const landed = browserContext.pages().find((p) => p.url() === `${demo.url}/orders/42`) as Page;
    await expect(landed.locator('#route')).toHaveText('Opened from a notification: /orders/42. A real app would show that page here.');
    await expect(landed.locator('#events li[data-type="clicked"]', { hasText: id })).toHaveCount(1);
    await testInfo.attach('after-click', { body: await landed.screenshot({ fullPage: true }), contentType: 'image/png' });
  }
  expect(errors).toEqual([]);
});

test('an in-app message lands in the inbox with its unread count, and mark as read clears it in every tab', async ({ browserContext, demo }, testInfo) => {
  const page = await browserContext.newPage();
  await enable(page, demo, testInfo);
  const other = await browserContext.newPage();
  await other.goto(demo.url);
  await expect(page.locator('#unread-count')).toHaveText('0');
  await expect(page.locator('#inbox-empty')).toBeVisible();

  const title = `Your invoice ${randomUUID().slice(0, 8)}`;
  const id = await send(page, { title, body: 'is ready', url: '/invoices/7', channel: 'In-app' });
  await arrive(browserContext, page, demo, id, testInfo, {});
  const item = page.locator(`#inbox li[data-notification-id="${id}"]`);
  await expect(item).toContainText(title);
  await expect(item).toContainText('is ready');
  await expect(page.locator('#unread-count')).toHaveText('1');
  await expect(other.locator('#unread-count')).toHaveText('1');
  await expect(page.locator('#events li[data-type="inbox"]', { hasText: title })).toHaveCount(1);
  await testInfo.attach('inbox', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  await page.getByRole('button', { name: `Mark "${title}" as read` }).click();
  await expect(page.locator('#unread-count')).toHaveText('0');
  await expect(other.locator('#unread-count')).toHaveText('0');
  await expect(item).toHaveAttribute('data-unread', 'false');
  await expect(item.getByRole('button')).toHaveCount(0);
});

test('phone verification: the code arrives in the emulated messaging app, a wrong code counts down, the right one verifies, a quick resend is a friendly limit', async ({ browserContext, demo }, testInfo) => {
  const page = await browserContext.newPage();
  await page.goto(demo.url);
  const phone = page.getByLabel('Phone number', { exact: true });
  await expect(phone).toHaveAttribute('placeholder', '+1 202 555 0123');

  await phone.fill('12345');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.locator('#otp-result')).toHaveText('Enter the number in international form, with + and the country code, such as +1 202 555 0123.');

  // One number per browser: the service allows one message per number every 30 s.
  const number = testInfo.project.name === 'firefox' ? '+12025550125' : '+12025550124';
  await phone.fill(number.replace(/^(\+1)(\d{3})(\d{3})/, '$1 $2 $3 '));
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.locator('#otp-result')).toHaveText(`Code sent to ${number}. It is valid for 5 minutes.`);
  await expect(page.getByLabel('Code')).toBeFocused();
  const message = page.locator('#otp-messages li').first();
  await expect(message).toContainText(/Your pushbridge demo code is \d{6}\./);
  const code = /(\d{6})/.exec((await message.textContent()) ?? '')?.[1] as string;
  // What the page shows is what the local service delivered to that number.
  expect(demo.service.otpInbox(number)[0]?.message).toContain(code);
  await testInfo.attach('otp', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#otp-result')).toHaveText('That code is not right. 4 tries left.');
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#otp-result')).toHaveText(`Verified ${number}.`);
  // A code works once.
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#otp-result')).toHaveText('There is no code waiting for this number. Ask for a new code.');

  // The plan's interval limit (30 s per number), in words, with the wait.
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.locator('#otp-result')).toHaveText(/^A code was sent to this number moments ago\. You can ask for another in \d+ seconds\.$/);
  expect(demo.service.otpInbox(number)).toHaveLength(1);
});

test('titles and bodies are shown as text, never as markup', async ({ browserContext, demo }, testInfo) => {
  const page = await browserContext.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await enable(page, demo, testInfo);
  const hostile = `<img src=x onerror=alert(1)> ${randomUUID().slice(0, 6)}`;
  const cdp: { push?: CdpPush } = {};
  const inApp = await send(page, { title: hostile, body: '<b>bold</b>', channel: 'In-app' });
  await arrive(browserContext, page, demo, inApp, testInfo, cdp);
  await expect(page.locator(`#inbox li[data-notification-id="${inApp}"] .item-title`)).toHaveText(hostile);
  const pushed = await send(page, { title: hostile, body: '<b>bold</b>' });
  await arrive(browserContext, page, demo, pushed, testInfo, cdp);
  await expect(page.locator('#events li[data-type="notification"]', { hasText: hostile })).toHaveCount(2);
  await expect(page.locator('main img, #route img')).toHaveCount(0);
  await expect(page.locator('main b')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("the service's refusals are shown plainly: unknown template, unknown recipient, a URL off the site", async ({ browserContext, demo }) => {
  const page = await browserContext.newPage();
  await page.goto(demo.url);
  const result = page.locator('#send-result');
  await page.getByLabel('Recipient').fill(`nobody-${randomUUID()}`);
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect(result).toHaveText('404 recipient_not_found: Nobody with that recipient id has turned notifications on yet. Click Enable notifications first.');

  await page.getByLabel('URL path opened on click').fill('https://evil.example/');
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect(result).toHaveText('400 invalid_url: The URL path must start with a single / (a page of this site).');

  // The template check needs a registered recipient: the service answers 404 recipient first otherwise.
  await page.getByLabel('URL path opened on click').fill('/');
  await page.getByText('More options').click();
  await page.getByLabel('Template').fill('no-such-template');
  await page.getByLabel('Title').fill('');
  await page.getByLabel('Body').fill('');
  const recipient = `template-${randomUUID()}`;
  await page.getByLabel('Recipient').fill(recipient);
  // Register a device for the recipient the way the backend would, without a browser subscription.
  await fetch(`${demo.url}/api/push/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      recipientId: recipient, platform: 'web', deviceTransport: 'web_push', metadata: {},
      webPush: { endpoint: `http://127.0.0.1:9/push/${randomUUID()}`, keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } },
    }),
  }).then((response) => expect(response.status).toBe(201));
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect(result).toHaveText('404 template_not_found: There is no template with that id. The local service has one called "welcome".');
  await page.getByLabel('Template').fill('welcome');
  await page.getByRole('button', { name: 'Send test notification' }).click();
  await expect(result).toHaveText(/^Queued /);
  const id = (await result.getAttribute('data-notification-id')) as string;
  expect(demo.service.notification(id)?.payload).toMatchObject({ title: `Welcome, ${recipient}` });
});

test('the page passes an axe accessibility check, and works from the keyboard', async ({ browserContext, demo }, testInfo) => {
  const page = await browserContext.newPage();
  await page.goto(demo.url);
  await expect(page.locator('#state')).not.toHaveText('…');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  await testInfo.attach('axe', { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  // Keyboard: the skip link comes first and moves focus to the content; the send form submits with Enter.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.getByLabel('Recipient').fill(`nobody-${randomUUID()}`);
  await page.getByLabel('Title').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#send-result')).toHaveText(/^404 recipient_not_found: /);
});

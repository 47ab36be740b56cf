import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from '../../demo/start-demo.ts';
import { openCdpPush } from '../support/cdp-push.ts';
import { expect, test } from './fixtures.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

test('no server key in anything served to the browser: built assets, the worker, and every response the page loads', async ({ chromiumContext, demo }) => {
  const secrets = [...demo.service.serverKeys, ...demo.service.otpKeys];
  expect(secrets.length).toBeGreaterThanOrEqual(2);
  const leaks = (text: string): string[] => [...secrets.filter((secret) => text.includes(secret)), ...(text.match(/\b(sk|otp)_(dev|live|test)_\w+/g) ?? [])];
  const built = [...filesUnder(path.join(dist, 'demo')), path.join(dist, 'pushbridge-sw.js')];
  expect(built.some((file) => file.endsWith('.js'))).toBe(true);
  for (const file of built) expect({ file, leaks: leaks(readFileSync(file).toString('latin1')) }).toEqual({ file, leaks: [] });

  // What the browser actually fetched, API answers included.
  const page = await chromiumContext.newPage();
  const served: { url: string; body: string }[] = [];
  page.on('response', (response) => {
    void response.body().then((body) => served.push({ url: response.url(), body: body.toString('latin1') }), () => {});
  });
  await page.goto(demo.url);
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  await expect.poll(() => served.some((item) => item.url.endsWith('/api/config'))).toBe(true);
  for (const item of served) expect({ url: item.url, leaks: leaks(item.body) }).toEqual({ url: item.url, leaks: [] });
});

test('a 429 from the service shows with the time to wait', async ({ chromiumContext }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-demo-429-'));
  const demo = await startDemo({
    dataDir,
    env: {},
    serviceConfig: { otp: { keys: [{ key: 'otp_rl' }] }, push: { workspaces: [{ id: 'ws', serverKeys: ['sk_rl'], rateLimitPerMinute: 2 }] } },
  });
  try {
    const page = await chromiumContext.newPage();
    await page.goto(demo.url);
    await page.getByLabel('Recipient').fill('nobody');
    const result = page.locator('#send-result');
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Send test notification' }).click();
      await expect(result).toHaveText(/^404 recipient_not_found: /);
      await page.getByLabel('Title').fill(`try ${i}`);
    }
    await page.getByRole('button', { name: 'Send test notification' }).click();
    await expect(result).toHaveText(/^429 rate_limited: Too many requests\. Try again in \d+ seconds\.$/);
  } finally {
    await demo.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a full session, for the README screenshot (docs/demo.png with UPDATE_DOCS_SCREENSHOT=1)', async ({ chromiumContext, demo }, testInfo) => {
  const page = await chromiumContext.newPage();
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(demo.url);
  await page.getByLabel('Recipient').fill('ada');
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  const push = await openCdpPush(chromiumContext, page, `${demo.url}/`);
  for (const [title, channel] of [['Order 42 shipped', 'Push'], ['Your invoice is ready', 'In-app']] as const) {
    await page.getByLabel('Title').fill(title);
    await page.getByRole('radio', { name: new RegExp(`^${channel}`) }).check();
    await page.getByRole('button', { name: 'Send test notification' }).click();
    await expect(page.locator('#send-result')).toHaveText(/^Queued /);
    const id = (await page.locator('#send-result').getAttribute('data-notification-id')) as string;
    await push.send(demo.service.notification(id)?.payload);
    await expect(page.locator('#events li[data-type="notification"]', { hasText: title })).toHaveCount(1);
  }
  await page.getByLabel('Phone number', { exact: true }).fill('+1 202 555 0150');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.locator('#otp-messages li')).toHaveCount(1);
  const screenshot = await page.screenshot({ fullPage: true, path: testInfo.outputPath('demo.png') });
  await testInfo.attach('demo', { body: screenshot, contentType: 'image/png' });
  if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
    await page.screenshot({ fullPage: true, path: fileURLToPath(new URL('../../docs/demo.png', import.meta.url)) });
  }
});

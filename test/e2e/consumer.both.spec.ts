import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { openCdpPush } from '../support/cdp-push.ts';
import { expect, test } from './consumer-fixtures.ts';

// The package as users get it: `npm pack`, installed into an app, built with Vite, run for real.
for (const worker of ['module', 'classic'] as const) {
  const description =
    worker === 'module' ? "the app's own worker, bundled with pushbridge/sw" : 'a classic worker that importScripts the ready-made pushbridge-sw.js';
  test(`installed from the tarball: subscribe and a push through ${description}`, async ({ browserContext, consumerBackend, service }, testInfo) => {
    const page = await browserContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${consumerBackend.url}/?worker=${worker}`);
    await page.getByRole('button', { name: 'Enable notifications' }).click();
    await expect(page.locator('#state')).toHaveText('subscribed');
    expect(service.store.devicesOf('consumer')).toHaveLength(1);

    const title = `consumer ${worker} ${randomUUID()}`;
    if (testInfo.project.name === 'firefox') {
      // Real delivery: the service encrypts for Firefox's subscription.
      const sent = await fetch(`${consumerBackend.url}/send`, { method: 'POST', body: JSON.stringify({ recipientId: 'consumer', title, body: 'b' }) });
      expect(sent.status).toBe(202);
    } else {
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      await (await openCdpPush(browserContext, page, scope)).send({ pushbridge: 1, notificationId: randomUUID(), channel: 'push', title, body: 'b', data: { url: '/' } });
    }
    await expect(page.locator('#shown li', { hasText: title })).toHaveCount(1);
    expect(await workerScriptOf(page)).toContain(worker === 'module' ? '/sw.js' : '/classic-sw.js');
    expect(errors).toEqual([]);
  });
}

test('importing the shipped ESM unbundled does nothing: no worker, no request, no database, no global', async ({ browserContext, consumerBackend }) => {
  const page = await browserContext.newPage();
  await page.goto(`${consumerBackend.url}/import-check.html`);
  const effects = await page.evaluate(async () => {
    const globalsBefore = new Set(Object.keys(window));
    const resourcesBefore = performance.getEntriesByType('resource').length;
    const pushbridge = (await import('pushbridge' as string)) as Record<string, unknown>;
    const requested = performance
      .getEntriesByType('resource')
      .slice(resourcesBefore)
      .map((entry) => new URL(entry.name).pathname);
    return {
      exports: Object.keys(pushbridge).sort(),
      // Playwright's own helpers (`__pw…`) may appear during an evaluation; they are not ours.
      newGlobals: Object.keys(window).filter((key) => !globalsBefore.has(key) && !key.startsWith('__pw')),
      requested,
      registrations: (await navigator.serviceWorker.getRegistrations()).length,
      databases: (await indexedDB.databases?.())?.map((db) => db.name) ?? [],
    };
  });
  expect(effects.exports).toEqual(expect.arrayContaining(['createPushClient', 'PushError', 'isPushError', 'CHANNEL_NAME', 'isPushbridgeMessage']));
  expect(effects.newGlobals).toEqual([]);
  // Only modules were fetched: workbox-window and the operations load later, when needed.
  expect(effects.requested.every((pathname) => pathname.startsWith('/nm/'))).toBe(true);
  expect(effects.requested.some((pathname) => pathname.includes('workbox-window'))).toBe(false);
  expect(effects.registrations).toBe(0);
  expect(effects.databases).toEqual([]);
});

async function workerScriptOf(page: Page): Promise<string> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
}

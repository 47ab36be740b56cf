import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createService } from '../../demo/service/create-service.ts';
import type { PushState } from '../../src/common/push-state.ts';
import { expect, test } from './fixtures.ts';

type AppWindow = { app: { client: import('../../src/index.ts').PushClient; states: PushState[]; unregistered: { endpoint: string; reason: string }[] } };

/** The endpoint of the browser's current subscription, read in the page. */
function endpointIn(page: Page): Promise<string | null> {
  return page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint ?? null);
}

async function open(page: Page, url: string, recipient: string): Promise<void> {
  await page.goto(`${url}/?recipient=${encodeURIComponent(recipient)}`);
  await expect(page.locator('#state')).not.toHaveText('…');
}

test('first load: subscribe works before any worker was ever active', async ({ browserContext, clientBackend, service }) => {
  const page = await browserContext.newPage();
  await open(page, clientBackend.url, 'first-load');
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  await expect(page.locator('#result')).toHaveText(/^registered /);
  const endpoint = await endpointIn(page);
  expect(service.store.devicesOf('first-load').map((device) => device.endpoint)).toEqual([endpoint]);
  expect(clientBackend.registerCalls).toHaveLength(1);
});

test('a second tab shows the state the first tab reached, live', async ({ browserContext, clientBackend }) => {
  const first = await browserContext.newPage();
  const second = await browserContext.newPage();
  await open(first, clientBackend.url, 'two-tabs');
  await open(second, clientBackend.url, 'two-tabs');
  // Both browsers are launched with permission granted, as after a yes at the prompt.
  await expect(second.locator('#state')).toHaveText('unsubscribed');
  await first.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(second.locator('#state')).toHaveText('subscribed');
  const seen = await second.evaluate(() => (window as unknown as AppWindow).app.states);
  expect(seen.at(-1)).toBe('subscribed');
  expect(seen).toContain('subscribing');
});

test('two tabs clicking at once make exactly one register call', async ({ browserContext, clientBackend, service }) => {
  const first = await browserContext.newPage();
  const second = await browserContext.newPage();
  await open(first, clientBackend.url, 'race');
  await open(second, clientBackend.url, 'race');
  await Promise.all([
    first.getByRole('button', { name: 'Enable notifications' }).click(),
    second.getByRole('button', { name: 'Enable notifications' }).click(),
  ]);
  await expect(first.locator('#result')).toHaveText(/^registered /);
  await expect(second.locator('#result')).toHaveText(/^registered /);
  expect(await first.locator('#result').textContent()).toBe(await second.locator('#result').textContent());
  expect(clientBackend.registerCalls).toHaveLength(1);
  expect(service.store.devicesOf('race')).toHaveLength(1);
});

test('backend down: pending, then registered once it is back, with no duplicate', async ({ browserContext, clientBackend, service }) => {
  const page = await browserContext.newPage();
  await open(page, clientBackend.url, 'down');
  clientBackend.down = true;
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#result')).toHaveText('error network');
  await expect(page.locator('#state')).toHaveText('pending');
  clientBackend.down = false;
  // The next page load's sync() retries the hand-off.
  await page.reload();
  await expect(page.locator('#state')).toHaveText('subscribed');
  await page.reload();
  await expect(page.locator('#state')).toHaveText('subscribed');
  // A dropped connection may be retried by the browser's network stack itself, so count what
  // matters: one successful registration, after at least one failed attempt.
  const statuses = clientBackend.registerCalls.map((call) => call.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.at(-1)).toBe(201);
  expect(statuses.filter((status) => status === 0).length).toBeGreaterThan(0);
  expect(service.store.devicesOf('down')).toHaveLength(1);
});

test('409 from the service: the browser rotates to a fresh subscription, once', async ({ browserContext, clientBackend, service }) => {
  const page = await browserContext.newPage();
  await open(page, clientBackend.url, 'rightful-owner');
  clientBackend.claimNextEndpointFor = 'someone-else';
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  const [conflicted, rotated] = clientBackend.registerCalls;
  expect(clientBackend.registerCalls.map((call) => call.status)).toEqual([409, 201]);
  expect(rotated?.endpoint).not.toBe(conflicted?.endpoint);
  expect(await endpointIn(page)).toBe(rotated?.endpoint);
  expect(service.store.devicesOf('rightful-owner').map((device) => device.endpoint)).toEqual([rotated?.endpoint]);
});

test('VAPID key change: the next load resubscribes with the new key and registers again', async ({ browserContext, clientBackend, service }) => {
  const page = await browserContext.newPage();
  await open(page, clientBackend.url, 'rotating');
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  const before = await endpointIn(page);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-service-'));
  const rotatedService = await createService({ dataDir });
  try {
    expect(rotatedService.vapidPublicKey).not.toBe(service.vapidPublicKey);
    clientBackend.useService({ url: rotatedService.url, serverKey: rotatedService.serverKeys[0] as string, vapidPublicKey: rotatedService.vapidPublicKey });
    await page.reload();
    await expect(page.locator('#state')).toHaveText('subscribed');
    const after = await endpointIn(page);
    expect(after).not.toBe(before);
    const key = await page.evaluate(async () => {
      const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
      const bytes = new Uint8Array(subscription?.options.applicationServerKey ?? new ArrayBuffer(0));
      return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    });
    expect(key).toBe(rotatedService.vapidPublicKey);
    expect(rotatedService.store.devicesOf('rotating').map((device) => device.endpoint)).toEqual([after]);
    expect(await page.evaluate(() => (window as unknown as AppWindow).app.unregistered)).toMatchObject([{ endpoint: before, reason: 'key-changed' }]);
  } finally {
    await rotatedService.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('setRecipient: the new user gets a fresh subscription and the old endpoint is gone', async ({ browserContext, clientBackend, service }) => {
  const page = await browserContext.newPage();
  await open(page, clientBackend.url, 'alice');
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  const alicesEndpoint = await endpointIn(page);
  await page.evaluate(() => (window as unknown as AppWindow).app.client.setRecipient('bob'));
  await expect(page.locator('#state')).toHaveText('subscribed');
  const bobsEndpoint = await endpointIn(page);
  expect(bobsEndpoint).not.toBe(alicesEndpoint);
  expect(clientBackend.registerCalls.map((call) => [call.recipientId, call.endpoint])).toEqual([
    ['alice', alicesEndpoint],
    ['bob', bobsEndpoint],
  ]);
  expect(service.store.devicesOf('bob').map((device) => device.endpoint)).toEqual([bobsEndpoint]);
  expect(await page.evaluate(() => (window as unknown as AppWindow).app.unregistered)).toMatchObject([{ endpoint: alicesEndpoint, reason: 'recipient-changed' }]);
});

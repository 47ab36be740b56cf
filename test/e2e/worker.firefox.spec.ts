import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import webpush from 'web-push';
import type { LocalPushService } from '../../demo/local-push/local-push-service.ts';
import { sendWebPush } from './worker-app/send-web-push.ts';
import type { WorkerApp } from './worker-app/worker-app-server.ts';
import { expect, openApp, test } from './worker-fixtures.ts';

// Firefox: nothing stubbed. Firefox's own subscribe() against the local push service, pushes
// encrypted and VAPID-signed here, decrypted by Firefox, handled by the real worker.

interface Subscribed {
  page: Page;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  vapid: { publicKey: string; privateKey: string };
}

async function subscribe(page: Page, app: WorkerApp, service: LocalPushService, query = ''): Promise<Subscribed> {
  await openApp(page, app);
  await page.evaluate((script) => window.app.register(script), `/test-sw.js${query}`);
  const vapid = webpush.generateVAPIDKeys();
  const json = await page.evaluate((key) => window.app.subscribe(key), vapid.publicKey);
  expect(json.endpoint?.startsWith(service.endpointOrigin)).toBe(true);
  return { page, vapid, subscription: { endpoint: json.endpoint ?? '', keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } } };
}

test('real pushes: the envelope is shown, malformed payloads show the fallback, in_app with a visible window goes to the inbox only, events are reported', async ({
  firefoxContext,
  workerApp,
  pushService,
}) => {
  const page = await firefoxContext.newPage();
  const { subscription, vapid } = await subscribe(page, workerApp, pushService, '?fallbackTitle=Fallback&reportUrl=/api/events');
  const id = randomUUID();
  const title = `Order ${id}`;
  expect(await sendWebPush(subscription, JSON.stringify({ pushbridge: 1, notificationId: id, channel: 'push', title, body: 'Arrives Tuesday', data: { url: '/orders/1' } }), vapid)).toBe(201);
  await page.evaluate((wanted) => window.app.next({ type: 'notification', notificationId: wanted }), id);
  expect(await page.evaluate(() => window.app.notifications())).toEqual([
    expect.objectContaining({ title, body: 'Arrives Tuesday', tag: `pushbridge:${id}`, data: { url: '/orders/1' } }),
  ]);

  for (const payload of ['not json', '', JSON.stringify({ pushbridge: 1, title: 42 }), null]) expect(await sendWebPush(subscription, payload, vapid)).toBe(201);
  await page.evaluate(() => window.app.count({ type: 'notification', title: 'Fallback' }, 4));

  const inApp = randomUUID();
  await sendWebPush(subscription, JSON.stringify({ pushbridge: 1, notificationId: inApp, channel: 'in_app', title: `Inbox ${inApp}`, body: 'b' }), vapid);
  expect(await page.evaluate((wanted) => window.app.next({ type: 'notification', notificationId: wanted }), inApp)).toMatchObject({ shown: false });
  expect((await page.evaluate(() => window.app.inbox())).map((item) => item.notificationId)).toEqual([inApp]);
  await workerApp.waitForReport((events) => events.filter((e) => e.type === 'delivered').length === 2);
  expect(workerApp.reported.map((e) => `${e.type} ${e.notificationId}`).sort()).toEqual([`delivered ${id}`, `delivered ${inApp}`].sort());

  const titles = (await page.evaluate(() => window.app.notifications())).map((n) => n.title);
  expect(titles.filter((t) => t === title)).toHaveLength(1);
  expect(titles).not.toContain(`Inbox ${inApp}`);
  // Firefox acknowledged every message as delivered, and the worker raised nothing.
  const acks = await Promise.all(pushService.forwarded.map((message) => pushService.waitForAck(message.version)));
  expect(acks).toEqual(acks.map(() => 100));
  expect(await page.evaluate(() => window.app.probes.filter((p) => p.type === 'error'))).toEqual([]);
});

test('pushsubscriptionchange for real: the push service forgets Firefox, the worker resubscribes and registers the new endpoint', async ({
  firefoxContext,
  workerApp,
  pushService,
}) => {
  const page = await firefoxContext.newPage();
  const { subscription, vapid } = await subscribe(page, workerApp, pushService);
  await page.evaluate(
    (key) => window.app.storeConfig({ vapidPublicKey: key, recipientId: 'user-ff', metadata: {}, handoff: { kind: 'url', url: '/api/register', headers: {}, credentials: 'same-origin' } }),
    vapid.publicKey,
  );
  pushService.rotateUaid();
  const change = await page.evaluate(() => window.app.next({ type: 'subscription-change' }));
  expect(change).toMatchObject({ registered: true, error: null });
  const current = await page.evaluate(() => window.app.subscription());
  expect(current?.endpoint).toBe((change as { endpoint: string }).endpoint);
  expect(current?.endpoint).not.toBe(subscription.endpoint);
  const call = await workerApp.waitForRegisterCall((c) => c.webPush.endpoint === current?.endpoint);
  expect(call.recipientId).toBe('user-ff');
  expect(await page.evaluate(() => window.app.registrationRecord())).toMatchObject({ endpoint: current?.endpoint, pending: false });

  // The old endpoint is gone; the new one delivers.
  expect(await sendWebPush(subscription, 'x', vapid)).toBe(410);
  const id = randomUUID();
  const fresh = { endpoint: current?.endpoint ?? '', keys: { p256dh: current?.keys?.p256dh ?? '', auth: current?.keys?.auth ?? '' } };
  expect(await sendWebPush(fresh, JSON.stringify({ pushbridge: 1, notificationId: id, channel: 'push', title: 'After the change', body: '' }), vapid)).toBe(201);
  await page.evaluate((wanted) => window.app.next({ type: 'notification', notificationId: wanted }), id);
});

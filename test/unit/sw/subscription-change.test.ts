import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesToBase64Url } from '../../../src/common/base64url.ts';
import { openPushbridgeDb, type ClientConfig, type HandoffConfig } from '../../../src/common/database.ts';
import { lockName } from '../../../src/common/lock-name.ts';
import { handleSubscriptionChange } from '../../../sw/subscription-change.ts';
import { deleteDatabase, fakeEvent, fakeSubscription, fakeWorker, listen } from './fake-worker.ts';

const SCOPE = 'https://shop.example/';
const VAPID = bytesToBase64Url(new Uint8Array(65).fill(9));

async function storeConfig(handoff: HandoffConfig): Promise<void> {
  const config: ClientConfig = { vapidPublicKey: VAPID, recipientId: 'user-1', metadata: { app: 'shop' }, handoff };
  const db = await openPushbridgeDb();
  await db.put('config', config, SCOPE);
  db.close();
}

async function registrationRecord() {
  const db = await openPushbridgeDb();
  try {
    return await db.get('registration', SCOPE);
  } finally {
    db.close();
  }
}

/** A backend register route; answers 201 with ids, or `status`. */
function fakeBackend(status = 201) {
  const calls: { url: string; body: { recipientId: string; webPush: { endpoint: string }; metadata: unknown } }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) });
    return Response.json(status < 300 ? { subscriberId: 's1', deviceId: 'd1' } : { error: 'nope', message: 'no' }, { status });
  }) as typeof fetch;
  return { calls, fetchFn };
}

function changeEvent() {
  return fakeEvent({ oldSubscription: fakeSubscription('https://push.example/old'), newSubscription: null });
}

let page: ReturnType<typeof listen>;
beforeEach(async () => {
  await deleteDatabase();
  page = listen();
});
afterEach(() => page.close());

describe('handleSubscriptionChange', () => {
  it('resubscribes with the stored key under the subscription lock, hands off again and tells the windows', async () => {
    const worker = fakeWorker();
    const locks: string[] = [];
    Object.assign(worker.scope, {
      navigator: { locks: { request: (name: string, _options: LockOptions, run: () => Promise<void>) => (locks.push(name), run()) } },
    });
    await storeConfig({ kind: 'url', url: '/api/push/register', headers: { 'x-app': '1' }, credentials: 'same-origin' });
    const backend = fakeBackend();
    const event = changeEvent();
    await handleSubscriptionChange(event as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });

    expect(event.waited).toHaveLength(1);
    expect(locks).toEqual([lockName(SCOPE)]);
    expect(worker.subscribeCalls).toHaveLength(1);
    expect(bytesToBase64Url((worker.subscribeCalls[0] as { applicationServerKey: Uint8Array }).applicationServerKey)).toBe(VAPID);
    expect(backend.calls).toEqual([
      { url: '/api/push/register', body: expect.objectContaining({ recipientId: 'user-1', webPush: expect.objectContaining({ endpoint: 'https://push.example/1' }), metadata: { app: 'shop' } }) },
    ]);
    expect(await registrationRecord()).toMatchObject({ endpoint: 'https://push.example/1', subscriberId: 's1', deviceId: 'd1', pending: false, lastError: null, recipientId: 'user-1' });
    await expect.poll(() => page.messages).toEqual([
      { pushbridge: 1, type: 'subscription-change', scope: SCOPE, endpoint: 'https://push.example/1', registered: true, error: null },
    ]);
  });

  it('registers directly with the client-safe key in direct mode', async () => {
    const worker = fakeWorker();
    await storeConfig({ kind: 'direct', pushBaseUrl: 'https://push.service.example/', clientKey: 'pk_test' });
    const backend = fakeBackend();
    await handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });
    expect(backend.calls.map((c) => c.url)).toEqual(['https://push.service.example/v1/subscribers/register']);
  });

  it('uses a subscription the browser already made instead of subscribing again', async () => {
    const worker = fakeWorker();
    worker.setSubscription(fakeSubscription('https://push.example/existing', { applicationServerKey: new Uint8Array(65).fill(9) }));
    await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
    const backend = fakeBackend();
    await handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });
    expect(worker.subscribeCalls).toEqual([]);
    expect(backend.calls[0]?.body.webPush.endpoint).toBe('https://push.example/existing');
  });

  it('leaves the callback hand-off to a page: pending record, registered false without error', async () => {
    const worker = fakeWorker();
    await storeConfig({ kind: 'callback' });
    const backend = fakeBackend();
    await handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });
    expect(backend.calls).toEqual([]);
    expect(await registrationRecord()).toMatchObject({ endpoint: 'https://push.example/1', pending: true, lastError: null });
    await expect.poll(() => page.messages).toEqual([expect.objectContaining({ type: 'subscription-change', registered: false, error: null, endpoint: 'https://push.example/1' })]);
  });

  it('keeps the record pending with the error code when the backend refuses', async () => {
    const worker = fakeWorker();
    await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
    await handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: fakeBackend(409).fetchFn });
    expect(await registrationRecord()).toMatchObject({ pending: true, lastError: 'register-conflict' });
    await expect.poll(() => page.messages).toEqual([expect.objectContaining({ registered: false, error: 'register-conflict' })]);
  });

  it('resubscribes with the old key but registers nothing when no page stored a config', async () => {
    const worker = fakeWorker();
    const event = changeEvent();
    Object.assign(event.oldSubscription, { options: { applicationServerKey: new Uint8Array(65).fill(1).buffer } });
    await handleSubscriptionChange(event as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: fakeBackend().fetchFn });
    expect(worker.subscribeCalls).toHaveLength(1);
    await expect.poll(() => page.messages).toEqual([expect.objectContaining({ registered: false, error: 'no stored config' })]);
  });

  it('replaces a subscription the browser holds for another VAPID key, as the page does (subscribeWithKey)', async () => {
    const worker = fakeWorker();
    const other = fakeSubscription('https://push.example/other-key', { applicationServerKey: new Uint8Array(65).fill(3) });
    worker.setSubscription(other);
    await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
    const backend = fakeBackend();
    await handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });
    expect(other.unsubscribed).toBe(1);
    expect(worker.subscribeCalls).toHaveLength(1);
    expect(backend.calls.map((call) => call.body.webPush.endpoint)).toEqual(['https://push.example/1']);
  });

  it('registers nothing for a subscription without encryption keys (never empty keys)', async () => {
    const worker = fakeWorker();
    await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
    const backend = fakeBackend();
    const event = fakeEvent({ oldSubscription: null, newSubscription: fakeSubscription('https://push.example/keyless', { withKeys: false }) });
    await handleSubscriptionChange(event as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn });
    expect(backend.calls).toEqual([]);
    await expect.poll(() => page.messages).toEqual([expect.objectContaining({ endpoint: 'https://push.example/keyless', registered: false, error: 'subscribe-failed' })]);
  });

  describe('when a page holds the subscription lock and never lets go', () => {
    /** Web Locks where the lock is taken: a request waits until its signal aborts, as the browser's does. */
    function heldLock(worker: ReturnType<typeof fakeWorker>) {
      const request = (_name: string, optionsOrRun: { signal?: AbortSignal } | (() => Promise<void>)) =>
        new Promise((_resolve, reject) => {
          const signal = typeof optionsOrRun === 'function' ? undefined : optionsOrRun.signal;
          signal?.addEventListener('abort', () => reject(signal.reason));
        });
      Object.assign(worker.scope, { navigator: { locks: { request } } });
    }
    async function storeRecord(): Promise<void> {
      const db = await openPushbridgeDb();
      await db.put('registration', { fingerprint: 'f0', endpoint: 'https://push.example/old', recipientId: 'user-1', subscriberId: 's0', deviceId: 'd0', registeredAt: 1, pending: false, lastError: null }, SCOPE);
      db.close();
    }

    it('stops waiting after timeoutMs, leaves the record pending for sync() and tells the windows', { timeout: 2000 }, async () => {
      const worker = fakeWorker();
      heldLock(worker);
      await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
      await storeRecord();
      const backend = fakeBackend();
      const event = changeEvent();
      await handleSubscriptionChange(event as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: backend.fetchFn, timeoutMs: 50 });
      expect(event.waited).toHaveLength(1);
      expect(worker.subscribeCalls).toEqual([]);
      expect(backend.calls).toEqual([]);
      expect(await registrationRecord()).toMatchObject({ endpoint: 'https://push.example/old', subscriberId: 's0', pending: true, lastError: 'timeout' });
      await expect.poll(() => page.messages).toEqual([
        { pushbridge: 1, type: 'subscription-change', scope: SCOPE, endpoint: 'https://push.example/old', registered: false, error: 'timeout' },
      ]);
    });

    it('records the browser\'s new subscription as pending when the event carries one', { timeout: 2000 }, async () => {
      const worker = fakeWorker();
      heldLock(worker);
      await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
      await storeRecord();
      const event = fakeEvent({ oldSubscription: null, newSubscription: fakeSubscription('https://push.example/new') });
      await handleSubscriptionChange(event as unknown as PushSubscriptionChangeEvent, { scope: worker.scope, fetch: fakeBackend().fetchFn, timeoutMs: 50 });
      expect(await registrationRecord()).toMatchObject({ endpoint: 'https://push.example/new', subscriberId: null, deviceId: null, pending: true, lastError: 'timeout', recipientId: 'user-1' });
      await expect.poll(() => page.messages).toEqual([expect.objectContaining({ endpoint: 'https://push.example/new', registered: false, error: 'timeout' })]);
    });
  });

  it('never rejects when subscribing fails', async () => {
    const worker = fakeWorker();
    await storeConfig({ kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' });
    Object.assign(worker.scope.registration.pushManager, { subscribe: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    await expect(handleSubscriptionChange(changeEvent() as unknown as PushSubscriptionChangeEvent, { scope: worker.scope })).resolves.toBeUndefined();
    await expect.poll(() => page.messages).toEqual([expect.objectContaining({ endpoint: null, registered: false, error: 'subscribe-failed' })]);
  });
});

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bytesToBase64Url } from '../../../src/common/base64url.ts';
import type { PushState } from '../../../src/common/push-state.ts';
import { createPushClient, type PushClientOptions, type UnregisteredDevice } from '../../../src/push-client.ts';
import { REREGISTER_AFTER_MS } from '../../../src/reconcile.ts';
import { fakeProfile, fakeSubscription } from './fake-browser.ts';

const VAPID = bytesToBase64Url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i)));
const OTHER_VAPID = bytesToBase64Url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 200 - i)));

beforeEach(() => {
  // idb opens the global factory; each test gets an empty database.
  globalThis.indexedDB = new IDBFactory();
});

function options(recipientId: string, extra: Partial<PushClientOptions> = {}): PushClientOptions {
  return {
    vapidPublicKey: VAPID,
    serviceWorker: { url: '/pushbridge-sw.js' },
    register: { url: '/api/push/register' },
    recipientId,
    autoSync: false,
    ...extra,
  };
}

describe('subscribe', () => {
  it('asks permission first, then registers the worker, subscribes and hands off', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1'), profile.tab());
    expect(profile.log).toEqual([]); // creating the client does nothing
    const result = await client.subscribe();
    expect(profile.log).toEqual(['permission', 'register http://localhost/pushbridge-sw.js', 'subscribe', 'post']);
    expect(result).toEqual({ subscriberId: 's1', deviceId: 'd1', endpoint: 'https://push.example/1' });
    expect(profile.posts[0]?.url).toBe('/api/push/register');
    expect(profile.posts[0]?.body).toMatchObject({ recipientId: 'u1', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: 'https://push.example/1' } });
    expect(await client.getState()).toBe('subscribed');
  });

  it('makes one register call when one tab calls subscribe() twice at once', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1'), profile.tab());
    const [a, b] = await Promise.all([client.subscribe(), client.subscribe()]);
    expect(a).toEqual(b);
    expect(profile.posts).toHaveLength(1);
  });

  it('makes one register call when two tabs subscribe at once', async () => {
    const profile = fakeProfile();
    const tab1 = createPushClient(options('u1'), profile.tab());
    const tab2 = createPushClient(options('u1'), profile.tab());
    const [a, b] = await Promise.all([tab1.subscribe(), tab2.subscribe()]);
    expect(profile.posts).toHaveLength(1);
    expect(b).toEqual(a);
    expect(await tab2.getState()).toBe('subscribed');
  });

  it('reports pending when the backend refuses, with the status on the error', async () => {
    const profile = fakeProfile();
    profile.backendAnswers.push(503);
    const client = createPushClient(options('u1'), profile.tab());
    await expect(client.subscribe()).rejects.toMatchObject({ name: 'PushError', code: 'register-rejected', status: 503 });
    expect(await client.getState()).toBe('pending');
  });

  it('meets a 409 once with a fresh subscription, and reports a second one', async () => {
    const profile = fakeProfile();
    profile.backendAnswers.push(409);
    const unregistered: UnregisteredDevice[] = [];
    const client = createPushClient(options('u1', { onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    const result = await client.subscribe();
    expect(profile.posts.map((p) => (p.body.webPush as { endpoint: string }).endpoint)).toEqual(['https://push.example/1', 'https://push.example/2']);
    expect(result.endpoint).toBe('https://push.example/2');

    const again = fakeProfile();
    again.backendAnswers.push(409, 409);
    globalThis.indexedDB = new IDBFactory();
    await expect(createPushClient(options('u2'), again.tab()).subscribe()).rejects.toMatchObject({ code: 'register-conflict', status: 409 });
    expect(again.posts).toHaveLength(2);
  });

  it('replaces a subscription made with another VAPID key, and reuses one made with the same', async () => {
    const old = fakeSubscription('https://push.example/old', OTHER_VAPID);
    const profile = fakeProfile({ permission: 'granted', subscription: old });
    const result = await createPushClient(options('u1'), profile.tab()).subscribe();
    expect(old.unsubscribed).toBe(true);
    expect(result.endpoint).toBe('https://push.example/1');

    globalThis.indexedDB = new IDBFactory();
    const same = fakeSubscription('https://push.example/same', VAPID);
    const second = fakeProfile({ permission: 'granted', subscription: same });
    expect((await createPushClient(options('u1'), second.tab()).subscribe()).endpoint).toBe('https://push.example/same');
  });

  it('hands off with a callback, or straight to the service with a client-safe key', async () => {
    const profile = fakeProfile();
    const seen: string[] = [];
    const viaCallback = createPushClient(
      options('u1', {
        register: async (request) => {
          seen.push(request.webPush.endpoint);
          return { subscriberId: 'cb-s', deviceId: 'cb-d' };
        },
      }),
      profile.tab(),
    );
    expect(await viaCallback.subscribe()).toMatchObject({ subscriberId: 'cb-s', deviceId: 'cb-d' });
    expect(seen).toEqual(['https://push.example/1']);
    expect(profile.posts).toHaveLength(0);

    globalThis.indexedDB = new IDBFactory();
    const direct = fakeProfile();
    await createPushClient(options('u1', { register: { direct: { pushBaseUrl: 'https://push.example.com', clientKey: 'pk_1' } } }), direct.tab()).subscribe();
    expect(direct.posts[0]?.url).toBe('https://push.example.com/v1/subscribers/register');
  });

  it('is unsupported without service workers, needs-install on iOS outside the home screen; subscribe() rejects', async () => {
    const plain = createPushClient(options('u1'), fakeProfile().tab({ serviceWorker: undefined }));
    expect(await plain.getState()).toBe('unsupported');
    await expect(plain.subscribe()).rejects.toMatchObject({ code: 'unsupported' });
    const iphone = createPushClient(options('u1'), fakeProfile().tab({ pushManager: false, notification: undefined, ios: true }));
    expect(await iphone.getState()).toBe('needs-install');
    await expect(iphone.subscribe()).rejects.toMatchObject({ code: 'needs-install' });
  });
});

describe('sync', () => {
  it('does nothing when the registration is fresh and unchanged', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1'), profile.tab());
    await client.subscribe();
    profile.log.length = 0;
    expect(await client.sync()).toBe('subscribed');
    expect(profile.log).toEqual([]);
  });

  it('registers again after 7 days', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1'), profile.tab());
    await client.subscribe();
    profile.clock.now += REREGISTER_AFTER_MS;
    expect(await client.sync()).toBe('subscribed');
    expect(profile.posts).toHaveLength(2);
  });

  it('resubscribes and re-registers when the VAPID key changed', async () => {
    const profile = fakeProfile();
    const unregistered: UnregisteredDevice[] = [];
    await createPushClient(options('u1'), profile.tab()).subscribe();
    const rotated = createPushClient(options('u1', { vapidPublicKey: OTHER_VAPID, onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    expect(await rotated.getState()).toBe('pending');
    expect(await rotated.sync()).toBe('subscribed');
    expect(profile.posts.map((p) => (p.body.webPush as { endpoint: string }).endpoint)).toEqual(['https://push.example/1', 'https://push.example/2']);
    expect(unregistered).toMatchObject([{ endpoint: 'https://push.example/1', reason: 'key-changed' }]);
  });

  it('leaves pending after a failed hand-off, retries on the next sync and when back online, never twice at once', async () => {
    const profile = fakeProfile();
    profile.backendAnswers.push(0, 0); // network down twice
    const client = createPushClient(options('u1'), profile.tab());
    await expect(client.subscribe()).rejects.toMatchObject({ code: 'network' });
    const [first, second] = await Promise.all([client.sync(), client.sync()]);
    expect([first, second]).toEqual(['pending', 'pending']);
    expect(profile.posts).toHaveLength(2); // subscribe's, and one sync's
    expect(profile.onlineListeners.size).toBe(1);
    for (const listener of profile.onlineListeners) listener();
    await expect.poll(() => client.getState()).toBe('subscribed');
    expect(profile.posts).toHaveLength(3);
    expect(profile.onlineListeners.size).toBe(0);
  });

  it('forgets the registration and calls onUnregister when permission was revoked or the subscription vanished', async () => {
    const profile = fakeProfile();
    const unregistered: UnregisteredDevice[] = [];
    const client = createPushClient(options('u1', { onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    await client.subscribe();
    profile.subscription!.unsubscribed = true;
    expect(await client.sync()).toBe('unsubscribed');
    expect(unregistered).toMatchObject([{ endpoint: 'https://push.example/1', deviceId: 'd1', reason: 'subscription-lost' }]);
    expect(await client.sync()).toBe('unsubscribed');
    expect(unregistered).toHaveLength(1);

    await client.subscribe();
    profile.permission = 'denied';
    expect(await client.sync()).toBe('denied');
    expect(unregistered.map((d) => d.reason)).toEqual(['subscription-lost', 'permission-revoked']);
  });

  it('keeps the record when onUnregister fails, and calls it again on the next sync', async () => {
    const profile = fakeProfile();
    let calls = 0;
    const client = createPushClient(
      options('u1', {
        onUnregister: () => {
          calls++;
          if (calls === 1) throw new Error('backend down');
        },
      }),
      profile.tab(),
    );
    await client.subscribe();
    profile.subscription!.unsubscribed = true;
    await client.sync();
    await client.sync();
    await client.sync();
    expect(calls).toBe(2);
  });
});

describe('unsubscribe and setRecipient', () => {
  it('unsubscribe() removes the subscription and tells the hook', async () => {
    const profile = fakeProfile();
    const unregistered: UnregisteredDevice[] = [];
    const client = createPushClient(options('u1', { onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    await client.subscribe();
    await client.unsubscribe();
    expect(profile.subscription?.unsubscribed).toBe(true);
    expect(unregistered).toMatchObject([{ reason: 'unsubscribed', recipientId: 'u1' }]);
    expect(await client.getState()).toBe('unsubscribed');
  });

  it('setRecipient() gives the new user a fresh subscription, so the old endpoint is never theirs', async () => {
    const profile = fakeProfile();
    const unregistered: UnregisteredDevice[] = [];
    const client = createPushClient(options('alice', { onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    await client.subscribe();
    await client.setRecipient('bob');
    expect(profile.posts.map((p) => [p.body.recipientId, (p.body.webPush as { endpoint: string }).endpoint])).toEqual([
      ['alice', 'https://push.example/1'],
      ['bob', 'https://push.example/2'],
    ]);
    expect(unregistered).toMatchObject([{ recipientId: 'alice', endpoint: 'https://push.example/1', reason: 'recipient-changed' }]);
    expect(await client.getState()).toBe('subscribed');
  });
});

describe('state across tabs', () => {
  it('tells every tab of a change, without repeating a state', async () => {
    const profile = fakeProfile();
    const tab1 = createPushClient(options('u1'), profile.tab());
    const tab2 = createPushClient(options('u1'), profile.tab());
    const seen: PushState[] = [];
    tab2.onStateChange((state) => seen.push(state));
    await expect.poll(() => seen).toEqual(['default']);
    await tab1.subscribe();
    await expect.poll(() => seen.at(-1)).toBe('subscribed');
    expect(seen).toEqual(['default', 'subscribing', 'subscribed']);
    tab1.close();
    tab2.close();
  });
});

describe('soft prompt policy', () => {
  it('backs off 3, 7 and 30 days after "not now", and never asks once decided', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1'), profile.tab());
    const day = 24 * 60 * 60 * 1000;
    expect(client.shouldAskPermission()).toBe(true);
    for (const days of [3, 7, 30, 30]) {
      client.notNow();
      profile.clock.now += days * day - 1;
      expect(client.shouldAskPermission()).toBe(false);
      profile.clock.now += 1;
      expect(client.shouldAskPermission()).toBe(true);
    }
    profile.permission = 'denied';
    expect(client.shouldAskPermission()).toBe(false);
  });
});

describe('options', () => {
  it('names every missing option', () => {
    expect(() => createPushClient({ ...options(''), vapidPublicKey: '' }, fakeProfile().tab())).toThrow(/vapidPublicKey, recipientId/);
  });
});

/** A stand-in for the worker's end of the shared channel, recording what pages post to it. */
function workerChannel(profile: ReturnType<typeof fakeProfile>): { channel: BroadcastChannel; heard: unknown[] } {
  const channel = profile.tab().openChannel('pushbridge')!;
  const heard: unknown[] = [];
  channel.addEventListener('message', (event) => heard.push((event as MessageEvent).data));
  return { channel, heard };
}

describe('messages from the worker', () => {
  it('delivers typed events, routes and acknowledges a click sent to this window, and ignores foreign messages', async () => {
    const profile = fakeProfile();
    const { channel: worker, heard } = workerChannel(profile);
    const tab = profile.tab();
    const client = createPushClient(options('u1'), tab);
    const clicks: string[] = [];
    const notifications: string[] = [];
    client.on('click', (message) => clicks.push(message.url));
    client.on('notification', (message) => notifications.push(message.title));
    worker.postMessage({ pushbridge: 1, type: 'notification', notificationId: 'n1', channel: 'push', title: 'Hi', body: 'b', data: {} });
    worker.postMessage({ type: 'notification', title: 'not ours' });
    profile.postToTab(tab, { pushbridge: 1, type: 'click', clickId: 'c1', notificationId: 'n1', action: '', url: 'http://localhost/o/1', data: {} });
    await expect.poll(() => heard).toContainEqual({ pushbridge: 1, type: 'click-ack', clickId: 'c1' });
    expect(clicks).toEqual(['http://localhost/o/1']);
    expect(notifications).toEqual(['Hi']);
    client.close();
  });

  it('leaves a click heard on the shared channel to the window it was sent to', async () => {
    const profile = fakeProfile();
    const { channel: worker, heard } = workerChannel(profile);
    const client = createPushClient(options('u1'), profile.tab());
    const clicks: string[] = [];
    const notifications: string[] = [];
    client.on('click', (message) => clicks.push(message.url));
    client.on('notification', (message) => notifications.push(message.title));
    worker.postMessage({ pushbridge: 1, type: 'click', clickId: 'c3', notificationId: null, action: '', url: 'http://localhost/', data: {} });
    worker.postMessage({ pushbridge: 1, type: 'notification', notificationId: 'n3', channel: 'push', title: 'after', body: '', data: {} });
    await expect.poll(() => notifications).toEqual(['after']);
    expect(clicks).toEqual([]);
    expect(heard).toEqual([]);
    client.close();
  });

  it('does not acknowledge a click when no page listens for clicks', async () => {
    const profile = fakeProfile();
    const { channel: worker, heard } = workerChannel(profile);
    const tab = profile.tab();
    const client = createPushClient(options('u1'), tab);
    const notifications: string[] = [];
    client.on('notification', (message) => notifications.push(message.title));
    profile.postToTab(tab, { pushbridge: 1, type: 'click', clickId: 'c2', notificationId: null, action: '', url: 'http://localhost/', data: {} });
    worker.postMessage({ pushbridge: 1, type: 'notification', notificationId: 'n2', channel: 'push', title: 'after', body: '', data: {} });
    await expect.poll(() => notifications).toEqual(['after']);
    expect(heard).toEqual([]);
    client.close();
  });
});

describe('inbox', () => {
  it('lists newest first, counts unread, and marks read for every tab', async () => {
    const { openPushbridgeDb } = await import('../../../src/common/database.ts');
    const db = await openPushbridgeDb();
    for (const [id, at] of [['a', 1], ['b', 3], ['c', 2]] as const) {
      await db.put('inbox', { notificationId: id, title: id, body: '', data: {}, receivedAt: at, readAt: null }, id);
    }
    db.close();
    const profile = fakeProfile();
    const tab1 = createPushClient(options('u1'), profile.tab());
    const tab2 = createPushClient(options('u1'), profile.tab());
    const updates: string[] = [];
    tab2.on('inbox', (message) => updates.push(message.item.notificationId));
    expect((await tab1.inbox.list()).map((item) => item.notificationId)).toEqual(['b', 'c', 'a']);
    expect(await tab1.inbox.unreadCount()).toBe(3);
    await tab1.inbox.markRead('c');
    await tab1.inbox.markRead('c');
    await tab1.inbox.markRead('nope');
    expect(await tab2.inbox.unreadCount()).toBe(2);
    await expect.poll(() => updates).toEqual(['c']);
    tab1.close();
    tab2.close();
  });
});

describe('review fixes', () => {
  it('a page load as another user rotates to a fresh subscription instead of handing over the old endpoint', async () => {
    const profile = fakeProfile();
    await createPushClient(options('alice'), profile.tab()).subscribe();
    const unregistered: UnregisteredDevice[] = [];
    const asBob = createPushClient(options('bob', { onUnregister: (d) => void unregistered.push(d) }), profile.tab());
    expect(await asBob.sync()).toBe('subscribed');
    expect(profile.posts.map((p) => [p.body.recipientId, (p.body.webPush as { endpoint: string }).endpoint])).toEqual([
      ['alice', 'https://push.example/1'],
      ['bob', 'https://push.example/2'],
    ]);
    expect(unregistered).toMatchObject([{ recipientId: 'alice', endpoint: 'https://push.example/1', reason: 'recipient-changed' }]);
  });

  it('a stale tab follows a user switch made in another tab, and does not register the old user again', async () => {
    const profile = fakeProfile();
    const tab1 = createPushClient(options('alice'), profile.tab());
    const tab2 = createPushClient(options('alice'), profile.tab());
    await tab1.subscribe();
    await tab2.sync(); // tab 2 is listening
    await tab1.setRecipient('bob');
    await expect.poll(async () => tab2.sync()).toBe('subscribed');
    expect(profile.posts.map((p) => p.body.recipientId)).toEqual(['alice', 'bob']);
    tab1.close();
    tab2.close();
  });

  it('an onUnregister that fails is queued and called again by the next sync, whatever removed the device', async () => {
    const profile = fakeProfile();
    const calls: string[] = [];
    let fail = true;
    const client = createPushClient(
      options('u1', {
        onUnregister: (device) => {
          calls.push(device.reason);
          if (fail) throw new Error('backend down');
        },
      }),
      profile.tab(),
    );
    await client.subscribe();
    await client.unsubscribe();
    expect(calls).toEqual(['unsubscribed']);
    fail = false;
    await client.sync();
    expect(calls).toEqual(['unsubscribed', 'unsubscribed']);
    await client.sync();
    expect(calls).toHaveLength(2);
  });

  it('an onUnregister that never settles does not hold the lock past the timeout', async () => {
    const profile = fakeProfile();
    const client = createPushClient(options('u1', { timeoutMs: 50, onUnregister: () => new Promise<void>(() => undefined) }), profile.tab());
    await client.subscribe();
    await client.unsubscribe();
    expect(await client.getState()).toBe('unsubscribed');
  });

  it('a healthy sync keeps the config the worker replays current, e.g. a new CSRF header', async () => {
    const profile = fakeProfile();
    await createPushClient(options('u1', { register: { url: '/api/push/register', headers: { 'x-csrf': 'old' } } }), profile.tab()).subscribe();
    await createPushClient(options('u1', { register: { url: '/api/push/register', headers: { 'x-csrf': 'new' } } }), profile.tab()).sync();
    const { openPushbridgeDb } = await import('../../../src/common/database.ts');
    const db = await openPushbridgeDb();
    const stored = await db.get('config', 'http://localhost/');
    db.close();
    expect(stored?.handoff).toEqual({ kind: 'url', url: 'http://localhost/api/push/register', headers: { 'x-csrf': 'new' }, credentials: 'same-origin' });
    expect(profile.posts).toHaveLength(1);
  });

  it('a sync with nothing to do does not flash "subscribing" in other tabs', async () => {
    const profile = fakeProfile();
    const tab1 = createPushClient(options('u1'), profile.tab());
    await tab1.subscribe();
    const tab2 = createPushClient(options('u1'), profile.tab());
    const seen: PushState[] = [];
    tab2.onStateChange((state) => seen.push(state));
    await expect.poll(() => seen).toEqual(['subscribed']);
    await tab1.sync();
    await tab1.sync();
    expect(seen).toEqual(['subscribed']);
    tab1.close();
    tab2.close();
  });

  it('after close(), the scheduled sync does not run and nothing listens', async () => {
    const profile = fakeProfile({ permission: 'granted', subscription: fakeSubscription('https://push.example/x', VAPID) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const client = createPushClient(options('u1', { autoSync: true }), profile.tab());
      client.close();
      expect(vi.getTimerCount()).toBe(0);
      vi.runAllTimers();
    } finally {
      vi.useRealTimers();
    }
    expect(profile.posts).toHaveLength(0);
    expect(profile.onlineListeners.size).toBe(0);
  });
});

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { BrowserEnv } from '../../../src/browser-env.ts';
import { base64UrlToBytes, bytesToBase64Url } from '../../../src/common/base64url.ts';
import { createPushClient } from '../../../src/push-client.ts';

const VAPID = bytesToBase64Url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i)));
const OTHER_VAPID = bytesToBase64Url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 200 - i)));

interface FakeSubscription extends PushSubscription {
  unsubscribed: boolean;
}

function fakeSubscription(endpoint: string, key: string): FakeSubscription {
  const subscription = {
    endpoint,
    unsubscribed: false,
    options: { applicationServerKey: base64UrlToBytes(key).buffer, userVisibleOnly: true },
    getKey: (name: string) => (name === 'p256dh' ? Uint8Array.from({ length: 65 }, () => 4).buffer : Uint8Array.from({ length: 16 }, () => 7).buffer),
    async unsubscribe() {
      subscription.unsubscribed = true;
      return true;
    },
  };
  return subscription as unknown as FakeSubscription;
}

/** A browser with every API, recording what pushbridge did, in order. */
function fakeBrowser(options: { existing?: FakeSubscription; backendStatus?: number; permission?: NotificationPermission } = {}) {
  const log: string[] = [];
  let current: FakeSubscription | null = options.existing ?? null;
  let serial = 0;
  const posts: unknown[] = [];
  let permission: NotificationPermission = options.permission ?? 'default';
  const pushManager = {
    async getSubscription() {
      return current && !current.unsubscribed ? current : null;
    },
    async subscribe(init: PushSubscriptionOptionsInit) {
      log.push('subscribe');
      current = fakeSubscription(`https://push.example/${++serial}`, bytesToBase64Url(init.applicationServerKey as Uint8Array));
      return current;
    },
  };
  const registration = { active: {}, installing: null, waiting: null, pushManager } as unknown as ServiceWorkerRegistration;
  const env: BrowserEnv = {
    serviceWorker: { getRegistration: async () => registration } as unknown as ServiceWorkerContainer,
    notification: {
      get permission() {
        return permission;
      },
      async requestPermission() {
        log.push('permission');
        permission = 'granted';
        return permission;
      },
    },
    pushManager: true,
    fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
      log.push('post');
      posts.push(JSON.parse(String(init?.body)));
      const status = options.backendStatus ?? 201;
      return new Response(JSON.stringify(status < 300 ? { subscriberId: 's1', deviceId: `d${posts.length}` } : { error: 'down' }), { status });
    }) as typeof fetch,
    async registerWorker(url) {
      log.push(`register ${url}`);
      return registration;
    },
  };
  return { env, log, posts, subscription: () => current };
}

const options = (recipientId: string) => ({
  vapidPublicKey: VAPID,
  serviceWorker: { url: '/pushbridge-sw.js' },
  register: { url: '/api/push/register' },
  recipientId,
});

describe('createPushClient', () => {
  it('asks permission first, then registers the worker, subscribes and hands off', async () => {
    const browser = fakeBrowser();
    const client = createPushClient(options('u-order'), browser.env);
    expect(browser.log).toEqual([]); // creating the client does nothing
    const result = await client.subscribe();
    expect(browser.log).toEqual(['permission', 'register /pushbridge-sw.js', 'subscribe', 'post']);
    expect(result).toEqual({ subscriberId: 's1', deviceId: 'd1', endpoint: 'https://push.example/1' });
    expect(browser.posts[0]).toMatchObject({ recipientId: 'u-order', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: 'https://push.example/1' } });
    expect(await client.getState()).toBe('subscribed');
  });

  it('makes one subscription and one register call when subscribe() is called twice at once', async () => {
    const browser = fakeBrowser();
    const client = createPushClient(options('u-twice'), browser.env);
    const [a, b] = await Promise.all([client.subscribe(), client.subscribe()]);
    expect(a).toEqual(b);
    expect(browser.posts).toHaveLength(1);
    expect(browser.log.filter((entry) => entry === 'subscribe')).toHaveLength(1);
  });

  it('reports pending when the backend refuses, and the error carries the status', async () => {
    const browser = fakeBrowser({ backendStatus: 503 });
    const client = createPushClient(options('u-pending'), browser.env);
    await expect(client.subscribe()).rejects.toMatchObject({ name: 'PushError', code: 'register-rejected', status: 503 });
    expect(await client.getState()).toBe('pending');
  });

  it('replaces a subscription made with another VAPID key', async () => {
    const old = fakeSubscription('https://push.example/old', OTHER_VAPID);
    const browser = fakeBrowser({ existing: old, permission: 'granted' });
    const result = await createPushClient(options('u-key'), browser.env).subscribe();
    expect(old.unsubscribed).toBe(true);
    expect(result.endpoint).toBe('https://push.example/1');
  });

  it('reuses a subscription made with the same key', async () => {
    const same = fakeSubscription('https://push.example/same', VAPID);
    const browser = fakeBrowser({ existing: same, permission: 'granted' });
    const result = await createPushClient(options('u-same'), browser.env).subscribe();
    expect(browser.log).not.toContain('subscribe');
    expect(result.endpoint).toBe('https://push.example/same');
  });

  it('reads the state from the browser: default, denied, unsubscribed', async () => {
    expect(await createPushClient(options('u-s1'), fakeBrowser().env).getState()).toBe('default');
    expect(await createPushClient(options('u-s2'), fakeBrowser({ permission: 'denied' }).env).getState()).toBe('denied');
    expect(await createPushClient(options('u-s3'), fakeBrowser({ permission: 'granted' }).env).getState()).toBe('unsubscribed');
  });

  it('is unsupported without service workers, and subscribe() rejects rather than throws', async () => {
    const env = { ...fakeBrowser().env, serviceWorker: undefined };
    const client = createPushClient(options('u-none'), env);
    expect(await client.getState()).toBe('unsupported');
    await expect(client.subscribe()).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('names every missing option', () => {
    expect(() => createPushClient({ ...options(''), vapidPublicKey: '' }, fakeBrowser().env)).toThrow(/vapidPublicKey, recipientId/);
  });
});

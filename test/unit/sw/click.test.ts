import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleNotificationClick } from '../../../sw/click.ts';
import { handlePush } from '../../../sw/push.ts';
import type { WorkerOptions } from '../../../sw/worker-options.ts';
import { clickEvent, deleteDatabase, fakeWorker, listen, pushEvent, type FakeWindow } from './fake-worker.ts';

let page: ReturnType<typeof listen> | undefined;
beforeEach(() => deleteDatabase());
afterEach(() => page?.close());

/** Show a push through the handler, then click it as the browser would. */
async function showAndClick(payload: object, windows: FakeWindow[], options: Omit<WorkerOptions, 'scope'> = {}, action = '') {
  const worker = fakeWorker(windows);
  try {
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', channel: 'push', title: 'T', body: 'B', ...payload }) as unknown as PushEvent, { scope: worker.scope });
    worker.log.length = 0;
    const shown = worker.shown.at(-1);
    if (!shown) throw new Error('nothing shown');
    const event = clickEvent(shown, action);
    const done = handleNotificationClick(event as unknown as NotificationEvent, { ...options, scope: worker.scope });
    expect(event.waited).toHaveLength(1);
    await done;
    // Let a late page answer arrive, so that a test sees what every window heard.
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { log: worker.log, closed: event.closed, posted: worker.posted, heard: worker.heard };
  } finally {
    worker.close();
  }
}

describe('handleNotificationClick', () => {
  it('closes the notification and focuses a window already at the URL', async () => {
    const { log, closed } = await showAndClick({ data: { url: '/orders/1' } }, [{ url: 'https://shop.example/' }, { url: 'https://shop.example/orders/1' }]);
    expect(closed).toEqual([true]);
    expect(log).toEqual(['focus https://shop.example/orders/1']);
  });

  it('navigates an open window of the app when its page does not acknowledge', async () => {
    const { log } = await showAndClick({ data: { url: '/orders/2' } }, [{ url: 'https://shop.example/' }], { clickAckTimeoutMs: 20 });
    expect(log).toEqual(['focus https://shop.example/', 'navigate https://shop.example/ -> https://shop.example/orders/2']);
  });

  it('lets an SPA route itself: a click-ack means no navigation', async () => {
    const { log, posted } = await showAndClick({ data: { url: '/orders/3', k: 'v' } }, [{ url: 'https://shop.example/', spa: true }], { clickAckTimeoutMs: 5_000 });
    expect(log).toEqual(['focus https://shop.example/']);
    expect(posted).toEqual([
      {
        url: 'https://shop.example/',
        message: { pushbridge: 1, type: 'click', clickId: expect.any(String), notificationId: 'n1', action: '', url: 'https://shop.example/orders/3', data: { url: '/orders/3', k: 'v' } },
      },
    ]);
  });

  it('ignores acknowledgements of other clicks', async () => {
    const { log } = await showAndClick({ data: { url: '/orders/4' } }, [{ url: 'https://shop.example/', spa: true, ackAs: 'another' }], { clickAckTimeoutMs: 50 });
    expect(log.at(-1)).toBe('navigate https://shop.example/ -> https://shop.example/orders/4');
  });

  it('tells only the window it focused: an SPA in another tab neither hears the click nor stops the navigation', async () => {
    page = listen();
    const windows: FakeWindow[] = [
      { url: 'https://shop.example/b', spa: true },
      { url: 'https://shop.example/a', focused: true },
    ];
    const { log, posted, heard } = await showAndClick({ data: { url: '/orders/13' } }, windows, { clickAckTimeoutMs: 50 });
    expect(log).toEqual(['focus https://shop.example/a', 'navigate https://shop.example/a -> https://shop.example/orders/13']);
    expect(posted.map((p) => `${p.message.type} ${p.url}`)).toEqual(['click https://shop.example/a']);
    expect(heard).toEqual([]);
    // Every tab still hears the clicked event, for its log; none hears the click on the channel.
    await expect.poll(() => page?.messages.flatMap((m) => (m.type === 'event' ? [m.event.type] : []))).toEqual(['delivered', 'clicked']);
    expect(page.messages.filter((m) => m.type === 'click')).toEqual([]);
  });

  it('posts the click only to the window already at the URL, and to no window it opens', async () => {
    const atUrl = await showAndClick({ data: { url: '/orders/14' } }, [{ url: 'https://shop.example/x', spa: true }, { url: 'https://shop.example/orders/14' }]);
    expect(atUrl.posted.map((p) => `${p.message.type} ${p.url}`)).toEqual(['click https://shop.example/orders/14']);
    expect(atUrl.heard).toEqual([]);
    const opened = await showAndClick({ data: { url: '/orders/14' } }, [{ url: 'https://shop.example/x', spa: true }], { clickMode: 'open-new' });
    expect(opened.log).toEqual(['open https://shop.example/orders/14']);
    expect(opened.posted).toEqual([]);
    expect(opened.heard).toEqual([]);
  });

  it('keeps the clicked event inside waitUntil when openWindow() rejects', async () => {
    const worker = fakeWorker();
    let release: (() => void) | undefined;
    const fetchFn = (() => new Promise<Response>((resolve) => (release = () => resolve(new Response(null, { status: 204 }))))) as typeof fetch;
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', title: 'T', body: '' }) as unknown as PushEvent, { scope: worker.scope });
    Object.assign(worker.scope.clients, { openWindow: () => Promise.reject(new TypeError('Not allowed to open a window.')) });
    const shown = worker.shown.at(-1);
    if (!shown) throw new Error('nothing shown');
    const event = clickEvent(shown);
    let settled = false;
    const done = handleNotificationClick(event as unknown as NotificationEvent, { scope: worker.scope, reportUrl: '/api/events', fetch: fetchFn }).then(() => (settled = true));
    await expect.poll(() => release).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release?.();
    await done;
    expect(event.waited).toHaveLength(1);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('sends a click on an action named %s without its own URL to data.url', async (name) => {
    const actions = [{ action: name, title: 'X' }, { action: 'track', title: 'Track', url: '/track/1' }];
    expect((await showAndClick({ data: { url: '/orders/15' }, actions }, [], {}, name)).log).toEqual(['open https://shop.example/orders/15']);
    expect((await showAndClick({ tag: 'own-tag', data: { url: '/orders/15' } }, [], {}, name)).log).toEqual(['open https://shop.example/orders/15']);
  });

  it("ignores an app's own data.__pushbridge: it cannot forge the bookkeeping", async () => {
    const forged = JSON.stringify({ id: 'forged', urls: { '': '/forged' } });
    page = listen();
    const { log } = await showAndClick({ data: { url: '/orders/16', __pushbridge: forged } }, []);
    expect(log).toEqual(['open https://shop.example/orders/16']);
    await expect.poll(() => page?.messages.find((m) => m.type === 'event' && m.event.type === 'clicked')).toMatchObject({ event: { notificationId: 'n1' } });
  });

  it('opens a window when the window it would navigate is not controlled by this worker', async () => {
    const { log } = await showAndClick({ data: { url: '/o/5' } }, [{ url: 'https://shop.example/', controlled: false }], { clickAckTimeoutMs: 10 });
    expect(log).toEqual(['focus https://shop.example/', 'open https://shop.example/o/5']);
  });

  it('prefers the focused window, then a visible one', async () => {
    const windows: FakeWindow[] = [
      { url: 'https://shop.example/a', visibilityState: 'hidden' },
      { url: 'https://shop.example/b', visibilityState: 'visible' },
      { url: 'https://shop.example/c', focused: true },
    ];
    const { log } = await showAndClick({ data: { url: '/z' } }, windows, { clickAckTimeoutMs: 10 });
    expect(log[0]).toBe('focus https://shop.example/c');
  });

  it('opens a window when none of the app is open', async () => {
    const { log } = await showAndClick({ data: { url: '/orders/6' } }, []);
    expect(log).toEqual(['open https://shop.example/orders/6']);
  });

  it('always opens a new window in open-new mode', async () => {
    const { log } = await showAndClick({ data: { url: '/orders/7' } }, [{ url: 'https://shop.example/orders/7' }], { clickMode: 'open-new' });
    expect(log).toEqual(['open https://shop.example/orders/7']);
  });

  it('follows an action button URL, and the body URL for the body', async () => {
    const actions = [{ action: 'track', title: 'Track', url: '/track/8' }, { action: 'later', title: 'Later' }];
    expect((await showAndClick({ data: { url: '/orders/8' }, actions }, [], {}, 'track')).log).toEqual(['open https://shop.example/track/8']);
    expect((await showAndClick({ data: { url: '/orders/8' }, actions }, [], {}, 'later')).log).toEqual(['open https://shop.example/orders/8']);
  });

  it.each(['javascript:alert(1)', 'data:text/html,x', 'https://evil.example/', '//evil.example/x', ' javascript:alert(1)', 'http://shop.example/'])(
    'sends the hostile URL %s to the scope root',
    async (url) => {
      const actions = [{ action: 'go', title: 'Go', url }];
      expect((await showAndClick({ data: { url }, actions }, [])).log).toEqual(['open https://shop.example/']);
      expect((await showAndClick({ data: { url }, actions }, [], {}, 'go')).log).toEqual(['open https://shop.example/']);
    },
  );

  it('leaves notifications shown by other code alone', async () => {
    const worker = fakeWorker();
    const event = clickEvent({ title: 'Chat', options: { tag: 'chat', data: { url: '/chat' } } });
    await handleNotificationClick(event as unknown as NotificationEvent, { scope: worker.scope });
    expect(event.waited).toHaveLength(0);
    expect(event.closed).toEqual([]);
    expect(worker.log).toEqual([]);
  });
});

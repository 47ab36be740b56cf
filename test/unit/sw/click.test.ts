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
  await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', channel: 'push', title: 'T', body: 'B', ...payload }) as unknown as PushEvent, { scope: worker.scope });
  worker.log.length = 0;
  const shown = worker.shown.at(-1);
  if (!shown) throw new Error('nothing shown');
  const event = clickEvent(shown, action);
  const done = handleNotificationClick(event as unknown as NotificationEvent, { ...options, scope: worker.scope });
  expect(event.waited).toHaveLength(1);
  await done;
  return { log: worker.log, closed: event.closed };
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
    page = listen((message, channel) => {
      if (message.type === 'click') channel.postMessage({ pushbridge: 1, type: 'click-ack', clickId: message.clickId });
    });
    const { log } = await showAndClick({ data: { url: '/orders/3', k: 'v' } }, [{ url: 'https://shop.example/' }], { clickAckTimeoutMs: 5_000 });
    expect(log).toEqual(['focus https://shop.example/']);
    const click = page.messages.find((m) => m.type === 'click');
    expect(click).toEqual({ pushbridge: 1, type: 'click', clickId: expect.any(String), notificationId: 'n1', action: '', url: 'https://shop.example/orders/3', data: { url: '/orders/3', k: 'v' } });
  });

  it('ignores acknowledgements of other clicks', async () => {
    page = listen((message, channel) => {
      if (message.type === 'click') channel.postMessage({ pushbridge: 1, type: 'click-ack', clickId: 'another' });
    });
    const { log } = await showAndClick({ data: { url: '/orders/4' } }, [{ url: 'https://shop.example/' }], { clickAckTimeoutMs: 50 });
    expect(log.at(-1)).toBe('navigate https://shop.example/ -> https://shop.example/orders/4');
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

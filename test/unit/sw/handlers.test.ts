import { describe, expect, it } from 'vitest';
import { handleNotificationClick } from '../../../sw/click.ts';
import { installPushHandlers } from '../../../sw/install-push-handlers.ts';
import { handlePush } from '../../../sw/push.ts';

/** A worker scope with a registration and clients, recording what the handlers did. */
function fakeScope(windows: { url: string }[] = []) {
  const log: string[] = [];
  const listeners = new Map<string, EventListener>();
  const scope = {
    registration: {
      scope: 'https://shop.example/',
      async showNotification(title: string, options: NotificationOptions) {
        log.push(`show ${title} ${JSON.stringify(options)}`);
      },
    },
    clients: {
      async matchAll() {
        return windows.map((w) => ({ url: w.url, focus: async () => log.push(`focus ${w.url}`) }));
      },
      async openWindow(url: string) {
        log.push(`open ${url}`);
        return null;
      },
    },
    addEventListener: (type: string, listener: EventListener) => listeners.set(type, listener),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  return { scope: scope as unknown as ServiceWorkerGlobalScope, log, listeners };
}

/** An event whose waitUntil collects the promises, as the browser's would keep the worker alive. */
function fakeEvent<T extends object>(fields: T): T & { waitUntil(p: Promise<unknown>): void; waited: Promise<unknown>[] } {
  const waited: Promise<unknown>[] = [];
  return Object.assign(fields, { waited, waitUntil: (p: Promise<unknown>) => void waited.push(p) });
}

describe('handlePush', () => {
  it('shows the envelope inside waitUntil', async () => {
    const { scope, log } = fakeScope();
    const text = JSON.stringify({ pushbridge: 1, notificationId: 'n', channel: 'push', title: 'Hi', body: 'There', data: { url: '/x' } });
    const event = fakeEvent({ data: { text: () => text } });
    handlePush(event as unknown as PushEvent, { scope });
    expect(event.waited).toHaveLength(1);
    await Promise.all(event.waited);
    expect(log).toEqual(['show Hi {"body":"There","data":{"url":"/x"}}']);
  });

  it('shows the fallback when the data cannot be read', async () => {
    const { scope, log } = fakeScope();
    const event = fakeEvent({
      data: {
        text: () => {
          throw new Error('bad');
        },
      },
    });
    handlePush(event as unknown as PushEvent, { scope, fallbackTitle: 'Shop' });
    await Promise.all(event.waited);
    expect(log).toEqual(['show Shop {"data":{}}']);
  });
});

describe('handleNotificationClick', () => {
  function click(url: unknown) {
    const closed: boolean[] = [];
    return fakeEvent({ action: '', notification: { data: { url }, close: () => closed.push(true) }, closed });
  }

  it('closes the notification and focuses a window already at the URL', async () => {
    const { scope, log } = fakeScope([{ url: 'https://shop.example/' }, { url: 'https://shop.example/orders/1' }]);
    const event = click('/orders/1');
    handleNotificationClick(event as unknown as NotificationEvent, { scope });
    expect(event.closed).toEqual([true]);
    await Promise.all(event.waited);
    expect(log).toEqual(['focus https://shop.example/orders/1']);
  });

  it('opens a window when none is at the URL', async () => {
    const { scope, log } = fakeScope([{ url: 'https://shop.example/' }]);
    const event = click('/orders/2');
    handleNotificationClick(event as unknown as NotificationEvent, { scope });
    await Promise.all(event.waited);
    expect(log).toEqual(['open https://shop.example/orders/2']);
  });

  it('never leaves the origin', async () => {
    const { scope, log } = fakeScope();
    const event = click('https://evil.example/');
    handleNotificationClick(event as unknown as NotificationEvent, { scope });
    await Promise.all(event.waited);
    expect(log).toEqual(['open https://shop.example/']);
  });
});

describe('installPushHandlers', () => {
  it('adds only push and click listeners, and removes them again', () => {
    const { scope, listeners } = fakeScope();
    const uninstall = installPushHandlers(scope);
    expect([...listeners.keys()].sort()).toEqual(['notificationclick', 'push']);
    uninstall();
    expect(listeners.size).toBe(0);
  });
});

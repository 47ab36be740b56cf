import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openPushbridgeDb } from '../../../src/common/database.ts';
import { handlePush } from '../../../sw/push.ts';
import { deleteDatabase, fakeWorker, listen, pushEvent } from './fake-worker.ts';

const envelope = (fields: object = {}) => ({ pushbridge: 1, notificationId: 'n1', channel: 'push', title: 'Hi', body: 'There', data: { url: '/x' }, ...fields });

async function readStore<S extends 'inbox' | 'events'>(store: S) {
  const db = await openPushbridgeDb();
  try {
    return await db.getAll(store);
  } finally {
    db.close();
  }
}

let page: ReturnType<typeof listen>;
beforeEach(async () => {
  await deleteDatabase();
  page = listen();
});
afterEach(() => page.close());

describe('handlePush', () => {
  it('shows the envelope inside waitUntil, then tells the windows, then keeps a delivered event', async () => {
    const { scope, shown } = fakeWorker();
    const event = pushEvent(envelope());
    // A report endpoint that is down, so that the event stays in the outbox.
    const done = handlePush(event as unknown as PushEvent, { scope, reportUrl: '/api/events', fetch: async () => new Response(null, { status: 503 }) });
    expect(event.waited).toHaveLength(1);
    await done;
    expect(shown).toEqual([{ title: 'Hi', options: { body: 'There', data: { url: '/x' }, tag: 'pushbridge:n1' } }]);
    expect(await readStore('events')).toEqual([{ id: 1, type: 'delivered', notificationId: 'n1', at: expect.any(Number) }]);
    await expect.poll(() => page.messages.map((m) => m.type)).toEqual(['notification', 'event']);
    expect(page.messages[0]).toEqual({ pushbridge: 1, type: 'notification', notificationId: 'n1', channel: 'push', title: 'Hi', body: 'There', data: { url: '/x' }, shown: true });
  });

  it.each([
    ['unreadable data', { text: () => { throw new Error('bad'); } }],
    ['no data', null],
  ])('shows the fallback title for %s', async (_, data) => {
    const { scope, shown } = fakeWorker();
    await handlePush({ data, waitUntil: () => undefined } as unknown as PushEvent, { scope, fallbackTitle: 'Shop' });
    expect(shown.map((s) => s.title)).toEqual(['Shop']);
    expect(await readStore('events')).toEqual([]);
  });

  it('shows the message plainly when the browser refuses its options', async () => {
    const { scope, shown } = fakeWorker();
    const actions = [1, 2, 3].map((n) => ({ action: `a${n}`, title: `A${n}` }));
    await handlePush(pushEvent(envelope({ actions })) as unknown as PushEvent, { scope });
    expect(shown).toEqual([{ title: 'Hi', options: { body: 'There', data: { url: '/x' }, tag: 'pushbridge:n1' } }]);
  });

  it('leaves unmarked pushes to other code when asked, and shows them otherwise', async () => {
    const { scope, shown } = fakeWorker();
    const event = pushEvent({ title: 'Theirs', body: 'b' });
    await handlePush(event as unknown as PushEvent, { scope, foreignPushes: 'leave' });
    expect(event.waited).toHaveLength(0);
    expect(shown).toEqual([]);
    await handlePush(pushEvent({ title: 'Theirs', body: 'b' }) as unknown as PushEvent, { scope });
    expect(shown.map((s) => s.title)).toEqual(['Theirs']);
  });

  it('puts an in_app message in the inbox and shows nothing while a window of the app is visible', async () => {
    const { scope, shown } = fakeWorker([{ url: 'https://shop.example/', visibilityState: 'visible' }]);
    await handlePush(pushEvent(envelope({ channel: 'in_app' })) as unknown as PushEvent, { scope });
    expect(shown).toEqual([]);
    const inbox = await readStore('inbox');
    expect(inbox).toEqual([{ notificationId: 'n1', title: 'Hi', body: 'There', data: { url: '/x' }, receivedAt: expect.any(Number), readAt: null }]);
    await expect.poll(() => page.messages.map((m) => m.type).sort()).toEqual(['event', 'inbox', 'notification']);
    expect(page.messages.find((m) => m.type === 'notification')).toMatchObject({ channel: 'in_app', shown: false });
  });

  it('shows an in_app message as a notification when no window of the app is visible', async () => {
    const { scope, shown } = fakeWorker([{ url: 'https://shop.example/', visibilityState: 'hidden' }]);
    await handlePush(pushEvent(envelope({ channel: 'in_app' })) as unknown as PushEvent, { scope });
    expect(shown.map((s) => s.title)).toEqual(['Hi']);
    expect(await readStore('inbox')).toHaveLength(1);
  });

  it('finishes the in_app inbox write inside waitUntil even when nothing can be shown', async () => {
    const { scope } = fakeWorker([]);
    (scope.registration as unknown as { showNotification: () => Promise<void> }).showNotification = () => Promise.reject(new Error('denied'));
    const posted = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    try {
      await handlePush(pushEvent(envelope({ channel: 'in_app' })) as unknown as PushEvent, { scope });
      // The worker posts `inbox` once the write committed: by the time the handler settles, not later.
      expect(posted.mock.calls.map(([message]) => (message as { type: string }).type)).toContain('inbox');
    } finally {
      posted.mockRestore();
    }
    expect((await readStore('inbox')).map((item) => item.notificationId)).toEqual(['n1']);
  });

  it('shows an in_app message when the windows cannot be listed (every push shows something), and keeps it in the inbox', async () => {
    const { scope, shown } = fakeWorker([{ url: 'https://shop.example/', visibilityState: 'visible' }]);
    (scope.clients as unknown as { matchAll: () => Promise<never> }).matchAll = () => Promise.reject(new Error('matchAll failed'));
    await handlePush(pushEvent(envelope({ channel: 'in_app' })) as unknown as PushEvent, { scope });
    expect(shown.map((s) => s.title)).toEqual(['Hi']);
    expect((await readStore('inbox')).map((item) => item.notificationId)).toEqual(['n1']);
  });

  it('never rejects, even when nothing can be shown', async () => {
    const { scope } = fakeWorker();
    (scope.registration as unknown as { showNotification: () => Promise<void> }).showNotification = () => Promise.reject(new Error('denied'));
    const event = pushEvent(envelope());
    await expect(handlePush(event as unknown as PushEvent, { scope })).resolves.toBeUndefined();
    await expect(Promise.all(event.waited)).resolves.toBeDefined();
  });
});

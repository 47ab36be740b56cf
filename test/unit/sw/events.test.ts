import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPushbridgeDb } from '../../../src/common/database.ts';
import { handleNotificationClick } from '../../../sw/click.ts';
import { handleNotificationClose } from '../../../sw/close.ts';
import { flushEvents } from '../../../sw/flush-events.ts';
import { handlePush } from '../../../sw/push.ts';
import { OUTBOX_LIMIT } from '../../../sw/record-event.ts';
import { clickEvent, deleteDatabase, fakeWorker, listen, pushEvent } from './fake-worker.ts';

/** A report endpoint that can be down; records the batches it accepted. */
function fakeReport() {
  const batches: { type: string; notificationId: string | null }[][] = [];
  let up = false;
  const fetchFn = (async (url: string, init: RequestInit) => {
    if (url !== '/api/events' || init.method !== 'POST') throw new Error(`unexpected ${url}`);
    if (!up) return new Response('down', { status: 503 });
    batches.push((JSON.parse(String(init.body)) as { events: { type: string; notificationId: string | null }[] }).events);
    return new Response(null, { status: 204 });
  }) as typeof fetch;
  return { batches, fetchFn, setUp: (value: boolean) => void (up = value) };
}

async function outbox() {
  const db = await openPushbridgeDb();
  try {
    return (await db.getAll('events')).map((e) => `${e.type} ${e.notificationId}${e.action ? ` ${e.action}` : ''}`);
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

describe('events', () => {
  it('keeps delivered, clicked and dismissed in the outbox while reportUrl is down and posts them to the windows', async () => {
    const worker = fakeWorker();
    const options = { scope: worker.scope, reportUrl: '/api/events', fetch: fakeReport().fetchFn, clickAckTimeoutMs: 10 };
    const actions = [{ action: 'track', title: 'Track' }];
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', title: 'A', body: '', actions }) as unknown as PushEvent, options);
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n2', title: 'B', body: '' }) as unknown as PushEvent, options);
    const [first, second] = worker.shown;
    if (!first || !second) throw new Error('not shown');
    await handleNotificationClick(clickEvent(first, 'track') as unknown as NotificationEvent, options);
    await handleNotificationClose(clickEvent(second) as unknown as NotificationEvent, options);
    expect(await outbox()).toEqual(['delivered n1', 'delivered n2', 'clicked n1 track', 'dismissed n2']);
    await expect
      .poll(() => page.messages.flatMap((m) => (m.type === 'event' ? [`${m.event.type} ${m.event.notificationId}`] : [])))
      .toEqual(['delivered n1', 'delivered n2', 'clicked n1', 'dismissed n2']);
  });

  it('without reportUrl, posts events to the windows but stores nothing (nothing would ever empty the outbox)', async () => {
    const worker = fakeWorker();
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', title: 'A', body: '' }) as unknown as PushEvent, { scope: worker.scope });
    const [shown] = worker.shown;
    if (!shown) throw new Error('not shown');
    await handleNotificationClose(clickEvent(shown) as unknown as NotificationEvent, { scope: worker.scope });
    expect(await outbox()).toEqual([]);
    await expect.poll(() => page.messages.flatMap((m) => (m.type === 'event' ? [`${m.event.type} ${m.event.notificationId}`] : []))).toEqual(['delivered n1', 'dismissed n1']);
  });

  it(`keeps at most ${OUTBOX_LIMIT} events while reportUrl is down, dropping the oldest`, async () => {
    const db = await openPushbridgeDb();
    const tx = db.transaction('events', 'readwrite');
    await Promise.all([...Array.from({ length: OUTBOX_LIMIT }, (_, i) => tx.store.add({ type: 'delivered', notificationId: `old${i}`, at: i })), tx.done]);
    db.close();
    const worker = fakeWorker();
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'new', title: 't', body: '' }) as unknown as PushEvent, { scope: worker.scope, reportUrl: '/api/events', fetch: fakeReport().fetchFn });
    const kept = await outbox();
    expect(kept).toHaveLength(OUTBOX_LIMIT);
    expect(kept[0]).toBe('delivered old1');
    expect(kept.at(-1)).toBe('delivered new');
  });

  it('ignores closes of notifications shown by other code', async () => {
    const worker = fakeWorker();
    await handleNotificationClose(clickEvent({ title: 'x', options: { tag: 'theirs' } }) as unknown as NotificationEvent, { scope: worker.scope });
    expect(await outbox()).toEqual([]);
  });

  it('reports to reportUrl, keeps everything while it is down and sends it all once it is back', async () => {
    const worker = fakeWorker();
    const report = fakeReport();
    const options = { scope: worker.scope, reportUrl: '/api/events', fetch: report.fetchFn };
    for (const id of ['n1', 'n2', 'n3']) await handlePush(pushEvent({ pushbridge: 1, notificationId: id, title: id, body: '' }) as unknown as PushEvent, options);
    expect(report.batches).toEqual([]);
    expect(await outbox()).toEqual(['delivered n1', 'delivered n2', 'delivered n3']);
    report.setUp(true);
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n4', title: 'n4', body: '' }) as unknown as PushEvent, options);
    expect(report.batches.flat().map((e) => e.notificationId)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(await outbox()).toEqual([]);
  });

  it('sends large outboxes in batches of 100', async () => {
    const db = await openPushbridgeDb();
    for (let i = 0; i < 250; i++) await db.add('events', { type: 'delivered', notificationId: `n${i}`, at: i });
    db.close();
    const report = fakeReport();
    report.setUp(true);
    await flushEvents({ scope: fakeWorker().scope, reportUrl: '/api/events', fetch: report.fetchFn });
    expect(report.batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(await outbox()).toEqual([]);
  });

  it('survives a report endpoint that cannot be reached', async () => {
    const worker = fakeWorker();
    const fetchFn = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await handlePush(pushEvent({ pushbridge: 1, notificationId: 'n1', title: 't', body: '' }) as unknown as PushEvent, { scope: worker.scope, reportUrl: '/api/events', fetch: fetchFn });
    expect(worker.shown).toHaveLength(1);
    expect(await outbox()).toEqual(['delivered n1']);
  });
});

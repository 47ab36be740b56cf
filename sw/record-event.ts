import { openPushbridgeDb, type OutboxEvent } from '../src/common/database.js';
import { broadcast } from './broadcast.js';
import { flushEvents } from './flush-events.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Most events the outbox keeps while `reportUrl` is unreachable; beyond it the oldest are
 * dropped, so that a report endpoint that stays down cannot fill the origin's storage.
 */
export const OUTBOX_LIMIT = 1000;

/**
 * Keep one delivered / clicked / dismissed event. With `reportUrl`: write it to the IndexedDB
 * outbox first (so a stopped worker loses nothing; at most {@link OUTBOX_LIMIT} events, the oldest
 * dropped first), tell the open windows, then try to report the outbox. Without `reportUrl` nothing
 * would ever empty the outbox, so the event is only posted to the windows.
 *
 * @example
 * ```ts
 * event.waitUntil(recordEvent({ type: 'dismissed', notificationId, at: Date.now() }, options));
 * ```
 */
export async function recordEvent(event: OutboxEvent, options: WorkerOptions): Promise<void> {
  if (!options.reportUrl) {
    broadcast({ pushbridge: 1, type: 'event', event });
    return;
  }
  const db = await openPushbridgeDb();
  try {
    const tx = db.transaction('events', 'readwrite');
    event.id = await tx.store.add(event);
    const excess = (await tx.store.count()) - OUTBOX_LIMIT;
    if (excess > 0) {
      // Keys grow with each add, so the first keys are the oldest events.
      const oldest = await tx.store.getAllKeys(undefined, excess);
      await Promise.all(oldest.map((key) => tx.store.delete(key)));
    }
    await tx.done;
  } finally {
    db.close();
  }
  broadcast({ pushbridge: 1, type: 'event', event });
  await flushEvents(options);
}

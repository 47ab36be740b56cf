import { openPushbridgeDb, type OutboxEvent } from '../src/common/database.js';
import { broadcast } from './broadcast.js';
import { flushEvents } from './flush-events.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Keep one delivered / clicked / dismissed event: write it to the IndexedDB outbox first (so a
 * stopped worker loses nothing), tell the open windows, then try to report the outbox.
 *
 * @example
 * ```ts
 * event.waitUntil(recordEvent({ type: 'dismissed', notificationId, at: Date.now() }, options));
 * ```
 */
export async function recordEvent(event: OutboxEvent, options: WorkerOptions): Promise<void> {
  const db = await openPushbridgeDb();
  try {
    event.id = await db.add('events', event);
  } finally {
    db.close();
  }
  broadcast({ pushbridge: 1, type: 'event', event });
  await flushEvents(options);
}

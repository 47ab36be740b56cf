import { openPushbridgeDb } from '../src/common/database.js';
import { workerScope } from './worker-scope.js';
import type { WorkerOptions } from './worker-options.js';

/** The Background Sync tag under which a failed report is retried. */
export const SYNC_TAG = 'pushbridge-report';

/** Events per request. */
const BATCH = 100;

/**
 * POST the outbox to `options.reportUrl` as `{"events": [...]}` in batches, oldest first, and
 * delete what the server accepted (2xx). A failure keeps the rest for the next try, which comes
 * with the next event or a Background Sync ({@link SYNC_TAG}) where the browser has one. One
 * flush runs at a time per scope (a Web Lock), so no event is sent twice by this device's worker.
 *
 * @example
 * ```ts
 * self.addEventListener('activate', (event) => event.waitUntil(flushEvents({ reportUrl: '/api/push/events' })));
 * ```
 */
export async function flushEvents(options: WorkerOptions): Promise<void> {
  const { reportUrl } = options;
  if (!reportUrl) return;
  const scope = workerScope(options);
  const run = async (): Promise<void> => {
    const db = await openPushbridgeDb();
    try {
      for (;;) {
        const events = await db.getAll('events', undefined, BATCH);
        if (events.length === 0) return;
        const sent = await (options.fetch ?? fetch)(reportUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ events }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        }).then(
          (response) => response.ok,
          () => false,
        );
        if (!sent) {
          // Background Sync is Chromium-only and missing from TypeScript's worker types.
          const { sync } = scope.registration as { sync?: { register(tag: string): Promise<void> } };
          await sync?.register(SYNC_TAG).catch(() => undefined);
          return;
        }
        const tx = db.transaction('events', 'readwrite');
        await Promise.all([...events.map((event) => tx.store.delete(event.id ?? -1)), tx.done]);
      }
    } finally {
      db.close();
    }
  };
  const locks = scope.navigator?.locks;
  await (locks ? locks.request(`pushbridge:report:${scope.registration.scope}`, run) : run());
}

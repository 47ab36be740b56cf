import { openPushbridgeDb, type InboxItem } from '../src/common/database.js';
import { broadcast } from './broadcast.js';
import { keepAlive } from './keep-alive.js';
import { notificationOptions } from './notification-meta.js';
import { parsePush, type ParsedPush } from './payload.js';
import { recordEvent } from './record-event.js';
import { workerScope } from './worker-scope.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Handle one `push` event, all of it inside `event.waitUntil`: show the notification (or, for
 * an `in_app` message while a window of the app is visible, only store it in the inbox), tell
 * the windows, and keep a `delivered` event. A window must not read `getNotifications()` before
 * the `notification` message: in Chromium the read can race the display and lose it.
 *
 * A push without `pushbridge: 1` is left alone when `foreignPushes` is `'leave'`.
 *
 * @example
 * ```ts
 * self.addEventListener('push', (event) => handlePush(event, { fallbackTitle: 'Shop' }));
 * ```
 */
export function handlePush(event: PushEvent, options: WorkerOptions = {}): Promise<void> {
  let payload: string | null = null;
  try {
    payload = event.data ? event.data.text() : null;
  } catch {
    // Unreadable data is shown as the fallback notification.
  }
  const parsed = parsePush(payload, options);
  if (!parsed.marked && options.foreignPushes === 'leave') return Promise.resolve();
  return keepAlive(event, deliver(parsed, options));
}

async function deliver(parsed: ParsedPush, options: WorkerOptions): Promise<void> {
  const scope = workerScope(options);
  const { notificationId, channel, title, body, data } = parsed;
  let shown = true;
  let stored: Promise<void> | undefined;
  try {
    if (channel === 'in_app') {
      const item: InboxItem = { notificationId: notificationId ?? crypto.randomUUID(), title, body, data, receivedAt: Date.now(), readAt: null };
      stored = storeInboxItem(item);
      // Awaited below or in `finally`; this only keeps an early failure from being reported as unhandled.
      stored.catch(() => undefined);
      // When the windows cannot be listed, show it: every push must show something.
      const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).catch(() => []);
      shown = !windows.some((client) => client.visibilityState === 'visible');
    }
    if (shown) await show(scope.registration, parsed);
    broadcast({ pushbridge: 1, type: 'notification', notificationId, channel, title, body, data, shown });
    await Promise.all([stored, notificationId === null ? undefined : recordEvent({ type: 'delivered', notificationId, at: Date.now() }, options)]);
  } finally {
    // If showing failed, the inbox write still finishes inside waitUntil.
    await Promise.allSettled([stored]);
  }
}

async function storeInboxItem(item: InboxItem): Promise<void> {
  const db = await openPushbridgeDb();
  try {
    await db.put('inbox', item, item.notificationId);
  } finally {
    db.close();
  }
  broadcast({ pushbridge: 1, type: 'inbox', item });
}

async function show(registration: ServiceWorkerRegistration, parsed: ParsedPush): Promise<void> {
  const options = notificationOptions(parsed);
  try {
    await registration.showNotification(parsed.title, options);
  } catch {
    // Options the browser refuses (too many actions, a bad icon URL in some browsers, ...) must
    // not cost the user the message: show it plainly.
    await registration.showNotification(parsed.title, { body: parsed.body, data: options.data, ...(options.tag ? { tag: options.tag } : {}) });
  }
}

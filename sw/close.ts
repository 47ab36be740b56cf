import { keepAlive } from './keep-alive.js';
import { readNotification } from './notification-meta.js';
import { recordEvent } from './record-event.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Keep a `dismissed` event when the user closes one of pushbridge's notifications without
 * clicking it (others are left to their own code), inside `waitUntil`.
 *
 * @example
 * ```ts
 * self.addEventListener('notificationclose', (event) => handleNotificationClose(event, { reportUrl: '/api/push/events' }));
 * ```
 */
export function handleNotificationClose(event: NotificationEvent, options: WorkerOptions = {}): Promise<void> {
  const meta = readNotification(event.notification);
  if (!meta) return Promise.resolve();
  return keepAlive(event, recordEvent({ type: 'dismissed', notificationId: meta.notificationId, at: Date.now() }, options));
}

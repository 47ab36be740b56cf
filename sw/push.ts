import { broadcast } from './broadcast.js';
import { parsePush, type PayloadOptions } from './payload.js';
import { workerScope, type ScopeOption } from './worker-scope.js';

/** Options of {@link handlePush}. */
export interface PushHandlerOptions extends PayloadOptions, ScopeOption {}

/**
 * Show the notification for one `push` event, inside `event.waitUntil`, then tell the app's
 * windows that it is shown (a window must not read `getNotifications()` before that: in
 * Chromium the read can race the display and lose the notification).
 *
 * @example
 * ```ts
 * self.addEventListener('push', (event) => handlePush(event, { fallbackTitle: 'Shop' }));
 * ```
 */
export function handlePush(event: PushEvent, options: PushHandlerOptions = {}): void {
  let text: string | null = null;
  try {
    text = event.data ? event.data.text() : null;
  } catch {
    // Unreadable data is shown as the fallback notification below.
  }
  const parsed = parsePush(text, options);
  const { registration } = workerScope(options);
  const data = (parsed.options.data ?? {}) as Record<string, string>;
  event.waitUntil(
    registration.showNotification(parsed.title, parsed.options).then(() => {
      broadcast({
        pushbridge: 1,
        type: 'notification',
        notificationId: parsed.envelope?.notificationId ?? null,
        channel: parsed.envelope?.channel ?? 'push',
        title: parsed.title,
        body: parsed.options.body ?? '',
        data,
      });
    }),
  );
}

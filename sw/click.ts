import type { PushbridgeMessage } from '../src/common/messages.js';
import { keepAlive } from './keep-alive.js';
import { readNotification, type NotificationMeta } from './notification-meta.js';
import { recordEvent } from './record-event.js';
import { resolveClickUrl } from './resolve-click-url.js';
import { waitForClickAck } from './wait-for-click-ack.js';
import { workerScope } from './worker-scope.js';
import type { WorkerOptions } from './worker-options.js';

/** The `click` message, as posted to the one window that handles it. */
type ClickMessage = Extract<PushbridgeMessage, { type: 'click' }>;

/**
 * Route a `notificationclick` on one of pushbridge's notifications (others are left to their own
 * code): close it, keep a `clicked` event, and bring a window to the action button's URL or
 * `data.url`, resolved against the worker's scope and kept only when it is an http(s) URL of the
 * worker's origin (else the scope root). In `focus-or-open` mode (the default) a window already at
 * the URL is focused; else an open window of the app is focused and told (`click`), and navigated
 * unless its page answers `click-ack` (an SPA that routed itself); else a window is opened.
 *
 * The `click` message goes to the chosen window only (`client.postMessage`, which pages hear on
 * `navigator.serviceWorker`), never to every tab: another tab that routed it would leave the
 * focused one where it was. Only an ack of that click's id counts, and only that window was told
 * the id. A window opened for the click is already at the URL and gets no `click`: its page may
 * not listen yet, and there is nothing left to route. Every tab still hears the `clicked` event.
 * All of it runs inside `waitUntil`, which is also what lets the browser allow `focus()` and
 * `openWindow()`.
 *
 * @example
 * ```ts
 * self.addEventListener('notificationclick', (event) => handleNotificationClick(event, { clickMode: 'open-new' }));
 * ```
 */
export function handleNotificationClick(event: NotificationEvent, options: WorkerOptions = {}): Promise<void> {
  const meta = readNotification(event.notification);
  if (!meta) return Promise.resolve();
  event.notification.close();
  return keepAlive(event, route(meta, event.action, options));
}

async function route(meta: NotificationMeta, action: string, options: WorkerOptions): Promise<void> {
  const { clients, registration } = workerScope(options);
  const actionUrl = Object.hasOwn(meta.actionUrls, action) ? meta.actionUrls[action] : undefined;
  const url = resolveClickUrl(actionUrl ?? meta.data.url, registration.scope);
  const click: ClickMessage = {
    pushbridge: 1,
    type: 'click',
    clickId: crypto.randomUUID(),
    notificationId: meta.notificationId,
    action,
    url,
    data: meta.data,
  };
  const recorded = recordEvent({ type: 'clicked', notificationId: meta.notificationId, action, at: Date.now() }, options);
  // Awaited in `finally`; this only keeps an early failure from being reported as unhandled meanwhile.
  recorded.catch(() => undefined);
  try {
    await bringWindow(clients, registration.scope, click, options);
  } finally {
    // Even when focus(), navigate() or openWindow() reject, the event is kept inside waitUntil.
    await recorded;
  }
}

async function bringWindow(clients: Clients, scope: string, click: ClickMessage, options: WorkerOptions): Promise<void> {
  const { url } = click;
  if (options.clickMode !== 'open-new') {
    const windows = await appWindows(clients);
    const atUrl = windows.find((client) => client.url === url);
    const other = windows.find((client) => client.url.startsWith(scope));
    if (atUrl) {
      await atUrl.focus();
      atUrl.postMessage(click);
      return;
    }
    if (other) {
      await other.focus();
      const acked = waitForClickAck(click.clickId, options.clickAckTimeoutMs ?? 1000);
      other.postMessage(click);
      if (await acked) return;
      // navigate() refuses a window this worker does not control (loaded before it activated).
      if (await other.navigate(url).catch(() => null)) return;
    }
  }
  await clients.openWindow(url);
}

/** The origin's windows, the focused one first, then visible ones. */
async function appWindows(clients: Clients): Promise<WindowClient[]> {
  const all = (await clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[];
  const rank = (client: WindowClient): number => (client.focused ? 0 : client.visibilityState === 'visible' ? 1 : 2);
  return all.sort((a, b) => rank(a) - rank(b));
}

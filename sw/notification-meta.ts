import { META_KEY } from './meta-key.js';
import type { ParsedPush } from './payload.js';

/** What pushbridge keeps on a notification it showed, read back at click and close time. */
export interface NotificationMeta {
  notificationId: string | null;
  /** The payload's `data`, as the app sent it. */
  data: Record<string, string>;
  /** URL of each action button that has one, by action key; read with `Object.hasOwn`. */
  actionUrls: Record<string, string>;
}

/** Marks our notifications (and carries the notificationId) when the payload gives no tag. */
const TAG_PREFIX = 'pushbridge:';

/**
 * The options to show a parsed push with. The app's `data` stays as it was sent (pages read it
 * with `getNotifications()`); pushbridge's own bookkeeping goes into the tag
 * `pushbridge:<notificationId>` (which also makes a message delivered twice show once), or, when
 * the payload has its own tag, no id or action URLs, into one extra `data` key.
 *
 * @example
 * ```ts
 * await registration.showNotification(parsed.title, notificationOptions(parsed));
 * ```
 */
export function notificationOptions(parsed: ParsedPush): NotificationOptions {
  const actionUrls: Record<string, string> = {};
  for (const action of parsed.actions) if (action.url) actionUrls[action.action] = action.url;
  const options: NotificationOptions & Record<string, unknown> = { ...parsed.display, body: parsed.body, data: { ...parsed.data } };
  if (options.tag === undefined && parsed.notificationId !== null) options.tag = TAG_PREFIX + parsed.notificationId;
  if (options.tag !== TAG_PREFIX + parsed.notificationId || Object.keys(actionUrls).length > 0) {
    options.data[META_KEY] = JSON.stringify({ id: parsed.notificationId, urls: actionUrls });
  }
  if (parsed.actions.length > 0) options.actions = parsed.actions.map(({ action, title }) => ({ action, title }));
  // Chromium throws on `renotify` without a tag.
  if (options.tag === undefined) delete options.renotify;
  return options;
}

/**
 * Read pushbridge's bookkeeping back from a notification; null when another part of the worker
 * showed it, so that its clicks and closes are left to that code.
 *
 * @example
 * ```ts
 * const meta = readNotification(event.notification);
 * if (!meta) return; // not ours
 * ```
 */
export function readNotification(notification: Notification): NotificationMeta | null {
  const raw: unknown = notification.data;
  const data: Record<string, string> = {};
  let metaText: unknown;
  if (typeof raw === 'object' && raw !== null) {
    for (const [key, value] of Object.entries(raw)) {
      if (key === META_KEY) metaText = value;
      else if (typeof value === 'string') data[key] = value;
    }
  }
  if (typeof metaText === 'string') {
    try {
      const meta = JSON.parse(metaText) as { id?: unknown; urls?: unknown };
      // Own string values only, on an object without a prototype: an action named `constructor`
      // or `toString` must find nothing rather than Object.prototype's functions.
      const urls: Record<string, string> = Object.create(null) as Record<string, string>;
      if (typeof meta.urls === 'object' && meta.urls !== null) {
        for (const [action, url] of Object.entries(meta.urls)) if (typeof url === 'string') urls[action] = url;
      }
      return { notificationId: typeof meta.id === 'string' ? meta.id : null, data, actionUrls: urls };
    } catch {
      return null;
    }
  }
  const tag = notification.tag ?? '';
  return tag.startsWith(TAG_PREFIX) ? { notificationId: tag.slice(TAG_PREFIX.length), data, actionUrls: Object.create(null) as Record<string, string> } : null;
}

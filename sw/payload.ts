import { META_KEY } from './meta-key.js';
import type { NotificationDefaults } from './worker-options.js';

/** A button of a notification, with the URL a click on it goes to (resolved at click time). */
export interface ParsedAction {
  action: string;
  title: string;
  url?: string;
}

/** What the worker will display for one push. */
export interface ParsedPush {
  /** True when the payload carries `pushbridge: 1`. */
  marked: boolean;
  notificationId: string | null;
  channel: 'push' | 'in_app';
  title: string;
  body: string;
  /**
   * The payload's `data`, string values only, without the reserved `__pushbridge` key (where the
   * worker keeps its own bookkeeping); a flat shape's `url` / `click_action` lands in `url`.
   */
  data: Record<string, string>;
  /** Display options other than body, data and actions. */
  display: NotificationOptions;
  actions: ParsedAction[];
}

/** Options of {@link parsePush}. */
export interface PayloadOptions {
  /** Title shown when a payload cannot be read. Default `'New notification'`. */
  fallbackTitle?: string;
  /** Body shown when a payload cannot be read. */
  fallbackBody?: string;
  /** Display options for payloads that do not set them. */
  defaults?: NotificationDefaults;
}

/** A push payload is at most 4 KiB on the wire; anything longer did not come from a push service. */
const MAX_TEXT = 4096;
const STRING_KEYS = ['icon', 'badge', 'image', 'tag'] as const;
const FLAG_KEYS = ['renotify', 'requireInteraction', 'silent'] as const;

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Turn a push message's text into what to display. Reads the envelope of `decisions.md` and
 * tolerates flat FCM-like shapes (`{title, body, url}`, `{notification: {...}, data: {...}}`).
 * Never throws: an empty, non-JSON, oversized or wrongly typed payload gives the fallback title,
 * and a wrongly typed field is dropped on its own, because every push must show something.
 *
 * @example
 * ```ts
 * const parsed = parsePush(event.data?.text() ?? null, { fallbackTitle: 'New message' });
 * await registration.showNotification(parsed.title, { ...parsed.display, body: parsed.body });
 * ```
 */
export function parsePush(payload: string | null, options: PayloadOptions = {}): ParsedPush {
  let value: unknown = null;
  try {
    if (payload && payload.length <= MAX_TEXT) value = JSON.parse(payload);
  } catch {
    // Not JSON: shown as the fallback below.
  }
  const root: Fields = isFields(value) ? value : {};
  // FCM's legacy shape keeps display fields under `notification`.
  const fields: Fields = isFields(root.notification) ? { ...root, ...root.notification } : root;
  const data: Record<string, string> = {};
  if (isFields(fields.data)) {
    for (const [key, item] of Object.entries(fields.data)) if (typeof item === 'string' && key !== META_KEY) data[key] = item;
  }
  const flatUrl = text(fields.url) ?? text(fields.click_action);
  if (data.url === undefined && flatUrl !== undefined) data.url = flatUrl;

  const title = text(fields.title);
  const display: Fields = { ...options.defaults };
  for (const key of STRING_KEYS) if (text(fields[key])) display[key] = fields[key];
  for (const key of FLAG_KEYS) if (typeof fields[key] === 'boolean') display[key] = fields[key];
  const actions: ParsedAction[] = [];
  if (Array.isArray(fields.actions)) {
    for (const item of fields.actions as unknown[]) {
      if (!isFields(item) || !text(item.action) || !text(item.title)) continue;
      const url = text(item.url);
      actions.push({ action: item.action as string, title: item.title as string, ...(url ? { url } : {}) });
    }
  }
  return {
    marked: root.pushbridge === 1,
    notificationId: text(fields.notificationId) ?? null,
    channel: fields.channel === 'in_app' ? 'in_app' : 'push',
    title: title ?? options.fallbackTitle ?? 'New notification',
    body: typeof fields.body === 'string' ? fields.body : title ? '' : (options.fallbackBody ?? ''),
    data,
    display: display as NotificationOptions,
    actions,
  };
}

import type { PushEnvelope } from '../src/common/envelope.js';

/** What the worker will display for one push. */
export interface ParsedPush {
  title: string;
  options: NotificationOptions;
  /** The envelope, when the payload was one of ours; null for a fallback. */
  envelope: PushEnvelope | null;
}

/** Options of {@link parsePush}. */
export interface PayloadOptions {
  /** Title shown when a payload cannot be read. */
  fallbackTitle?: string;
  /** Body shown when a payload cannot be read. */
  fallbackBody?: string;
}

const DISPLAY_KEYS = ['icon', 'badge', 'image', 'tag'] as const;
const FLAG_KEYS = ['renotify', 'requireInteraction', 'silent'] as const;

/**
 * Turn a push message's text into a title and notification options. Never throws: an empty,
 * non-JSON or wrongly typed payload gives the fallback title, because every push must show
 * something.
 *
 * @example
 * ```ts
 * const { title, options } = parsePush(event.data?.text() ?? null, { fallbackTitle: 'New message' });
 * ```
 */
export function parsePush(text: string | null, options: PayloadOptions = {}): ParsedPush {
  const fallback: ParsedPush = {
    title: options.fallbackTitle ?? 'New notification',
    options: options.fallbackBody === undefined ? { data: {} } : { body: options.fallbackBody, data: {} },
    envelope: null,
  };
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    return fallback;
  }
  if (!isEnvelope(value)) return fallback;
  const display: NotificationOptions & Record<string, unknown> = { body: value.body, data: stringRecord(value.data) };
  for (const key of DISPLAY_KEYS) if (typeof value[key] === 'string') display[key] = value[key];
  for (const key of FLAG_KEYS) if (typeof value[key] === 'boolean') display[key] = value[key];
  return { title: value.title, options: display, envelope: value };
}

function isEnvelope(value: unknown): value is PushEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.pushbridge === 1 && typeof v.title === 'string' && typeof v.body === 'string';
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}

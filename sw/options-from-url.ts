import type { InstallOptions } from './install-push-handlers.js';

/**
 * The ready-made worker's options, read from its script URL's query, because a registered
 * script has no other way to be configured:
 * `register('/pushbridge-sw.js?fallbackTitle=Shop&icon=/icon.png&reportUrl=/api/push/events&clickMode=open-new')`.
 * Also reads `fallbackBody`, `badge`, `foreignPushes=leave` and `clickAckTimeoutMs`. Under
 * `importScripts`, the query of the importing worker's URL is read.
 *
 * @example
 * ```ts
 * installPushHandlers(self, optionsFromUrl(self.location.href));
 * ```
 */
export function optionsFromUrl(href: string): InstallOptions {
  const query = new URL(href).searchParams;
  const options: InstallOptions & Record<string, unknown> = {};
  for (const key of ['fallbackTitle', 'fallbackBody', 'reportUrl'] as const) {
    const value = query.get(key);
    if (value) options[key] = value;
  }
  const icon = query.get('icon');
  const badge = query.get('badge');
  if (icon || badge) options.defaults = { ...(icon ? { icon } : {}), ...(badge ? { badge } : {}) };
  if (query.get('clickMode') === 'open-new') options.clickMode = 'open-new';
  if (query.get('foreignPushes') === 'leave') options.foreignPushes = 'leave';
  const ack = Number(query.get('clickAckTimeoutMs'));
  if (ack > 0) options.clickAckTimeoutMs = ack;
  return options;
}

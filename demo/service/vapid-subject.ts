/**
 * Whether a VAPID subject (RFC 8292 `sub`) is one that web-push signs and push services accept:
 * a `mailto:` address or an `https:` URL with a host. web-push checks this only when it signs,
 * which is in the middle of a delivery; the service checks it at startup instead.
 *
 * @example
 * ```ts
 * isVapidSubject('mailto:dev@example.com'); // true
 * isVapidSubject('https:'); // false
 * ```
 */
export function isVapidSubject(subject: unknown): subject is string {
  if (typeof subject !== 'string') return false;
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    return false;
  }
  if (url.protocol === 'mailto:') return /^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(url.pathname));
  return url.protocol === 'https:' && url.hostname.length > 0;
}

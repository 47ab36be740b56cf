/**
 * Resolve a notification's `data.url` against the worker's scope and keep it only if it is an
 * http(s) URL on the worker's own origin; anything else (`javascript:`, `data:`, another origin,
 * `//evil.example`) gives the scope root instead.
 *
 * @example
 * ```ts
 * resolveClickUrl('/orders/42', 'https://shop.example/'); // 'https://shop.example/orders/42'
 * resolveClickUrl('https://evil.example/', 'https://shop.example/'); // 'https://shop.example/'
 * ```
 */
export function resolveClickUrl(path: unknown, scopeUrl: string): string {
  const scope = new URL(scopeUrl);
  if (typeof path !== 'string' || path.length === 0) return scope.href;
  let target: URL;
  try {
    target = new URL(path, scope);
  } catch {
    return scope.href;
  }
  const web = target.protocol === 'https:' || target.protocol === 'http:';
  return web && target.origin === scope.origin ? target.href : scope.href;
}

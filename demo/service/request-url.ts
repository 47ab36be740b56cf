/**
 * Read a request's target as a URL on this service, or null when it is none. Origin-form
 * targets (`/path?query`) are appended to a fixed origin rather than resolved against it: a
 * target such as `//host/v1/send` would otherwise be read as another host's `/v1/send`, and
 * `//` or `//a:b@` make the URL parser throw.
 *
 * @example
 * ```ts
 * const url = requestUrl(request.url ?? '/');
 * if (!url) throw new HttpError(404, 'not_found', 'No such route.');
 * ```
 */
export function requestUrl(target: string): URL | null {
  try {
    return new URL(target.startsWith('/') ? `http://local${target}` : target, 'http://local/');
  } catch {
    return null;
  }
}

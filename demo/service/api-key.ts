import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` equals one of `keys`, compared in constant time (hashes first, so that the
 * comparison takes as long whatever the lengths).
 */
export function matchesKey(given: unknown, keys: readonly string[]): boolean {
  if (typeof given !== 'string') return false;
  const digest = createHash('sha256').update(given).digest();
  let found = false;
  for (const key of keys) {
    if (timingSafeEqual(digest, createHash('sha256').update(key).digest())) found = true;
  }
  return found;
}

import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The entry of `entries` whose key equals `given`, compared in constant time: hashes first, so
 * that the comparison takes as long whatever the lengths, and every entry is compared.
 */
export function findByKey<T>(given: unknown, entries: readonly T[], keyOf: (entry: T) => string): T | undefined {
  if (typeof given !== 'string' || given.length === 0) return undefined;
  const wanted = digest(given);
  let found: T | undefined;
  for (const entry of entries) {
    if (timingSafeEqual(wanted, digest(keyOf(entry))) && found === undefined) found = entry;
  }
  return found;
}

/** Whether `given` equals one of `keys`, compared in constant time. */
export function matchesKey(given: unknown, keys: readonly string[]): boolean {
  return findByKey(given, keys, (key) => key) !== undefined;
}

/** A stable, non-reversible name of a key, for database rows and limiter buckets. */
export function keyFingerprint(key: string): string {
  return digest(`pushbridge-key:${key}`).toString('hex').slice(0, 32);
}

import type { ServiceDatabase } from './database.ts';

/** Small named values the service keeps across restarts (VAPID keys, generated dev keys). */
export interface SettingsStore {
  get(name: string): string | undefined;
  /** The stored value, or `create()`'s, stored first; a second caller gets the first value. */
  getOrCreate(name: string, create: () => string): string;
}

/** The settings table of the service database. */
export function createSettingsStore(database: ServiceDatabase): SettingsStore {
  const select = database.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const insert = database.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)');
  const get = (name: string): string | undefined => select.get(name)?.value;
  return {
    get,
    getOrCreate(name, create) {
      const existing = get(name);
      if (existing !== undefined) return existing;
      insert.run(name, create());
      return get(name) as string;
    },
  };
}

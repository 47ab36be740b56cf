import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** Name of the IndexedDB database shared by the page package and the worker module. */
export const DATABASE_NAME = 'pushbridge';

/**
 * What the last successful (or attempted) hand-off left behind, so a later page load or the
 * worker can tell whether the subscription the browser holds is the one the backend knows.
 */
export interface RegistrationRecord {
  /** endpoint, p256dh, auth, application server key and recipientId, joined; see `fingerprint`. */
  fingerprint: string;
  endpoint: string;
  recipientId: string;
  subscriberId: string | null;
  deviceId: string | null;
  /** Epoch milliseconds of the backend's confirmation; null while pending. */
  registeredAt: number | null;
  pending: boolean;
  lastError: string | null;
}

/** The shared database's schema, version 1. */
export interface PushbridgeSchema extends DBSchema {
  config: { key: string; value: unknown };
  registration: { key: string; value: RegistrationRecord };
  inbox: { key: string; value: { notificationId: string; receivedAt: number; readAt: number | null } };
  events: { key: number; value: { type: string; at: number; notificationId: string | null } };
}

/**
 * Open the shared database, creating its stores on first use. Works in pages and workers.
 *
 * @example
 * ```ts
 * const db = await openPushbridgeDb();
 * const current = await db.get('registration', scope);
 * ```
 */
export function openPushbridgeDb(): Promise<IDBPDatabase<PushbridgeSchema>> {
  return openDB<PushbridgeSchema>(DATABASE_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('config');
      db.createObjectStore('registration');
      db.createObjectStore('inbox');
      db.createObjectStore('events', { autoIncrement: true });
    },
  });
}

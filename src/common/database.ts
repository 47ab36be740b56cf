import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** Name of the IndexedDB database shared by the page package and the worker module. */
export const DATABASE_NAME = 'pushbridge';

/**
 * How a subscription reaches the service's register call, as stored for the worker to replay:
 * - `url`: POST to the app's backend (non-secret headers only);
 * - `direct`: POST to `{pushBaseUrl}/v1/subscribers/register` with a client-safe key (`pk_...`);
 * - `callback`: the app's own function, which only a window can run: the worker asks a window.
 */
export type HandoffConfig =
  | { kind: 'url'; url: string; headers: Record<string, string>; credentials: RequestCredentials }
  | { kind: 'direct'; pushBaseUrl: string; clientKey: string }
  | { kind: 'callback' };

/** What a page stored so that the worker can act alone (after `pushsubscriptionchange`). Keyed by scope. */
export interface ClientConfig {
  vapidPublicKey: string;
  recipientId: string;
  metadata: Record<string, string | number | boolean>;
  handoff: HandoffConfig;
  /** What the page made this from (its options, serialized), to tell when it is stale. */
  source?: string;
}

/**
 * What the last hand-off left behind, so that a later page load or the worker can tell whether
 * the subscription the browser holds is the one the backend knows. Keyed by scope.
 */
export interface RegistrationRecord {
  /** See `fingerprint()`. */
  fingerprint: string;
  endpoint: string;
  recipientId: string;
  subscriberId: string | null;
  deviceId: string | null;
  /** Epoch milliseconds of the backend's confirmation; null while pending. */
  registeredAt: number | null;
  pending: boolean;
  /** The PushError code (or text) of the last failed hand-off. */
  lastError: string | null;
}

/** An in-app notification, kept by the worker. Keyed by notificationId. */
export interface InboxItem {
  notificationId: string;
  title: string;
  body: string;
  data: Record<string, string>;
  /** Epoch milliseconds. */
  receivedAt: number;
  readAt: number | null;
}

/** A delivered / clicked / dismissed event waiting to be reported. */
export interface OutboxEvent {
  /** Assigned by the store. */
  id?: number;
  type: 'delivered' | 'clicked' | 'dismissed';
  notificationId: string | null;
  /** The action button's key for `clicked`, '' for the body. */
  action?: string;
  /** Epoch milliseconds. */
  at: number;
}

/** A device the app's `onUnregister` hook has yet to hear of (it failed); keyed by endpoint. */
export interface PendingUnregister {
  scope: string;
  record: RegistrationRecord;
  reason: string;
}

/** The shared database's schema, version 2. */
export interface PushbridgeSchema extends DBSchema {
  config: { key: string; value: ClientConfig };
  registration: { key: string; value: RegistrationRecord };
  unregister: { key: string; value: PendingUnregister };
  inbox: { key: string; value: InboxItem; indexes: { 'by-received': number } };
  events: { key: number; value: OutboxEvent };
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
  return openDB<PushbridgeSchema>(DATABASE_NAME, 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('config');
        db.createObjectStore('registration');
        db.createObjectStore('inbox').createIndex('by-received', 'receivedAt');
        db.createObjectStore('events', { keyPath: 'id', autoIncrement: true });
      }
      if (oldVersion < 2) db.createObjectStore('unregister');
    },
  });
}

import type { IDBPDatabase } from 'idb';
import { openPushbridgeDb, type ClientConfig, type PendingUnregister, type PushbridgeSchema, type RegistrationRecord } from './common/database.js';

/** The client's records in the shared IndexedDB, for one scope. */
export interface RegistrationStore {
  /** The registration record, as the last hand-off left it. */
  read(): Promise<RegistrationRecord | undefined>;
  write(record: RegistrationRecord): Promise<void>;
  delete(): Promise<void>;
  /** What the worker would replay after `pushsubscriptionchange`, as stored. */
  readConfig(): Promise<ClientConfig | undefined>;
  /** Store what the worker needs to re-register alone after `pushsubscriptionchange`. */
  writeConfig(config: ClientConfig): Promise<void>;
  /** Keep a device whose `onUnregister` call failed, to try again later. */
  queueUnregister(record: RegistrationRecord, reason: string): Promise<void>;
  /** The devices still waiting for `onUnregister`, of this scope. */
  pendingUnregisters(): Promise<PendingUnregister[]>;
  /** `onUnregister` succeeded for this endpoint at last. */
  dropUnregister(endpoint: string): Promise<void>;
  /** Close the connection (a later call opens a new one). */
  close(): void;
}

/**
 * The records of one scope. The connection is opened on first use and kept, because `sync()`
 * runs on every page load and an open costs more than the reads; it is let go when another
 * version of the database wants to open, and on `close()`.
 *
 * @example
 * ```ts
 * const store = createRegistrationStore(scope);
 * const record = await store.read();
 * ```
 */
export function createRegistrationStore(scope: string): RegistrationStore {
  let connection: Promise<IDBPDatabase<PushbridgeSchema>> | null = null;

  function db(): Promise<IDBPDatabase<PushbridgeSchema>> {
    connection ??= openPushbridgeDb().then((opened) => {
      opened.addEventListener('versionchange', () => {
        opened.close();
        connection = null;
      });
      opened.addEventListener('close', () => {
        connection = null;
      });
      return opened;
    });
    return connection;
  }

  return {
    read: async () => (await db()).get('registration', scope),
    async write(record) {
      await (await db()).put('registration', record, scope);
    },
    delete: async () => (await db()).delete('registration', scope),
    readConfig: async () => (await db()).get('config', scope),
    async writeConfig(config) {
      await (await db()).put('config', config, scope);
    },
    async queueUnregister(record, reason) {
      await (await db()).put('unregister', { scope, record, reason }, record.endpoint);
    },
    pendingUnregisters: async () => (await (await db()).getAll('unregister')).filter((item) => item.scope === scope),
    dropUnregister: async (endpoint) => (await db()).delete('unregister', endpoint),
    close() {
      void connection?.then((opened) => opened.close());
      connection = null;
    },
  };
}

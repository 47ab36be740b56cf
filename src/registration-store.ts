import { openPushbridgeDb, type ClientConfig, type RegistrationRecord } from './common/database.js';

type Db = Awaited<ReturnType<typeof openPushbridgeDb>>;

async function inDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const db = await openPushbridgeDb();
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

/**
 * The registration record of a scope, as the last hand-off left it.
 *
 * @example
 * ```ts
 * const record = await readRecord('https://shop.example/');
 * ```
 */
export function readRecord(scope: string): Promise<RegistrationRecord | undefined> {
  return inDb((db) => db.get('registration', scope));
}

/**
 * Store the registration record of a scope.
 *
 * @example
 * ```ts
 * await writeRecord(scope, { ...record, pending: false, registeredAt: Date.now() });
 * ```
 */
export async function writeRecord(scope: string, record: RegistrationRecord): Promise<void> {
  await inDb((db) => db.put('registration', record, scope));
}

/**
 * Forget the registration record of a scope.
 *
 * @example
 * ```ts
 * await deleteRecord(scope);
 * ```
 */
export function deleteRecord(scope: string): Promise<void> {
  return inDb((db) => db.delete('registration', scope));
}

/**
 * Store what the worker needs to re-register alone after `pushsubscriptionchange`.
 *
 * @example
 * ```ts
 * await writeConfig(scope, { vapidPublicKey, recipientId, metadata: {}, handoff: { kind: 'callback' } });
 * ```
 */
export async function writeConfig(scope: string, config: ClientConfig): Promise<void> {
  await inDb((db) => db.put('config', config, scope));
}

import { randomUUID } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { ServiceDatabase } from './database.ts';

/** A registered browser: where to push and the keys to encrypt with. */
export interface Device {
  deviceId: string;
  subscriberId: string;
  workspace: string;
  recipientId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  metadata: Record<string, string | number | boolean>;
  createdAt: string;
  updatedAt: string;
}

/** What registering a device asks for. */
export interface RegisterDeviceInput {
  workspace: string;
  recipientId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  metadata: Record<string, string | number | boolean>;
}

/** What registering a device did. */
export type RegisterOutcome =
  | { kind: 'created' | 'updated'; subscriberId: string; deviceId: string }
  | { kind: 'conflict' };

/** Subscribers (one per recipientId per workspace) and their devices, in the service database. */
export interface DeviceStore {
  /** Register or update the device of `endpoint` for `recipientId`; a conflict when another recipient holds it. */
  register(input: RegisterDeviceInput): RegisterOutcome;
  /** The devices of a recipient, oldest first; every workspace's when `workspace` is omitted. */
  devicesOf(recipientId: string, workspace?: string): Device[];
  /** The device with this id, if still registered. */
  device(deviceId: string): Device | undefined;
  /** Whether the recipient has registered in the workspace (a subscriber outlives its devices). */
  hasRecipient(recipientId: string, workspace?: string): boolean;
  /** Forget a device (its push service answered 404 or 410). */
  remove(deviceId: string): void;
}

interface DeviceRow {
  device_id: string;
  subscriber_id: string;
  workspace: string;
  recipient_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  metadata: string;
  created_at: number;
  updated_at: number;
}

function toDevice(row: DeviceRow): Device {
  return {
    deviceId: row.device_id,
    subscriberId: row.subscriber_id,
    workspace: row.workspace,
    recipientId: row.recipient_id,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    metadata: JSON.parse(row.metadata) as Device['metadata'],
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The device store over the service database. Every change is committed before it returns. */
export function createDeviceStore(database: ServiceDatabase, clock: Clock): DeviceStore {
  const byEndpoint = database.prepare<[string, string], DeviceRow>('SELECT * FROM devices WHERE workspace = ? AND endpoint = ?');
  const byId = database.prepare<[string], DeviceRow>('SELECT * FROM devices WHERE device_id = ?');
  const subscriberOf = database.prepare<[string, string], { subscriber_id: string }>(
    'SELECT subscriber_id FROM subscribers WHERE workspace = ? AND recipient_id = ?',
  );
  const anySubscriber = database.prepare<[string], { subscriber_id: string }>('SELECT subscriber_id FROM subscribers WHERE recipient_id = ? LIMIT 1');
  const insertSubscriber = database.prepare('INSERT INTO subscribers (workspace, recipient_id, subscriber_id, created_at) VALUES (?, ?, ?, ?)');
  const insertDevice = database.prepare(
    `INSERT INTO devices (device_id, workspace, recipient_id, subscriber_id, endpoint, p256dh, auth, metadata, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateDevice = database.prepare('UPDATE devices SET p256dh = ?, auth = ?, metadata = ?, updated_at = ? WHERE device_id = ?');
  const ofRecipient = database.prepare<[string, string], DeviceRow>(
    'SELECT * FROM devices WHERE workspace = ? AND recipient_id = ? ORDER BY created_at, rowid',
  );
  const ofRecipientAnywhere = database.prepare<[string], DeviceRow>('SELECT * FROM devices WHERE recipient_id = ? ORDER BY created_at, rowid');
  const deleteDevice = database.prepare('DELETE FROM devices WHERE device_id = ?');

  const register = database.transaction((input: RegisterDeviceInput): RegisterOutcome => {
    const now = clock.now();
    const metadata = JSON.stringify(input.metadata);
    const existing = byEndpoint.get(input.workspace, input.endpoint);
    if (existing && existing.recipient_id !== input.recipientId) return { kind: 'conflict' };
    let subscriberId = subscriberOf.get(input.workspace, input.recipientId)?.subscriber_id;
    if (subscriberId === undefined) {
      subscriberId = randomUUID();
      insertSubscriber.run(input.workspace, input.recipientId, subscriberId, now);
    }
    if (existing) {
      // Repeating the same call changes nothing, not even updatedAt.
      if (existing.p256dh !== input.p256dh || existing.auth !== input.auth || existing.metadata !== metadata) {
        updateDevice.run(input.p256dh, input.auth, metadata, now, existing.device_id);
      }
      return { kind: 'updated', subscriberId, deviceId: existing.device_id };
    }
    const deviceId = randomUUID();
    insertDevice.run(deviceId, input.workspace, input.recipientId, subscriberId, input.endpoint, input.p256dh, input.auth, metadata, now, now);
    return { kind: 'created', subscriberId, deviceId };
  });

  return {
    register: (input) => register(input),
    devicesOf(recipientId, workspace) {
      const rows = workspace === undefined ? ofRecipientAnywhere.all(recipientId) : ofRecipient.all(workspace, recipientId);
      return rows.map(toDevice);
    },
    device(deviceId) {
      const row = byId.get(deviceId);
      return row ? toDevice(row) : undefined;
    },
    hasRecipient(recipientId, workspace) {
      return (workspace === undefined ? anySubscriber.get(recipientId) : subscriberOf.get(workspace, recipientId)) !== undefined;
    },
    remove(deviceId) {
      deleteDevice.run(deviceId);
    },
  };
}

import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './vapid-keys.ts';

/** A registered browser: where to push and the keys to encrypt with. */
export interface Device {
  deviceId: string;
  subscriberId: string;
  recipientId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  metadata: Record<string, string | number | boolean>;
  createdAt: string;
  updatedAt: string;
}

/** What registering a device did. */
export type RegisterOutcome =
  | { kind: 'created' | 'updated'; subscriberId: string; deviceId: string }
  | { kind: 'conflict' };

interface Snapshot {
  subscribers: Record<string, string>;
  devices: Device[];
}

/** Registered subscribers and devices, kept in `<dataDir>/devices.json`. */
export interface DeviceStore {
  /** Register or update the device of `endpoint` for `recipientId`; a conflict when another recipient holds it. */
  register(input: Omit<Device, 'deviceId' | 'subscriberId' | 'createdAt' | 'updatedAt'>): Promise<RegisterOutcome>;
  /** The devices of a recipient; empty when it is not registered. */
  devicesOf(recipientId: string): Device[];
  /** Whether the recipient is registered. */
  hasRecipient(recipientId: string): boolean;
  /** Forget a device (its push service answered 404 or 410). */
  remove(deviceId: string): Promise<void>;
}

/**
 * Open the device store of a data dir, creating it when absent. Every change is on disk
 * (written atomically and synced) before the returned promise resolves.
 */
export async function openDeviceStore(dataDir: string): Promise<DeviceStore> {
  const file = path.join(dataDir, 'devices.json');
  let snapshot: Snapshot = { subscribers: Object.create(null), devices: [] };
  try {
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as Snapshot;
    snapshot = { subscribers: Object.assign(Object.create(null), stored.subscribers), devices: stored.devices };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let writing: Promise<void> = Promise.resolve();
  // Writes are chained so that two requests never interleave their renames.
  const persist = (): Promise<void> => {
    const content = JSON.stringify(snapshot);
    writing = writing.then(() => writeFileAtomic(file, content));
    return writing;
  };

  return {
    async register(input) {
      const now = new Date().toISOString();
      const existing = snapshot.devices.find((device) => device.endpoint === input.endpoint);
      if (existing && existing.recipientId !== input.recipientId) return { kind: 'conflict' };
      const subscriberId = snapshot.subscribers[input.recipientId] ?? randomUUID();
      snapshot.subscribers[input.recipientId] = subscriberId;
      if (existing) {
        Object.assign(existing, { p256dh: input.p256dh, auth: input.auth, metadata: input.metadata, updatedAt: now });
        await persist();
        return { kind: 'updated', subscriberId, deviceId: existing.deviceId };
      }
      const device: Device = { ...input, deviceId: randomUUID(), subscriberId, createdAt: now, updatedAt: now };
      snapshot.devices.push(device);
      await persist();
      return { kind: 'created', subscriberId, deviceId: device.deviceId };
    },
    devicesOf(recipientId) {
      return snapshot.devices.filter((device) => device.recipientId === recipientId);
    },
    hasRecipient(recipientId) {
      return Object.hasOwn(snapshot.subscribers, recipientId);
    },
    async remove(deviceId) {
      snapshot.devices = snapshot.devices.filter((device) => device.deviceId !== deviceId);
      await persist();
    },
  };
}

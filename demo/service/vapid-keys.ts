import { readFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { SettingsStore } from './settings-store.ts';

/** The service's VAPID key pair (base64url), generated on first start and kept in the database. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

function legacyKeys(dataDir: string): VapidKeys | null {
  // The walking skeleton kept them in vapid.json; browsers subscribed with that key must keep working.
  try {
    const stored = JSON.parse(readFileSync(path.join(dataDir, 'vapid.json'), 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  } catch {
    // absent or unreadable: generate
  }
  return null;
}

/** Read the VAPID keys from the settings, creating them on first start. */
export function loadVapidKeys(settings: SettingsStore, dataDir: string): VapidKeys {
  const text = settings.getOrCreate('vapid', () => JSON.stringify(legacyKeys(dataDir) ?? webpush.generateVAPIDKeys()));
  return JSON.parse(text) as VapidKeys;
}

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SettingsStore } from './settings-store.ts';

/** Keys the service generated for local work, kept across restarts. */
export interface DevKeys {
  otpKey: string;
  pushServerKey: string;
}

function legacyPushKey(dataDir: string): string | undefined {
  // The walking skeleton kept its generated key in dev-keys.json; a backend may still hold it.
  try {
    const stored = JSON.parse(readFileSync(path.join(dataDir, 'dev-keys.json'), 'utf8')) as { pushServerKey?: unknown };
    return typeof stored.pushServerKey === 'string' ? stored.pushServerKey : undefined;
  } catch {
    return undefined;
  }
}

/** The generated dev keys of a data dir, created on first use. */
export function loadDevKeys(settings: SettingsStore, dataDir: string): DevKeys {
  return {
    otpKey: settings.getOrCreate('dev-otp-key', () => `otp_dev_${randomBytes(18).toString('base64url')}`),
    pushServerKey: settings.getOrCreate('dev-push-server-key', () => legacyPushKey(dataDir) ?? `sk_dev_${randomBytes(18).toString('base64url')}`),
  };
}

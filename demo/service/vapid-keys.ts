import { promises as fs } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

/** The service's VAPID key pair (base64url), generated on first start and kept in the data dir. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * Read the VAPID keys from `<dataDir>/vapid.json`, creating them on first start.
 */
export async function loadVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, 'vapid.json');
  try {
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = webpush.generateVAPIDKeys();
  await writeFileAtomic(file, JSON.stringify(keys), 0o600);
  return keys;
}

/** Write a file so that a crash leaves either the old or the new content, never half of it. */
export async function writeFileAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(temporary, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
}

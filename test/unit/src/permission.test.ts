import { describe, expect, it } from 'vitest';
import type { BrowserEnv } from '../../../src/browser-env.ts';
import { ensurePermission } from '../../../src/permission.ts';

function envWith(permission: NotificationPermission, answer: NotificationPermission = permission): { env: BrowserEnv; asked: () => number } {
  let asked = 0;
  const env = {
    notification: {
      permission,
      requestPermission: async () => {
        asked++;
        return answer;
      },
    },
  } as BrowserEnv;
  return { env, asked: () => asked };
}

describe('ensurePermission', () => {
  it('does not prompt when already granted', async () => {
    const fake = envWith('granted');
    await ensurePermission(fake.env);
    expect(fake.asked()).toBe(0);
  });

  it('never asks again once denied', async () => {
    const fake = envWith('denied', 'granted');
    await expect(ensurePermission(fake.env)).rejects.toMatchObject({ code: 'permission-denied' });
    expect(fake.asked()).toBe(0);
  });

  it('asks when undecided and accepts a grant', async () => {
    const fake = envWith('default', 'granted');
    await ensurePermission(fake.env);
    expect(fake.asked()).toBe(1);
  });

  it('reports a block at the prompt and a closed prompt differently', async () => {
    await expect(ensurePermission(envWith('default', 'denied').env)).rejects.toMatchObject({ code: 'permission-denied' });
    await expect(ensurePermission(envWith('default', 'default').env)).rejects.toMatchObject({ code: 'permission-dismissed' });
  });

  it('is unsupported without the Notification API', async () => {
    await expect(ensurePermission({ notification: undefined } as BrowserEnv)).rejects.toMatchObject({ code: 'unsupported' });
  });
});

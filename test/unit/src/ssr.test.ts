import { describe, expect, it } from 'vitest';

// Vitest runs these in Node: no window, navigator.serviceWorker, Notification or PushManager,
// as under server-side rendering.
describe('under server-side rendering', () => {
  it('imports without touching anything, and reports unsupported instead of throwing', async () => {
    const pushbridge = await import('../../../src/index.ts');
    const client = pushbridge.createPushClient({
      vapidPublicKey: 'BAAA',
      serviceWorker: { url: '/pushbridge-sw.js' },
      register: { url: '/api/push/register' },
      recipientId: 'u1',
    });
    expect(await client.getState()).toBe('unsupported');
    expect(await client.sync()).toBe('unsupported');
    await expect(client.subscribe()).rejects.toMatchObject({ name: 'PushError', code: 'unsupported' });
    expect(client.shouldAskPermission()).toBe(false);
    client.close();
  });
});

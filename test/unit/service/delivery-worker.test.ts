import { afterEach, describe, expect, it } from 'vitest';
import { createService } from '../../../demo/service/create-service.ts';
import { openDatabase, type ServiceDatabase } from '../../../demo/service/database.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../../demo/service/delivery-worker.ts';
import { createDeviceStore } from '../../../demo/service/device-store.ts';
import { createNotificationQueue, type NotificationQueue } from '../../../demo/service/notification-queue.ts';
import type { VapidSigner } from '../../../demo/service/vapid-signer.ts';
import { createBrowserKeys } from '../../support/decrypt-push.ts';
import { manualClock, temporaryDataDir } from './http-call.ts';

/** A queue over a fresh database with one registered device, a clock the test moves, and a push service that records the TTL it was given. */
function setUp() {
  const dataDir = temporaryDataDir();
  const database: ServiceDatabase = openDatabase(dataDir.dir);
  const clock = manualClock();
  const queue: NotificationQueue = createNotificationQueue(database, clock);
  const keys = createBrowserKeys();
  const registered = createDeviceStore(database, clock).register({ workspace: 'w', recipientId: 'r', endpoint: 'https://push.test/1', p256dh: keys.p256dh, auth: keys.auth, metadata: {} });
  if (registered.kind === 'conflict') throw new Error('conflict');
  const ttls: string[] = [];
  const send = (async (_url: string, init: RequestInit) => {
    ttls.push(String((init.headers as Record<string, unknown>).TTL));
    return new Response(null, { status: 201 });
  }) as unknown as typeof fetch;
  let worker: DeliveryWorker | undefined;
  return {
    queue,
    clock,
    ttls,
    enqueue: (notificationId: string, ttlSeconds: number) =>
      queue.enqueue({ notificationId, workspace: 'w', recipientId: 'r', channel: 'push', payload: '{"pushbridge":1}', ttlSeconds, deviceIds: [registered.deviceId] }),
    start(signer: VapidSigner = { authorization: () => 'vapid t=x, k=y' }) {
      worker = createDeliveryWorker({ queue, signer, clock, maxTries: 5, backoff: { baseMs: 1000, maxMs: 60_000, random: () => 0 }, concurrency: 4, timeoutMs: 5000, send });
      return worker;
    },
    async close() {
      await worker?.close();
      database.close();
      dataDir.remove();
    },
  };
}

let current: ReturnType<typeof setUp> | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('delivery worker', () => {
  it('sends what is left of the TTL, not the full TTL, when a delivery is sent late (a retry, after a restart)', async () => {
    const setup = (current = setUp());
    setup.enqueue('n1', 3600);
    setup.clock.advance(600_000);
    setup.start();
    await expect.poll(() => setup.queue.status('n1')?.state).toBe('delivered');
    expect(setup.ttls).toEqual(['3000']);
  });

  it('marks a delivery past its TTL expired when claimed, and sends nothing', async () => {
    const setup = (current = setUp());
    setup.enqueue('n2', 60);
    setup.clock.advance(61_000);
    setup.start();
    await expect.poll(() => setup.queue.status('n2')?.state).toBe('expired');
    expect(setup.queue.status('n2')?.devices).toEqual([expect.objectContaining({ state: 'expired', tries: 0 })]);
    expect(setup.ttls).toEqual([]);
  });

  it('records a delivery whose sending throws (e.g. a VAPID subject web-push refuses) as failed, and releases it', async () => {
    const setup = (current = setUp());
    setup.enqueue('n3', 3600);
    setup.start({
      authorization() {
        throw new Error('Vapid subject is not a valid URL. https:');
      },
    });
    await expect.poll(() => setup.queue.status('n3')?.state).toBe('failed');
    expect(setup.queue.status('n3')?.devices).toEqual([expect.objectContaining({ state: 'failed', tries: 1, lastError: expect.stringContaining('Vapid subject') })]);
  });
});

describe('createService', () => {
  it.each(['https:', 'mailto:', 'dev@example.com', 'http://example.com', 'https://'])('refuses the VAPID subject %j at startup with a clear error', async (vapidSubject) => {
    const dataDir = temporaryDataDir();
    try {
      await expect(createService({ dataDir: dataDir.dir, port: 0, vapidSubject })).rejects.toThrow(/VAPID subject .*mailto: or https: URL/);
    } finally {
      dataDir.remove();
    }
  });

  it('refuses a config whose vapid.subject web-push would refuse', async () => {
    const dataDir = temporaryDataDir();
    try {
      await expect(createService({ dataDir: dataDir.dir, port: 0, config: { vapid: { subject: 'https:' } } })).rejects.toThrow(/subject.*mailto: or https: URL/);
    } finally {
      dataDir.remove();
    }
  });
});

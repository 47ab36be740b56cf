import { afterEach, describe, expect, it } from 'vitest';
import { createService, type DeliveryOptions, type Service } from '../../../demo/service/create-service.ts';
import { startTestPushEndpoint, type TestPushEndpoint } from '../../support/test-push-endpoint.ts';
import { verifyVapid } from '../../../demo/local-push/verify-vapid.ts';
import { get, post, temporaryDataDir } from './http-call.ts';

const KEY = 'sk_delivery';
let cleanups: (() => Promise<void> | void)[] = [];

async function setup(delivery: DeliveryOptions = {}, extra: { ttlSeconds?: number } = {}) {
  const endpoint = await startTestPushEndpoint();
  const dataDir = temporaryDataDir();
  const service = await createService({
    dataDir: dataDir.dir,
    config: { push: { workspaces: [{ id: 'w', serverKeys: [KEY] }], ...(extra.ttlSeconds ? { ttlSeconds: extra.ttlSeconds } : {}) } },
    delivery: { retryBaseMs: 20, retryMaxMs: 200, ...delivery },
  });
  cleanups.push(async () => {
    await service.close();
    await endpoint.close();
    dataDir.remove();
  });
  return { service, endpoint };
}

async function subscribe(service: Service, endpoint: TestPushEndpoint, recipientId: string, path: string) {
  const subscription = endpoint.subscription(path);
  const answer = await post(
    `${service.url}/v1/subscribers/register`,
    { recipientId, platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: subscription.endpoint, keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth } } },
    { 'x-api-key': KEY },
  );
  expect(answer.status).toBe(201);
  return { ...subscription, deviceId: String(answer.json.deviceId) };
}

async function send(service: Service, body: Record<string, unknown>): Promise<string> {
  const answer = await post(`${service.url}/v1/send`, body, { 'x-api-key': KEY });
  expect(answer.status).toBe(202);
  return String(answer.json.notificationId);
}

const state = async (service: Service, id: string) => (await get(`${service.url}/_emulator/notifications/${id}`)).json;

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe('delivery', () => {
  it('sends one message per device, aes128gcm-encrypted for its keys and VAPID-signed, with the TTL', async () => {
    const { service, endpoint } = await setup();
    const phone = await subscribe(service, endpoint, 'alice', '/push/phone');
    const laptop = await subscribe(service, endpoint, 'alice', '/push/laptop');
    const id = await send(service, { recipientId: 'alice', title: 'Order shipped', body: 'Arrives Tuesday ✓', data: { url: '/orders/42' } });
    await expect.poll(() => endpoint.received.length).toBe(2);
    for (const device of [phone, laptop]) {
      const push = endpoint.received.find((item) => item.path === new URL(device.endpoint).pathname);
      expect(push).toBeDefined();
      expect(push!.headers['content-encoding']).toBe('aes128gcm');
      expect(push!.headers.ttl).toBe(String(4 * 7 * 24 * 3600));
      expect(verifyVapid(push!.headers.authorization, service.vapidPublicKey, endpoint.origin)).toMatchObject({ ok: true, claims: { sub: 'mailto:dev@example.com' } });
      expect(endpoint.decrypt(push!, device.keys)).toEqual({
        pushbridge: 1, notificationId: id, channel: 'push', title: 'Order shipped', body: 'Arrives Tuesday ✓', data: { url: '/orders/42' },
      });
    }
    // Each device's message is encrypted for its own keys only.
    const phonePush = endpoint.received.find((item) => item.path === '/push/phone')!;
    expect(() => endpoint.decrypt(phonePush, laptop.keys)).toThrow();
    await expect.poll(async () => (await state(service, id)).state).toBe('delivered');
    expect(await state(service, id)).toMatchObject({
      devices: [
        { deviceId: phone.deviceId, state: 'delivered', tries: 1, lastStatus: 201 },
        { deviceId: laptop.deviceId, state: 'delivered', tries: 1, lastStatus: 201 },
      ],
    });
    expect(service.attempts.map((attempt) => attempt.status)).toEqual([201, 201]);
  });

  it('uses the configured TTL', async () => {
    const { service, endpoint } = await setup({}, { ttlSeconds: 60 });
    await subscribe(service, endpoint, 'ttl', '/push/ttl');
    await send(service, { recipientId: 'ttl', title: 't', body: 'b' });
    await expect.poll(() => endpoint.received[0]?.headers.ttl).toBe('60');
  });

  it('removes the device on 404 or 410 and keeps the recipient registered', async () => {
    const { service, endpoint } = await setup();
    await subscribe(service, endpoint, 'gone', '/push/gone-410');
    await subscribe(service, endpoint, 'gone', '/push/gone-404');
    await subscribe(service, endpoint, 'gone', '/push/live');
    endpoint.answer = (push) => ({ status: push.path.endsWith('410') ? 410 : push.path.endsWith('404') ? 404 : 201 });
    const id = await send(service, { recipientId: 'gone', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, id)).state).toBe('delivered');
    expect(service.store.devicesOf('gone').map((device) => new URL(device.endpoint).pathname)).toEqual(['/push/live']);
    expect(((await state(service, id)).devices as { state: string }[]).map((d) => d.state)).toEqual(['gone', 'gone', 'delivered']);
    expect(endpoint.received).toHaveLength(3);
  });

  it('retries 429, 5xx and network errors with growing delays, then delivers', async () => {
    const { service, endpoint } = await setup({ retryBaseMs: 40, random: () => 0 });
    await subscribe(service, endpoint, 'flaky', '/push/flaky');
    const answers = [503, 500, 429];
    endpoint.answer = () => ({ status: answers.shift() ?? 201 });
    const id = await send(service, { recipientId: 'flaky', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, id)).state).toBe('delivered');
    const attempts = (await state(service, id)).attempts as { try: number; status: number; at: string }[];
    expect(attempts.map((a) => [a.try, a.status])).toEqual([[1, 503], [2, 500], [3, 429], [4, 201]]);
    // Equal jitter with random() = 0: 20, 40, 80 ms at least between tries.
    const gaps = attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(attempts[i]!.at));
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[1]).toBeGreaterThanOrEqual(35);
    expect(gaps[2]).toBeGreaterThanOrEqual(75);
  });

  it('honours a push service Retry-After', async () => {
    const { service, endpoint } = await setup({ retryBaseMs: 1 });
    await subscribe(service, endpoint, 'slow', '/push/slow');
    let first = true;
    endpoint.answer = () => (first ? ((first = false), { status: 429, headers: { 'retry-after': '1' } }) : { status: 201 });
    const id = await send(service, { recipientId: 'slow', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, id)).state, { timeout: 5000 }).toBe('delivered');
    const attempts = (await state(service, id)).attempts as { at: string }[];
    expect(Date.parse(attempts[1]!.at) - Date.parse(attempts[0]!.at)).toBeGreaterThanOrEqual(950);
  });

  it('gives up after 5 tries, and fails at once on other 4xx such as 413', async () => {
    const { service, endpoint } = await setup({ retryBaseMs: 5 });
    await subscribe(service, endpoint, 'down', '/push/down');
    await subscribe(service, endpoint, 'big', '/push/big');
    endpoint.answer = (push) => ({ status: push.path === '/push/big' ? 413 : 502 });
    const down = await send(service, { recipientId: 'down', title: 't', body: 'b' });
    const big = await send(service, { recipientId: 'big', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, down)).state).toBe('failed');
    expect(((await state(service, down)).attempts as unknown[]).length).toBe(5);
    await expect.poll(async () => (await state(service, big)).state).toBe('failed');
    expect((await state(service, big)).attempts).toMatchObject([{ status: 413 }]);
    expect(service.store.devicesOf('down')).toHaveLength(1);
  });

  it('retries network errors', async () => {
    const { service, endpoint } = await setup({ retryBaseMs: 5, timeoutMs: 200 });
    await subscribe(service, endpoint, 'hang', '/push/hang');
    let calls = 0;
    endpoint.answer = () => (++calls === 1 ? 'hang' : { status: 201 });
    const id = await send(service, { recipientId: 'hang', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, id)).state).toBe('delivered');
    expect((await state(service, id)).attempts).toMatchObject([{ status: null, error: expect.any(String) }, { status: 201 }]);
  });

  it('expires a delivery whose next try would fall after the TTL', async () => {
    const { service, endpoint } = await setup({ retryBaseMs: 5000, retryMaxMs: 10_000 }, { ttlSeconds: 1 });
    await subscribe(service, endpoint, 'late', '/push/late');
    endpoint.answer = () => ({ status: 503 });
    const id = await send(service, { recipientId: 'late', title: 't', body: 'b' });
    await expect.poll(async () => (await state(service, id)).state).toBe('expired');
  });

  it('reports failed when no device is left to deliver to', async () => {
    const { service, endpoint } = await setup();
    await subscribe(service, endpoint, 'none', '/push/none');
    endpoint.answer = () => ({ status: 410 });
    const first = await send(service, { recipientId: 'none', title: 't', body: 'b' });
    await expect.poll(() => service.store.devicesOf('none').length).toBe(0);
    await expect.poll(async () => (await state(service, first)).state).toBe('failed');
    const second = await send(service, { recipientId: 'none', title: 't', body: 'b' });
    expect((await state(service, second)).state).toBe('failed');
  });
});

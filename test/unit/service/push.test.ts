import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../../../demo/service/create-service.ts';
import { createBrowserKeys } from '../../support/decrypt-push.ts';
import { get, manualClock, post, temporaryDataDir } from './http-call.ts';

const ORIGIN = 'http://localhost:5173';
const config = {
  push: {
    workspaces: [
      {
        id: 'shop',
        serverKeys: ['sk_shop'],
        clientKeys: ['pk_shop'],
        browserRegistration: { enabled: true, allowedOrigins: [ORIGIN] },
        rateLimitPerMinute: 1000,
        templates: [{ id: 'welcome', title: 'Hi {{name}}', body: 'Welcome to {{ shop }}{{missing}}', data: { shop: 'Shop', url: '/start' } }],
      },
      { id: 'blog', serverKeys: ['sk_blog'], clientKeys: ['pk_blog'], rateLimitPerMinute: 3 },
    ],
    rateLimitPerMinute: 1000,
  },
};

let service: Service;
const clock = manualClock();
const dataDir = temporaryDataDir();

function registration(recipientId: string, endpoint: string, metadata: Record<string, unknown> = { app: 'test' }) {
  const keys = createBrowserKeys();
  return { recipientId, platform: 'web', deviceTransport: 'web_push', webPush: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }, metadata };
}
const register = (body: unknown, key = 'sk_shop', headers: Record<string, string> = {}) =>
  post(`${service.url}/v1/subscribers/register`, body, { 'x-api-key': key, ...headers });
const send = (body: unknown, key = 'sk_shop') => post(`${service.url}/v1/send`, body, { 'x-api-key': key });

beforeAll(async () => {
  // Endpoints on an unused https host: deliveries fail in the background, which these tests do not look at.
  service = await createService({ dataDir: dataDir.dir, config, clock, delivery: { maxTries: 1, fetch: async () => new Response(null, { status: 201 }) } });
});
afterAll(async () => {
  await service.close();
  dataDir.remove();
});

describe('POST /v1/subscribers/register', () => {
  it('creates with 201, repeats with 200 and the same ids, updates keys and metadata', async () => {
    const body = registration('alice', 'https://push.example/alice-1');
    const first = await register(body);
    expect(first).toMatchObject({ status: 201, json: { subscriberId: expect.any(String), deviceId: expect.any(String), message: 'registered' } });
    const before = service.store.devicesOf('alice', 'shop');
    const again = await register(body);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ subscriberId: first.json.subscriberId, deviceId: first.json.deviceId, message: 'updated' });
    expect(service.store.devicesOf('alice', 'shop')).toEqual(before);
    const rotated = { ...registration('alice', 'https://push.example/alice-1', { plan: 'gold' }) };
    expect((await register(rotated)).json.deviceId).toBe(first.json.deviceId);
    expect(service.store.devicesOf('alice', 'shop')).toMatchObject([{ p256dh: rotated.webPush.keys.p256dh, auth: rotated.webPush.keys.auth, metadata: { plan: 'gold' } }]);
    const second = await register(registration('alice', 'https://push.example/alice-2'));
    expect(second).toMatchObject({ status: 201, json: { subscriberId: first.json.subscriberId } });
    expect(second.json.deviceId).not.toBe(first.json.deviceId);
  });

  it('answers 409 when the endpoint belongs to another recipient of the workspace, and changes nothing', async () => {
    await register(registration('bob', 'https://push.example/bob'));
    const before = service.store.devicesOf('bob', 'shop');
    expect(await register(registration('carol', 'https://push.example/bob'))).toMatchObject({ status: 409, json: { error: 'subscription_conflict' } });
    expect(service.store.devicesOf('bob', 'shop')).toEqual(before);
    expect(service.store.hasRecipient('carol', 'shop')).toBe(false);
    // Workspaces are separate: the same endpoint in another workspace is no conflict.
    expect((await register(registration('carol', 'https://push.example/bob'), 'sk_blog')).status).toBe(201);
  });

  it('names every invalid field', async () => {
    const answer = await register({
      recipientId: 'x'.repeat(257),
      platform: 'ios',
      deviceTransport: 'apns',
      webPush: { endpoint: 'ftp://push.example/x', keys: { p256dh: createBrowserKeys().p256dh.slice(2), auth: 'AAAA' } },
      metadata: { ok: 'yes', nested: { no: 1 }, list: [1] },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('validation_error');
    expect((answer.json.details as { field: string }[]).map((d) => d.field)).toEqual([
      'recipientId', 'platform', 'deviceTransport', 'webPush.endpoint', 'webPush.keys.p256dh', 'webPush.keys.auth', 'metadata.nested', 'metadata.list',
    ]);
    const missing = await register({});
    expect((missing.json.details as { field: string }[]).map((d) => d.field)).toEqual(['recipientId', 'platform', 'deviceTransport', 'webPush']);
    const noKeys = await register({ ...registration('x', 'https://push.example/x'), webPush: { endpoint: 'https://push.example/x' } });
    expect((noKeys.json.details as { field: string }[]).map((d) => d.field)).toEqual(['webPush.keys']);
  });

  it('limits metadata to 50 keys and 4 KiB', async () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect((await register(registration('meta', 'https://push.example/m', many))).json.details).toEqual([{ field: 'metadata', problem: expect.stringContaining('50') }]);
    const big = { a: 'x'.repeat(4100) };
    expect((await register(registration('meta', 'https://push.example/m', big))).json.details).toEqual([{ field: 'metadata', problem: expect.stringContaining('4 KiB') }]);
    expect((await register(registration('meta', 'https://push.example/m', { n: 1, b: true, s: 's' }))).status).toBe(201);
  });

  it('accepts http endpoints on loopback only', async () => {
    expect((await register(registration('lo', 'http://127.0.0.1:9/x'))).status).toBe(201);
    expect((await register(registration('lo', 'http://localhost:9/x'))).status).toBe(201);
    expect((await register(registration('lo', 'http://[::1]:9/x'))).status).toBe(201);
    expect((await register(registration('lo', 'http://10.0.0.1/x'))).status).toBe(400);
    expect((await register(registration('lo', 'http://127.0.0.1.example.com/x'))).status).toBe(400);
  });

  it('refuses a missing or wrong key with 401 invalid_api_key', async () => {
    expect(await register(registration('dave', 'https://push.example/d'), '')).toMatchObject({ status: 401, json: { error: 'invalid_api_key' } });
    expect((await register(registration('dave', 'https://push.example/d'), 'sk_shopx')).status).toBe(401);
  });
});

describe('client-safe keys and CORS', () => {
  it('lets a client-safe key register only where browser registration is enabled', async () => {
    expect((await register(registration('web', 'https://push.example/web'), 'pk_shop', { origin: ORIGIN })).status).toBe(201);
    expect((await register(registration('web', 'https://push.example/web2'), 'pk_blog')).json.error).toBe('invalid_api_key');
  });

  it('never lets a client-safe key send', async () => {
    expect((await send({ recipientId: 'web', title: 't', body: 'b' }, 'pk_shop')).json.error).toBe('invalid_api_key');
  });

  it('sends CORS headers on register only, and only to allowed origins', async () => {
    const allowed = await register(registration('cors', 'https://push.example/cors'), 'pk_shop', { origin: ORIGIN });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await register(registration('cors', 'https://push.example/cors'), 'pk_shop', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${service.url}/v1/subscribers/register`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-api-key');
    const evilPreflight = await fetch(`${service.url}/v1/subscribers/register`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
    const sendAnswer = await fetch(`${service.url}/v1/send`, { method: 'POST', headers: { origin: ORIGIN, 'x-api-key': 'sk_shop' }, body: '{}' });
    expect(sendAnswer.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${service.url}/v1/send`, { method: 'OPTIONS', headers: { origin: ORIGIN } })).status).toBe(405);
  });
});

describe('POST /v1/send', () => {
  it('queues with 202 and builds the envelope, android fields passed through', async () => {
    await register(registration('erin', 'https://push.example/erin'));
    const sent = await send({ recipientId: 'erin', channel: 'in_app', title: 'Order shipped', body: 'Tuesday', data: { url: '/orders/42' }, androidChannelId: 'orders', androidSound: 'chime' });
    expect(sent).toMatchObject({ status: 202, json: { notificationId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued' } });
    const status = (await get(`${service.url}/_emulator/notifications/${String(sent.json.notificationId)}`)).json;
    expect(status.payload).toEqual({
      pushbridge: 1, notificationId: sent.json.notificationId, channel: 'in_app', title: 'Order shipped', body: 'Tuesday',
      data: { url: '/orders/42' }, android: { channelId: 'orders', sound: 'chime' },
    });
    expect((await send({ recipientId: 'erin', title: 't', body: 'b' })).status).toBe(202);
  });

  it('requires title and body without a template', async () => {
    for (const body of [{ recipientId: 'erin', title: 'only' }, { recipientId: 'erin', body: 'only' }, { recipientId: 'erin', title: '', body: 'b' }]) {
      expect(await send(body)).toMatchObject({ status: 400, json: { error: 'title_body_required' } });
    }
  });

  it('fills a template from data, missing names empty, and 404s an unknown one', async () => {
    const sent = await send({ recipientId: 'erin', templateId: 'welcome', data: { name: 'Erin' } });
    expect(sent.status).toBe(202);
    const payload = (await get(`${service.url}/_emulator/notifications/${String(sent.json.notificationId)}`)).json.payload;
    expect(payload).toMatchObject({ title: 'Hi Erin', body: 'Welcome to Shop', data: { name: 'Erin', shop: 'Shop', url: '/start' } });
    expect(await send({ recipientId: 'erin', templateId: 'nope' })).toMatchObject({ status: 404, json: { error: 'template_not_found' } });
    // Templates belong to their workspace.
    expect((await send({ recipientId: 'carol', templateId: 'welcome' }, 'sk_blog')).json.error).toBe('template_not_found');
  });

  it('creates templates through POST /_emulator/templates with a server key', async () => {
    const url = `${service.url}/_emulator/templates`;
    expect((await post(url, { id: 'bye', title: 'Bye {{name}}', body: 'See you' }, { 'x-api-key': 'sk_shop' })).status).toBe(201);
    expect((await post(url, { id: 'bye', title: 'Bye {{name}}!', body: 'See you' }, { 'x-api-key': 'sk_shop' })).status).toBe(200);
    expect((await post(url, { id: 'bye', title: 'x', body: 'y' }, { 'x-api-key': 'pk_shop' })).status).toBe(401);
    expect((await post(url, { title: 'x' }, { 'x-api-key': 'sk_shop' })).json.error).toBe('validation_error');
    const sent = await send({ recipientId: 'erin', templateId: 'bye', data: { name: 'E' } });
    expect((await get(`${service.url}/_emulator/notifications/${String(sent.json.notificationId)}`)).json.payload).toMatchObject({ title: 'Bye E!' });
  });

  it('answers 404 recipient_not_found for a recipient not registered in the workspace', async () => {
    expect(await send({ recipientId: 'nobody', title: 't', body: 'b' })).toMatchObject({ status: 404, json: { error: 'recipient_not_found' } });
    expect((await send({ recipientId: 'erin', title: 't', body: 'b' }, 'sk_blog')).json.error).toBe('recipient_not_found');
  });

  it('validates channel and data per field', async () => {
    const answer = await send({ recipientId: 'erin', title: 't', body: 'b', channel: 'sms', data: { n: 1, ok: 'y' }, androidSound: 3 });
    expect((answer.json.details as { field: string }[]).map((d) => d.field)).toEqual(['channel', 'androidSound', 'data.n']);
    const big = await send({ recipientId: 'erin', title: 't', body: 'b', data: { a: 'x'.repeat(2100) } });
    expect(big.json.details).toEqual([{ field: 'data', problem: expect.stringContaining('2 KiB') }]);
  });

  it('refuses a notification whose payload would exceed 3 KiB', async () => {
    const answer = await send({ recipientId: 'erin', title: 'x'.repeat(2000), body: 'y'.repeat(1100) });
    expect(answer).toMatchObject({ status: 400, json: { error: 'validation_error', details: [{ field: 'payload' }] } });
  });
});

describe('rate limits per workspace', () => {
  it('limits per key with the workspace policy, before the key check', async () => {
    clock.advance(60_001);
    await register(registration('rl', 'https://push.example/rl'), 'sk_blog');
    for (let i = 0; i < 2; i += 1) expect((await send({ recipientId: 'rl', title: 't', body: 'b' }, 'sk_blog')).status).toBe(202);
    const limited = await send({ recipientId: 'rl', title: 't', body: 'b' }, 'sk_blog');
    expect(limited).toMatchObject({ status: 429, json: { error: 'rate_limited', retryAfter: expect.any(Number) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The other workspace is not affected.
    expect((await send({ recipientId: 'erin', title: 't', body: 'b' })).status).toBe(202);
    clock.advance(60_001);
    expect((await send({ recipientId: 'rl', title: 't', body: 'b' }, 'sk_blog')).status).toBe(202);
  });
});

describe('routes', () => {
  it('answers 404 not_found and 405 method_not_allowed', async () => {
    expect((await post(`${service.url}/v2/nothing`, {})).json.error).toBe('not_found');
    expect((await post(`${service.url}/_emulator/notifications/nope`, {})).status).toBe(405);
    expect((await get(`${service.url}/_emulator/notifications/nope`)).json.error).toBe('not_found');
    const wrong = await fetch(`${service.url}/v1/send`);
    expect([wrong.status, ((await wrong.json()) as { error: string }).error]).toEqual([405, 'method_not_allowed']);
    expect((await get(`${service.url}/api/send-otp`)).status).toBe(405);
  });

  it('shows the VAPID public key', async () => {
    expect((await get(`${service.url}/_emulator/vapid-public-key`)).json).toEqual({ publicKey: service.vapidPublicKey });
  });
});

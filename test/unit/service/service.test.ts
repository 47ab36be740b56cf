import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../../../demo/service/create-service.ts';
import { verifyVapid } from '../../../demo/local-push/verify-vapid.ts';

const KEY = 'sk_test_key';
let service: Service;
let dataDir: string;

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

function registration(recipientId: string, endpoint: string, keys = browserKeys()) {
  return { recipientId, platform: 'web', deviceTransport: 'web_push', webPush: { endpoint, keys }, metadata: { app: 'test' } };
}

async function call(pathname: string, body: unknown, key: string | null = KEY) {
  const response = await fetch(service.url + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-service-'));
  service = await createService({ dataDir, serverKeys: [KEY] });
});
afterAll(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /v1/subscribers/register', () => {
  it('registers with 201, updates with 200 and the same ids, refuses another recipient with 409', async () => {
    const keys = browserKeys();
    const first = await call('/v1/subscribers/register', registration('alice', 'https://push.example/a1', keys));
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ message: 'registered' });
    const again = await call('/v1/subscribers/register', registration('alice', 'https://push.example/a1', keys));
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ subscriberId: first.json.subscriberId, deviceId: first.json.deviceId, message: 'updated' });
    const other = await call('/v1/subscribers/register', registration('bob', 'https://push.example/a1', keys));
    expect(other).toEqual({ status: 409, json: { error: 'subscription_conflict', message: expect.any(String) } });
  });

  it('names every invalid field', async () => {
    const { status, json } = await call('/v1/subscribers/register', {
      recipientId: '',
      platform: 'ios',
      deviceTransport: 'web_push',
      webPush: { endpoint: 'http://push.example/x', keys: { p256dh: 'short', auth: 'AAAA' } },
    });
    expect(status).toBe(400);
    expect(json.error).toBe('validation_error');
    expect((json.details as { field: string }[]).map((d) => d.field)).toEqual(['recipientId', 'platform', 'webPush.endpoint', 'webPush.keys.p256dh', 'webPush.keys.auth']);
  });

  it('accepts http endpoints on loopback only', async () => {
    expect((await call('/v1/subscribers/register', registration('carol', 'http://127.0.0.1:9/x'))).status).toBe(201);
    expect((await call('/v1/subscribers/register', registration('carol', 'http://10.0.0.1/x'))).status).toBe(400);
  });

  it('refuses a missing or wrong key with 401', async () => {
    expect((await call('/v1/subscribers/register', registration('dave', 'https://push.example/d'), null)).status).toBe(401);
    expect((await call('/v1/subscribers/register', registration('dave', 'https://push.example/d'), 'sk_wrong')).json.error).toBe('invalid_api_key');
  });

  it('answers non-JSON, non-objects and oversized bodies with the codes of decisions.md', async () => {
    expect((await call('/v1/subscribers/register', '{not json')).json.error).toBe('validation_error');
    expect((await call('/v1/subscribers/register', [1, 2])).json.error).toBe('validation_error');
    const huge = await call('/v1/subscribers/register', { recipientId: 'x'.repeat(20_000) });
    expect(huge).toEqual({ status: 413, json: { error: 'payload_too_large', message: expect.any(String) } });
  });
});

describe('POST /v1/send', () => {
  it('requires title and body without a template, a known template, a registered recipient', async () => {
    expect((await call('/v1/send', { recipientId: 'alice', title: 'only' })).json.error).toBe('title_body_required');
    expect((await call('/v1/send', { recipientId: 'alice', templateId: 'nope' })).status).toBe(404);
    expect((await call('/v1/send', { recipientId: 'nobody', title: 't', body: 'b' })).json.error).toBe('recipient_not_found');
    expect((await call('/v1/send', { recipientId: 'alice', title: 't', body: 'b', channel: 'sms' })).json.error).toBe('validation_error');
  });

  it('answers 202 queued, then delivers an encrypted, VAPID-signed message; 410 removes the device', async () => {
    const received: { headers: IncomingHttpHeaders; bytes: number }[] = [];
    let answer = 201;
    const endpoint = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, bytes: Buffer.concat(chunks).length });
        response.writeHead(answer);
        response.end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', () => resolve()));
    const origin = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
    try {
      await call('/v1/subscribers/register', registration('erin', `${origin}/push/1`));
      const sent = await call('/v1/send', { recipientId: 'erin', title: 'Hi', body: 'There', data: { url: '/x' } });
      expect(sent.status).toBe(202);
      expect(sent.json).toEqual({ notificationId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued' });
      await expect.poll(() => received.length).toBe(1);
      const headers = received[0]!.headers;
      expect(headers['content-encoding']).toBe('aes128gcm');
      expect(Number(headers.ttl)).toBe(4 * 7 * 24 * 3600);
      expect(received[0]!.bytes).toBeGreaterThan(86); // header (86 bytes) plus ciphertext
      expect(verifyVapid(String(headers.authorization), service.vapidPublicKey, origin)).toMatchObject({ ok: true });

      answer = 410;
      await call('/v1/send', { recipientId: 'erin', title: 'Hi', body: 'Again' });
      await expect.poll(() => service.store.devicesOf('erin').length).toBe(0);
    } finally {
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });
});

describe('unknown routes', () => {
  it('answers 404 not_found and 405 for a wrong method', async () => {
    expect((await call('/v2/nothing', {})).json.error).toBe('not_found');
    const wrong = await fetch(`${service.url}/v1/send`);
    expect(wrong.status).toBe(405);
  });
});

describe('restart', () => {
  it('keeps the VAPID keys, the dev server key and the registered devices in the data dir', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pushbridge-restart-'));
    try {
      const before = await createService({ dataDir: dir });
      await fetch(`${before.url}/v1/subscribers/register`, {
        method: 'POST',
        headers: { 'x-api-key': before.serverKeys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify(registration('frank', 'https://push.example/f')),
      });
      await before.close();
      const after = await createService({ dataDir: dir });
      expect(after.vapidPublicKey).toBe(before.vapidPublicKey);
      expect(after.serverKeys).toEqual(before.serverKeys);
      expect(after.serverKeys[0]).toMatch(/^sk_/);
      expect(after.store.devicesOf('frank').map((d) => d.endpoint)).toEqual(['https://push.example/f']);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

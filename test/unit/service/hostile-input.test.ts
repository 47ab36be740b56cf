import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../../../demo/service/create-service.ts';
import { temporaryDataDir } from './http-call.ts';

let service: Service;
const dataDir = temporaryDataDir();
const logs: string[] = [];

beforeAll(async () => {
  service = await createService({
    dataDir: dataDir.dir,
    config: {
      otp: { keys: [{ key: 'otp_secret_key', minIntervalSeconds: 0 }], routeLimitPerMinute: 100_000 },
      push: { workspaces: [{ id: 'w', serverKeys: ['sk_secret_key'], rateLimitPerMinute: 100_000 }], rateLimitPerMinute: 100_000 },
    },
    log: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await service.close();
  dataDir.remove();
});

const BODIES: (string | Uint8Array)[] = [
  '', 'null', 'true', '42', '"text"', '[]', '[{}]', '{', '{"a":', '\u0000', '{}', '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}', '{"recipientId":{"toString":1}}',
  '{"recipientId":"👩‍💻","title":"\\ud800","body":"\u202e","data":{"__proto__":"x","url":"/é"}}',
  '{"apiKey":["otp_secret_key"],"number":{"e164":1},"message":7}', '{"apiKey":"otp_secret_key","number":"+14155552671","message":"\\u0000"}',
  '{"apiKey":"otp_secret_key","number":"+١٤١٥٥٥٥٢٦٧١","message":"x"}', '{"apiKey":"otp_secret_key","number":"+14155552671\\n","message":"x"}',
  '{"recipientId":"a","platform":"web","deviceTransport":"web_push","webPush":[],"metadata":[]}',
  '{"recipientId":"a","platform":"web","deviceTransport":"web_push","webPush":{"endpoint":"https://x","keys":{"p256dh":null,"auth":{}}},"metadata":{"__proto__":1}}',
  '{"recipientId":"a","platform":"web","deviceTransport":"web_push","webPush":{"endpoint":"javascript:alert(1)","keys":[]}}',
  '{"recipientId":"a","templateId":{},"data":[1]}', '{"recipientId":"a","title":"t","body":"b","channel":null,"data":null}',
  `{"deep":${'['.repeat(5000)}${']'.repeat(5000)}}`, `{"recipientId":"${'x'.repeat(15_000)}"}`, 'x'.repeat(200_000),
  new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), new Uint8Array([0xc3, 0x28]),
];
const ROUTES = ['/api/send-otp', '/v1/subscribers/register', '/v1/send', '/_emulator/templates'];

describe('hostile input', () => {
  it('never answers 5xx (send_otp_failed aside), always with the JSON error shape', async () => {
    for (const route of ROUTES) {
      for (const body of BODIES) {
        for (const key of ['sk_secret_key', 'nope']) {
          const response = await fetch(service.url + route, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
          const text = await response.text();
          expect(response.status, `${route} ${String(body).slice(0, 60)}`).toBeLessThan(500);
          if (response.status >= 400) expect(JSON.parse(text)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('survives odd paths, methods and headers', async () => {
    for (const path of ['/%', '/_emulator/notifications/%E0%A4%A', '/_emulator/otp/messages?number=%', '//v1//send', '/v1/send/../send', '/_emulator/notifications/']) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const response = await fetch(service.url + path, { method, headers: { 'x-api-key': '\u00ff'.repeat(3) }, ...(method === 'GET' ? {} : { body: '{}' }) });
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    const declaredHuge = await fetch(`${service.url}/v1/send`, { method: 'POST', headers: { 'content-length': '99999999', 'x-api-key': 'sk_secret_key' }, body: 'x'.repeat(10), duplex: 'half' } as RequestInit).catch(() => null);
    if (declaredHuge) expect(declaredHuge.status).toBeLessThan(500);
  });

  it('answers paths that are no URL path (GET //, GET //a:b@) with 404 not_found, not 500', async () => {
    // `//x/v1/send` is a path, not the host x: it must not reach the send route.
    for (const path of ['//', '//a:b@', '//a:b@/v1/send', '///', '//x/v1/send']) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(service.url + path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
        expect([response.status, ((await response.json()) as { error: string }).error], `${method} ${path}`).toEqual([404, 'not_found']);
      }
    }
  });

  it('answers bodies over 16 KiB with 413 payload_too_large on both interfaces', async () => {
    for (const route of ['/api/send-otp', '/v1/send', '/v1/subscribers/register']) {
      const response = await fetch(service.url + route, { method: 'POST', headers: { 'x-api-key': 'sk_secret_key' }, body: JSON.stringify({ message: 'x'.repeat(17 * 1024) }) });
      expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([413, 'payload_too_large']);
    }
  });

  it('logs one line per request with method, path, status and time, never a key, a number or a payload', async () => {
    logs.length = 0;
    await fetch(`${service.url}/api/send-otp`, { method: 'POST', body: JSON.stringify({ apiKey: 'otp_secret_key', number: '+14155552671', message: 'payload-secret' }) });
    await fetch(`${service.url}/_emulator/otp/messages?number=%2B14155552671`);
    await fetch(`${service.url}/v1/send`, { method: 'POST', headers: { 'x-api-key': 'sk_secret_key' }, body: JSON.stringify({ recipientId: 'r', title: 'payload-secret', body: 'b' }) });
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatch(/^POST \/api\/send-otp 202 \d+\.\dms$/);
    expect(logs[1]).toMatch(/^GET \/_emulator\/otp\/messages 200 /);
    expect(logs[2]).toMatch(/^POST \/v1\/send 404 /);
    for (const line of logs) expect(line).not.toMatch(/secret|14155552671|5552671/);
  });
});

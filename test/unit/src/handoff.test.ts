import { describe, expect, it } from 'vitest';
import { postRegistration, registerRequest } from '../../../src/common/handoff.ts';
import { PushError } from '../../../src/common/push-error.ts';

const keys = { endpoint: 'https://push.example/abc', p256dh: 'BPk', auth: 'au' };
const body = registerRequest('user-1', keys, { app: 'shop' });
const URL_HANDOFF = { kind: 'url', url: '/r', headers: {}, credentials: 'same-origin' } as const;

function answering(status: number, json: unknown): { fetch: typeof fetch; calls: { url: string; init: RequestInit }[] } {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchFake = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetch: fetchFake, calls };
}

async function rejection(promise: Promise<unknown>): Promise<PushError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PushError);
  return error as PushError;
}

describe('registerRequest', () => {
  it('builds the service register body with platform and transport fixed', () => {
    expect(body).toEqual({
      recipientId: 'user-1',
      platform: 'web',
      deviceTransport: 'web_push',
      webPush: { endpoint: 'https://push.example/abc', keys: { p256dh: 'BPk', auth: 'au' } },
      metadata: { app: 'shop' },
    });
  });
});

describe('postRegistration', () => {
  it('posts JSON with the extra headers and returns the ids', async () => {
    const fake = answering(201, { subscriberId: 's1', deviceId: 'd1' });
    const result = await postRegistration(fake.fetch, { kind: 'url', url: '/api/push/register', headers: { 'x-csrf': 't' }, credentials: 'same-origin' }, body, 1000);
    expect(result).toEqual({ subscriberId: 's1', deviceId: 'd1' });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.url).toBe('/api/push/register');
    expect(fake.calls[0]?.init.method).toBe('POST');
    expect(fake.calls[0]?.init.headers).toEqual({ 'content-type': 'application/json', 'x-csrf': 't' });
    expect(fake.calls[0]?.init.credentials).toBe('same-origin');
    expect(JSON.parse(String(fake.calls[0]?.init.body))).toEqual(body);
  });

  it('posts straight to the service with the client-safe key in the direct flow', async () => {
    const fake = answering(201, { subscriberId: 's1', deviceId: 'd1' });
    await postRegistration(fake.fetch, { kind: 'direct', pushBaseUrl: 'https://push.example/', clientKey: 'pk_1' }, body, 1000);
    expect(fake.calls[0]?.url).toBe('https://push.example/v1/subscribers/register');
    expect(fake.calls[0]?.init.headers).toEqual({ 'content-type': 'application/json', 'x-api-key': 'pk_1' });
    expect(fake.calls[0]?.init.credentials).toBe('omit');
  });

  it('maps 409 to register-conflict with the status and backend code', async () => {
    const fake = answering(409, { error: 'subscription_conflict', message: 'taken' });
    const error = await rejection(postRegistration(fake.fetch, URL_HANDOFF, body, 1000));
    expect(error.code).toBe('register-conflict');
    expect(error.status).toBe(409);
    expect(error.backendCode).toBe('subscription_conflict');
    expect(error.message).toBe('taken');
  });

  it('maps other refusals to register-rejected', async () => {
    const fake = answering(400, { error: 'validation_error', message: 'bad' });
    const error = await rejection(postRegistration(fake.fetch, URL_HANDOFF, body, 1000));
    expect(error.code).toBe('register-rejected');
    expect(error.status).toBe(400);
  });

  it('refuses a success without ids', async () => {
    const fake = answering(200, { ok: true });
    expect((await rejection(postRegistration(fake.fetch, URL_HANDOFF, body, 1000))).code).toBe('register-rejected');
  });

  it('maps a failed fetch to network and keeps the native error as cause', async () => {
    const cause = new TypeError('Failed to fetch');
    const failing = (async () => {
      throw cause;
    }) as typeof fetch;
    const error = await rejection(postRegistration(failing, URL_HANDOFF, body, 1000));
    expect(error.code).toBe('network');
    expect(error.cause).toBe(cause);
  });

  it('gives up with timeout when the backend does not answer', async () => {
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    expect((await rejection(postRegistration(hanging, URL_HANDOFF, body, 20))).code).toBe('timeout');
  });
});

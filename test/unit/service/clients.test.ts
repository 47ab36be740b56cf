import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationClient, createOtpClient, ServiceError } from '../../../demo/clients/index.ts';
import { createService, type Service } from '../../../demo/service/create-service.ts';
import { createBrowserKeys } from '../../support/decrypt-push.ts';
import { temporaryDataDir } from './http-call.ts';

/** A fetch that answers from a script and records what it was asked, with a clock that sleeping moves. */
function scripted(answers: (Response | Error)[]) {
  let now = 1_000_000;
  const calls: { url: string; body: unknown; headers: Record<string, string> }[] = [];
  const waits: number[] = [];
  return {
    calls,
    waits,
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    fetch: (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    }) as unknown as typeof fetch,
  };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
const reset = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });

describe('typed clients with a scripted service', () => {
  it('retries 429 after Retry-After and 503 with Retry-After with backoff, then returns the typed result', async () => {
    // send-otp is not idempotent: a 503 is retried only when the service itself asks (Retry-After).
    const script = scripted([json(429, { error: 'rate_limited', message: 'slow', retryAfter: 2 }, { 'retry-after': '2' }), json(503, {}, { 'retry-after': '0' }), json(202, { jobId: 'j1', accepted: true })]);
    const otp = createOtpClient({ baseUrl: 'http://otp.test', apiKey: 'otp_k', ...script, random: () => 0, retryBaseMs: 100 });
    expect(await otp.sendOtp({ number: '+14155552671', message: 'code' })).toEqual({ jobId: 'j1', accepted: true });
    expect(script.waits).toEqual([2000, 100]);
    expect(script.calls[0]).toMatchObject({ url: 'http://otp.test/api/send-otp', body: { apiKey: 'otp_k', number: '+14155552671', message: 'code' } });
  });

  it('throws one ServiceError with status, code and structured fields for a final answer', async () => {
    const script = scripted([json(429, { error: 'plan_limit_reached', message: 'interval', limit: 'interval', retryAfter: 30 }, { 'retry-after': '30' })]);
    const otp = createOtpClient({ baseUrl: 'http://otp.test', apiKey: 'k', ...script, deadlineMs: 5000 });
    const error = await otp.sendOtp({ number: '+14155552671', message: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 429, code: 'plan_limit_reached', retryAfter: 30, limit: 'interval' });
    // A wait past the deadline is not started.
    expect(script.waits).toEqual([]);

    const push = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk', ...scripted([json(400, { error: 'validation_error', message: 'bad', details: [{ field: 'platform', problem: 'x' }] })]) });
    await expect(push.sendNotification({ recipientId: 'r', title: 't', body: 'b' })).rejects.toMatchObject({ status: 400, code: 'validation_error', details: [{ field: 'platform' }] });
  });

  it('retries a refused connection, but not a send that may have reached the service', async () => {
    const script = scripted([refused(), json(202, { notificationId: 'n1', status: 'queued' })]);
    const push = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk_x', ...script });
    expect(await push.sendNotification({ recipientId: 'r', title: 't', body: 'b' })).toEqual({ notificationId: 'n1', status: 'queued' });
    expect(script.calls[1]?.headers['x-api-key']).toBe('sk_x');
    const unsure = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk_x', ...scripted([reset()]) });
    await expect(unsure.sendNotification({ recipientId: 'r', title: 't', body: 'b' })).rejects.toMatchObject({ status: 503, code: 'service_unreachable' });
    // Register is idempotent: a reset is retried.
    const again = scripted([reset(), json(200, { subscriberId: 's', deviceId: 'd', message: 'updated' })]);
    const registering = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk_x', ...again });
    const keys = createBrowserKeys();
    expect(await registering.registerSubscriber({ recipientId: 'r', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: 'https://p/1', keys }, metadata: {} })).toEqual({ subscriberId: 's', deviceId: 'd', created: false });
  });

  it('gives up with the last error when the deadline passes', async () => {
    const script = scripted(Array.from({ length: 20 }, () => json(502, { error: 'internal_error', message: 'down' })));
    const push = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'k', ...script, deadlineMs: 3000, retryBaseMs: 200, random: () => 0.5 });
    // Register, which is idempotent, is retried after a 502 (a send would not be, see call-service.test.ts).
    const register = { recipientId: 'r', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: 'https://p/1', keys: createBrowserKeys() }, metadata: {} } as const;
    await expect(push.registerSubscriber(register)).rejects.toMatchObject({ status: 502, code: 'internal_error' });
    expect(script.waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThan(3000);
    expect(script.calls.length).toBeGreaterThan(2);
  });
});

describe('typed clients against the local service', () => {
  let service: Service;
  const dataDir = temporaryDataDir();
  beforeAll(async () => {
    service = await createService({ dataDir: dataDir.dir, config: { otp: { keys: [{ key: 'otp_c' }] }, push: { workspaces: [{ id: 'w', serverKeys: ['sk_c'] }] } }, delivery: { maxTries: 1 } });
  });
  afterAll(async () => {
    await service.close();
    dataDir.remove();
  });

  it('sends an OTP, registers (201 then 200), sends, and maps 409 and 401', async () => {
    const otp = createOtpClient({ baseUrl: service.otpUrl, apiKey: 'otp_c' });
    expect(await otp.sendOtp({ number: '+44 20 7183 8750', message: 'Your code is 4242' })).toMatchObject({ accepted: true });
    await expect(otp.sendOtp({ number: '+1555', message: 'x' })).rejects.toMatchObject({ status: 400, code: 'invalid_number' });
    const push = createNotificationClient({ baseUrl: service.url, apiKey: 'sk_c' });
    const keys = createBrowserKeys();
    const request = { recipientId: 'lee', platform: 'web' as const, deviceTransport: 'web_push' as const, webPush: { endpoint: 'https://push.example/lee', keys: { p256dh: keys.p256dh, auth: keys.auth } }, metadata: {} };
    expect(await push.registerSubscriber(request)).toMatchObject({ created: true });
    expect(await push.registerSubscriber(request)).toMatchObject({ created: false });
    await expect(push.registerSubscriber({ ...request, recipientId: 'other' })).rejects.toMatchObject({ status: 409, code: 'subscription_conflict' });
    expect(await push.sendNotification({ recipientId: 'lee', title: 'Hi', body: 'There' })).toMatchObject({ status: 'queued' });
    await expect(createNotificationClient({ baseUrl: service.url, apiKey: 'wrong' }).sendNotification({ recipientId: 'lee', title: 't', body: 'b' })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});

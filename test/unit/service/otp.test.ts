import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createService, type Service } from '../../../demo/service/create-service.ts';
import { get, manualClock, post, temporaryDataDir } from './http-call.ts';

const FREE = { key: 'otp_free', plan: 'free', monthlyLimit: 5, dailyLimit: 3, minIntervalSeconds: 30, channelSlots: 1 };
const PAID = { key: 'otp_paid', plan: 'paid', monthlyLimit: 1000, dailyLimit: 1, minIntervalSeconds: 30, channelSlots: 1 };
const NO_SLOTS = { key: 'otp_noslots', plan: 'paid', channelSlots: 0 };
const NUMBERS = ['+14155552671', '+442071838750', '+4915123456789', '+33612345678', '+12015550123', '+61491570156', '+81312345678'];

let running: { service: Service; remove: () => void }[] = [];

async function start(clock = manualClock(), dataDir = temporaryDataDir()) {
  const service = await createService({ dataDir: dataDir.dir, config: { otp: { keys: [FREE, PAID, NO_SLOTS] } }, clock });
  running.push({ service, remove: dataDir.remove });
  const send = (body: unknown) => post(`${service.otpUrl}/api/send-otp`, body);
  return { service, clock, send, dataDir };
}

afterEach(async () => {
  for (const { service, remove } of running) {
    await service.close();
    remove();
  }
  running = [];
});

describe('POST /api/send-otp', () => {
  it('accepts with 202 and a job id, then delivers to the emulated inbox, newest first', async () => {
    const { service, clock, send } = await start();
    const first = await send({ apiKey: 'otp_paid', number: '+1 415-555.2671', message: '  Your code is 111111 ' });
    expect(first).toMatchObject({ status: 202, json: { jobId: expect.stringMatching(/^[0-9a-f-]{36}$/), accepted: true } });
    clock.advance(31_000);
    const second = await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'Your code is 222222' });
    await expect
      .poll(async () => (await get(`${service.otpUrl}/_emulator/otp/messages?number=+14155552671`)).json)
      .toMatchObject({
        number: '+14155552671',
        messages: [
          { jobId: second.json.jobId, message: 'Your code is 222222' },
          { jobId: first.json.jobId, message: 'Your code is 111111' },
        ],
      });
  });

  it('names every missing field, treating empty and non-JSON bodies as missing', async () => {
    const { send } = await start();
    expect((await send({ number: '+14155552671' })).json).toEqual({ error: 'missing_fields', message: expect.any(String), fields: ['apiKey', 'message'] });
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: '   ' })).json.fields).toEqual(['message']);
    expect(await send('not json')).toMatchObject({ status: 400, json: { error: 'missing_fields', fields: ['apiKey', 'number', 'message'] } });
    expect((await send([1, 2, 3])).json.fields).toEqual(['apiKey', 'number', 'message']);
  });

  it('answers wrong types and overlong messages with invalid_request', async () => {
    const { send } = await start();
    expect(await send({ apiKey: 'otp_paid', number: 14155552671, message: 'x' })).toMatchObject({ status: 400, json: { error: 'invalid_request', fields: ['number'] } });
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'x'.repeat(1025) })).json.error).toBe('invalid_request');
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: '✓'.repeat(1024) })).status).toBe(202);
  });

  it('refuses numbers outside real numbering plans and outside E.164', async () => {
    const { send } = await start();
    for (const number of ['+15551234567', '14155552671', '+0123456789', '+1415555267', '+1 (415) 555-2671', '+999999999', '+1234567890123456']) {
      expect((await send({ apiKey: 'otp_paid', number, message: 'code' })).json.error, number).toBe('invalid_number');
    }
  });

  it('checks the key before the number, so a bad key never learns whether a number is valid', async () => {
    const { send } = await start();
    expect(await send({ apiKey: 'wrong', number: 'not a number', message: 'code' })).toMatchObject({ status: 401, json: { error: 'invalid_api_key' } });
    expect(JSON.stringify((await send({ apiKey: 'otp_paid_x', number: '+14155552671', message: 'code' })).json)).not.toContain('otp_paid');
  });

  it('limits 120 requests per rolling minute per valid key, and per client IP otherwise, before the key check', async () => {
    const { send, clock } = await start();
    for (let i = 0; i < 120; i += 1) expect((await send({ apiKey: 'wrong', number: '+14155552671', message: 'x' })).status).toBe(401);
    const limited = await send({ apiKey: 'wrong', number: '+14155552671', message: 'x' });
    expect(limited).toMatchObject({ status: 429, json: { error: 'rate_limited', retryAfter: 60 } });
    expect(limited.headers.get('retry-after')).toBe('60');
    // A valid key has its own bucket: the guesses from this address do not count against it.
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'x' })).status).toBe(202);
    for (let i = 1; i < 120; i += 1) await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'x' });
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'x' })).json.error).toBe('rate_limited');
    clock.advance(60_001);
    expect((await send({ apiKey: 'otp_paid', number: '+14155552671', message: 'x' })).status).toBe(202);
  });

  it('keeps the route limiter across a restart', async () => {
    const clock = manualClock();
    const dataDir = temporaryDataDir();
    const first = await start(clock, dataDir);
    for (let i = 0; i < 120; i += 1) await first.send({ apiKey: 'wrong', number: '+14155552671', message: 'x' });
    await first.service.close();
    running = running.filter((entry) => entry.service !== first.service);
    const again = await start(clock, dataDir);
    expect((await again.send({ apiKey: 'wrong', number: '+14155552671', message: 'x' })).json.error).toBe('rate_limited');
  });

  it('applies the minimum interval per number, with Retry-After', async () => {
    const { send, clock } = await start();
    expect((await send({ apiKey: 'otp_paid', number: NUMBERS[0], message: 'a' })).status).toBe(202);
    clock.advance(10_000);
    const early = await send({ apiKey: 'otp_paid', number: NUMBERS[0], message: 'b' });
    expect(early).toMatchObject({ status: 429, json: { error: 'plan_limit_reached', limit: 'interval', retryAfter: 20 } });
    expect(early.headers.get('retry-after')).toBe('20');
    expect((await send({ apiKey: 'otp_paid', number: NUMBERS[1], message: 'c' })).status).toBe(202);
    clock.advance(20_000);
    expect((await send({ apiKey: 'otp_paid', number: NUMBERS[0], message: 'd' })).status).toBe(202);
  });

  it('applies the daily limit on the free plan only, until the next UTC day', async () => {
    const { send, clock } = await start(manualClock(Date.UTC(2026, 0, 15, 23, 0, 0)));
    for (const number of NUMBERS.slice(0, 3)) expect((await send({ apiKey: 'otp_free', number, message: 'x' })).status).toBe(202);
    expect((await send({ apiKey: 'otp_free', number: NUMBERS[3], message: 'x' })).json).toMatchObject({ error: 'plan_limit_reached', limit: 'daily', retryAfter: 3600 });
    // The paid plan's dailyLimit of 1 is not applied.
    for (const number of NUMBERS.slice(0, 2)) expect((await send({ apiKey: 'otp_paid', number, message: 'x' })).status).toBe(202);
    clock.set(Date.UTC(2026, 0, 16, 0, 0, 1));
    expect((await send({ apiKey: 'otp_free', number: NUMBERS[3], message: 'x' })).status).toBe(202);
  });

  it('applies the monthly limit per calendar month, and it survives a restart', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 30, 10, 0, 0));
    const dataDir = temporaryDataDir();
    const first = await start(clock, dataDir);
    for (const [day, numbers] of [[30, NUMBERS.slice(0, 3)], [31, NUMBERS.slice(3, 5)]] as const) {
      clock.set(Date.UTC(2026, 0, day, 10, 0, 0));
      for (const number of numbers) expect((await first.send({ apiKey: 'otp_free', number, message: 'x' })).status).toBe(202);
    }
    await first.service.close();
    running = running.filter((entry) => entry.service !== first.service);
    const again = await start(clock, dataDir);
    const refused = await again.send({ apiKey: 'otp_free', number: NUMBERS[5], message: 'x' });
    expect(refused.json).toMatchObject({ error: 'plan_limit_reached', limit: 'monthly', retryAfter: 14 * 3600 });
    clock.set(Date.UTC(2026, 1, 1, 0, 0, 0));
    expect((await again.send({ apiKey: 'otp_free', number: NUMBERS[5], message: 'x' })).status).toBe(202);
  });

  it('refuses every send of a key without channel slots', async () => {
    const { send } = await start();
    expect((await send({ apiKey: 'otp_noslots', number: NUMBERS[0], message: 'x' })).json).toMatchObject({ error: 'plan_limit_reached', limit: 'channel_slots' });
  });

  it('answers 500 send_otp_failed when the job cannot be committed, and leaves nothing behind', async () => {
    const { service, send, dataDir } = await start();
    const other = new Database(path.join(dataDir.dir, 'service.db'));
    other.exec("CREATE TRIGGER refuse BEFORE INSERT ON otp_jobs BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    expect(await send({ apiKey: 'otp_paid', number: NUMBERS[0], message: 'x' })).toMatchObject({ status: 500, json: { error: 'send_otp_failed', message: expect.any(String) } });
    other.exec('DROP TRIGGER refuse');
    other.close();
    expect(service.otpInbox(NUMBERS[0] as string)).toEqual([]);
    // Nothing half-written: the interval limit does not see the failed send.
    expect((await send({ apiKey: 'otp_paid', number: NUMBERS[0], message: 'y' })).status).toBe(202);
  });

  it('reads the inbox with an unencoded + and refuses an invalid number', async () => {
    const { service } = await start();
    expect((await get(`${service.otpUrl}/_emulator/otp/messages?number=+14155552671`)).json).toEqual({ number: '+14155552671', messages: [] });
    expect((await get(`${service.otpUrl}/_emulator/otp/messages?number=%2B14155552671`)).status).toBe(200);
    expect((await get(`${service.otpUrl}/_emulator/otp/messages?number=abc`)).json.error).toBe('invalid_number');
  });
});

import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfter } from '../../../demo/service/backoff.ts';
import { fillTemplate } from '../../../demo/service/fill-template.ts';
import { normalizePhoneNumber } from '../../../demo/service/phone-number.ts';
import { checkPlanLimits } from '../../../demo/service/plan-limits.ts';
import { parseServiceConfig } from '../../../demo/service/service-config.ts';

describe('backoffDelayMs', () => {
  const policy = (random: number) => ({ baseMs: 1000, maxMs: 60_000, random: () => random });
  it('doubles per try, jitters within the upper half, caps, and takes Retry-After as a floor', () => {
    expect([2, 3, 4, 5].map((next) => backoffDelayMs(next, policy(0)))).toEqual([500, 1000, 2000, 4000]);
    expect([2, 3, 4, 5].map((next) => backoffDelayMs(next, policy(0.999)))).toEqual([1000, 1999, 3998, 7996]);
    expect(backoffDelayMs(20, policy(1))).toBe(60_000);
    expect(backoffDelayMs(2, policy(0), 7)).toBe(7000);
  });
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('12', 0)).toBe(12);
    expect(parseRetryAfter(new Date(30_000).toUTCString(), 0)).toBe(30);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});

describe('fillTemplate', () => {
  it('fills names, leaves missing ones empty, ignores the prototype', () => {
    expect(fillTemplate('Hi {{name}}, {{ shop }}!{{gone}}', { name: 'Ann', shop: 'Shop' })).toBe('Hi Ann, Shop!');
    expect(fillTemplate('{{__proto__}}{{constructor}}{{toString}}', {})).toBe('');
    expect(fillTemplate('{{a}}', { a: '{{b}}', b: 'no' })).toBe('{{b}}');
  });
});

describe('normalizePhoneNumber', () => {
  it('strips spaces, dashes and dots and checks real numbering plans', () => {
    expect(normalizePhoneNumber('+1 415-555.2671')).toBe('+14155552671');
    expect(normalizePhoneNumber('+44 20 7183 8750')).toBe('+442071838750');
    expect(normalizePhoneNumber('+15551234567')).toBeNull();
    expect(normalizePhoneNumber('+1 (415) 5552671')).toBeNull();
    expect(normalizePhoneNumber('004915123456789')).toBeNull();
  });
});

describe('checkPlanLimits', () => {
  const plan = { key: 'k', plan: 'free' as const, monthlyLimit: 10, dailyLimit: 2, minIntervalSeconds: 30, channelSlots: 1 };
  const now = Date.UTC(2026, 5, 30, 23, 59, 0);
  it('checks monthly, daily (free only), interval, channel slots in that order', () => {
    expect(checkPlanLimits(plan, { thisMonth: 10, today: 5, lastToNumber: now }, now)).toEqual({ allowed: false, limit: 'monthly', retryAfterSeconds: 60 });
    expect(checkPlanLimits(plan, { thisMonth: 2, today: 2, lastToNumber: now }, now)).toMatchObject({ limit: 'daily', retryAfterSeconds: 60 });
    expect(checkPlanLimits({ ...plan, plan: 'paid' }, { thisMonth: 2, today: 2, lastToNumber: null }, now)).toEqual({ allowed: true });
    expect(checkPlanLimits(plan, { thisMonth: 1, today: 1, lastToNumber: now - 29_500 }, now)).toMatchObject({ limit: 'interval', retryAfterSeconds: 1 });
    expect(checkPlanLimits({ ...plan, channelSlots: 0 }, { thisMonth: 0, today: 0, lastToNumber: null }, now)).toMatchObject({ limit: 'channel_slots' });
  });
});

describe('parseServiceConfig', () => {
  it('fills the defaults of decisions.md and names the first wrong field', () => {
    const config = parseServiceConfig({ otp: { keys: [{ key: 'otp_test' }] }, push: { workspaces: [{ id: 'ws1', serverKeys: ['sk_test'] }] } });
    expect(config.otp.keys[0]).toEqual({ key: 'otp_test', plan: 'paid', monthlyLimit: 1000, dailyLimit: 50, minIntervalSeconds: 30, channelSlots: 1 });
    expect(config.push.workspaces[0]).toMatchObject({ rateLimitPerMinute: 600, browserRegistration: { enabled: false, allowedOrigins: [] }, templates: [] });
    expect(config.push.ttlSeconds).toBe(2_419_200);
    expect(() => parseServiceConfig({ otp: { keys: [{ key: 'k', plan: 'gold' }] } })).toThrow(/otp\.keys\[0\]\.plan/);
    expect(() => parseServiceConfig({ push: { workspaces: [{ id: 'a', serverKeys: ['same'] }, { id: 'b', clientKeys: ['same'] }] } })).toThrow(/distinct/);
  });
});

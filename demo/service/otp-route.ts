import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findByKey, keyFingerprint } from './api-key.ts';
import { HttpError, isJsonObject, NOT_JSON, readJson, sendJson } from './http-json.ts';
import type { OtpStore } from './otp-store.ts';
import { normalizePhoneNumber } from './phone-number.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { OtpKeyConfig } from './service-config.ts';

/** What Interface A's route needs. */
export interface OtpRouteOptions {
  keys: readonly OtpKeyConfig[];
  routeLimitPerMinute: number;
  limiter: RateLimiter;
  store: OtpStore;
  /** Told after a job was committed. */
  onAccepted: () => void;
}

const FIELDS = ['apiKey', 'number', 'message'] as const;
const MAX_MESSAGE = 1024;

/**
 * `POST /api/send-otp`, with its checks in the order of decisions.md: body shape, missing
 * fields, route limiter, API key, number, plan limits, queueing.
 */
export function createOtpRoute(options: OtpRouteOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const parsed = await readJson(request);
    const body: Record<string, unknown> = parsed !== NOT_JSON && isJsonObject(parsed) ? parsed : {};
    const field = (name: string): unknown => (Object.hasOwn(body, name) ? body[name] : undefined);
    const missing = FIELDS.filter((name) => {
      const value = field(name);
      return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    });
    if (missing.length > 0) {
      throw new HttpError(400, 'missing_fields', `Missing required fields: ${missing.join(', ')}.`, { fields: missing });
    }
    const wrongType = FIELDS.filter((name) => typeof field(name) !== 'string');
    if (wrongType.length > 0) throw new HttpError(400, 'invalid_request', `These fields must be strings: ${wrongType.join(', ')}.`, { fields: wrongType });
    const apiKey = field('apiKey') as string;
    const message = (field('message') as string).trim();
    if ([...message].length > MAX_MESSAGE) {
      throw new HttpError(400, 'invalid_request', `message must be at most ${MAX_MESSAGE} characters.`, { fields: ['message'] });
    }

    const plan = findByKey(apiKey, options.keys, (entry) => entry.key);
    const keyHash = plan ? keyFingerprint(plan.key) : null;
    // A valid key is its own bucket; guesses share their address's bucket.
    const bucket = keyHash ? `otp:key:${keyHash}` : `otp:ip:${request.socket.remoteAddress ?? 'unknown'}`;
    const rate = options.limiter.take(bucket, options.routeLimitPerMinute);
    if (!rate.allowed) {
      throw new HttpError(429, 'rate_limited', 'Too many requests.', { retryAfter: rate.retryAfterSeconds });
    }
    if (!plan || !keyHash) throw new HttpError(401, 'invalid_api_key', 'Invalid API key.');

    const number = normalizePhoneNumber(field('number') as string);
    if (number === null) throw new HttpError(400, 'invalid_number', 'The number is not a valid phone number in E.164 form.');

    const jobId = randomUUID();
    let decision;
    try {
      decision = options.store.accept({ jobId, keyHash, plan, number, message });
    } catch (cause) {
      // The transaction rolled back: nothing of the job remains.
      throw new HttpError(500, 'send_otp_failed', 'Queueing the message failed.', {}, { cause });
    }
    if (!decision.allowed) {
      throw new HttpError(429, 'plan_limit_reached', `The plan's ${decision.limit} limit has been reached.`, {
        limit: decision.limit,
        retryAfter: decision.retryAfterSeconds,
      });
    }
    options.onAccepted();
    sendJson(response, 202, { jobId, accepted: true });
  };
}

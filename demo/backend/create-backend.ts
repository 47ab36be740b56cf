import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';
import type { RegisterRequest } from '../../src/common/register-request.ts';
import { createNotificationClient } from '../clients/notification-client.ts';
import { createOtpClient } from '../clients/otp-client.ts';
import { ServiceError } from '../clients/service-error.ts';
import { HttpError, isJsonObject, readJsonObject, sendError, sendJson } from '../service/http-json.ts';
import { BackendError } from './backend-error.ts';
import { describeServiceError } from './describe-service-error.ts';
import { createOtpVerifier, type OtpVerifier } from './otp-verifier.ts';
import { EXAMPLE_PHONE_NUMBER, parsePhoneNumber } from './parse-phone-number.ts';
import { parseSendRequest } from './parse-send-request.ts';

/** Options of {@link createBackend}. */
export interface BackendOptions {
  /** Interface B: its address `{push_base_url}`, the server key, and the VAPID public key the page subscribes with. */
  push: { baseUrl: string; apiKey: string; vapidPublicKey: string };
  /**
   * Interface A: its address `{base_url}` and key. `emulatedInbox` when it is the local service,
   * whose `/_emulator/otp/messages` the page's "messaging app" panel reads through this backend.
   */
  otp: { baseUrl: string; apiKey: string; emulatedInbox: boolean };
  /** Template ids the page offers as suggestions. */
  templates?: string[];
  /** The built page (dist/demo). */
  pageDir: string;
  /** Directory holding the built `pushbridge-sw.js` (dist). */
  workerDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Where verification codes are kept; in memory by default. */
  otpVerifier?: OtpVerifier;
}

/** A running example backend. */
export interface Backend {
  url: string;
  close(): Promise<void>;
}

/** What the page learns from `GET /api/config`: public values only. */
export interface PageConfig {
  vapidPublicKey: string;
  emulatedOtpInbox: boolean;
  templates: string[];
  examplePhoneNumber: string;
}

function sendFailure(response: ServerResponse, error: unknown): void {
  if (error instanceof ServiceError) {
    const extra = {
      ...(error.retryAfter === null ? {} : { retryAfter: error.retryAfter }),
      ...(error.limit === undefined ? {} : { limit: error.limit }),
      ...(error.details === undefined ? {} : { details: error.details }),
    };
    const headers: Record<string, string> = error.retryAfter === null ? {} : { 'retry-after': String(error.retryAfter) };
    sendJson(response, error.status, { error: error.code, message: describeServiceError(error), ...extra }, headers);
  } else if (error instanceof BackendError) {
    const extra = { ...(error.field === undefined ? {} : { field: error.field }), ...(error.attemptsLeft === undefined ? {} : { attemptsLeft: error.attemptsLeft }) };
    sendJson(response, error.status, { error: error.code, message: error.message, ...extra });
  } else {
    // HttpError for bad bodies; anything else is a 500 whose text is never shown (it may hold a key).
    sendError(response, error);
  }
}

/**
 * The example "caller's backend": serves the page and the worker, gives the page its public
 * configuration, and makes every call to the service with keys the page never sees (Interface
 * B's server key in `X-API-Key`, Interface A's key in the body). It validates input before
 * spending a call, issues and checks phone verification codes, and answers the service's errors
 * as `{error, message, retryAfter?, limit?}` with a message written for a person.
 *
 * @example
 * ```ts
 * const backend = await createBackend({
 *   push: { baseUrl: PUSH_BASE_URL, apiKey: PUSH_API_KEY, vapidPublicKey },
 *   otp: { baseUrl: OTP_BASE_URL, apiKey: OTP_API_KEY, emulatedInbox: false },
 *   pageDir: 'dist/demo', workerDir: 'dist',
 * });
 * ```
 */
export async function createBackend(options: BackendOptions): Promise<Backend> {
  const push = createNotificationClient({ baseUrl: options.push.baseUrl, apiKey: options.push.apiKey });
  const otp = createOtpClient({ baseUrl: options.otp.baseUrl, apiKey: options.otp.apiKey });
  const codes = options.otpVerifier ?? createOtpVerifier();
  const page = sirv(options.pageDir, { single: true, dev: false, etag: true });
  const worker = sirv(options.workerDir, { dev: false, etag: true });
  const pageConfig: PageConfig = {
    vapidPublicKey: options.push.vapidPublicKey,
    emulatedOtpInbox: options.otp.emulatedInbox,
    templates: options.templates ?? [],
    examplePhoneNumber: EXAMPLE_PHONE_NUMBER,
  };

  async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
    return readJsonObject(request, 'invalid_request');
  }

  async function api(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case 'GET /api/config':
        sendJson(response, 200, pageConfig);
        return;
      case 'POST /api/push/register': {
        // A real backend takes recipientId from its session; the demo has no sign-in, so the page says who it is.
        const body = (await readBody(request)) as unknown as RegisterRequest;
        const result = await push.registerSubscriber(body);
        sendJson(response, result.created ? 201 : 200, { subscriberId: result.subscriberId, deviceId: result.deviceId });
        return;
      }
      case 'POST /api/push/send':
        sendJson(response, 202, await push.sendNotification(parseSendRequest(await readBody(request))));
        return;
      case 'POST /api/otp/send': {
        const number = parsePhoneNumber((await readBody(request)).number);
        const issued = codes.issue(number);
        const { jobId } = await otp.sendOtp({ number, message: `Your pushbridge demo code is ${issued.code}. It expires in 5 minutes.` });
        issued.commit();
        sendJson(response, 202, { jobId, number });
        return;
      }
      case 'POST /api/otp/verify': {
        const body = await readBody(request);
        const number = parsePhoneNumber(body.number);
        const code = typeof body.code === 'string' ? body.code.replace(/\s/g, '') : '';
        if (!/^\d{6}$/.test(code)) throw new BackendError(400, 'invalid_code_format', 'Enter the 6 digits of the code.', { field: 'code' });
        codes.verify(number, code);
        sendJson(response, 200, { verified: true, number });
        return;
      }
      case 'GET /api/otp/messages': {
        if (!options.otp.emulatedInbox) throw new BackendError(404, 'emulator_unavailable', 'Messages go to the real messaging app; there is no emulated inbox.');
        const number = parsePhoneNumber(url.searchParams.get('number') ?? '');
        const answer = await fetch(`${options.otp.baseUrl.replace(/\/+$/, '')}/_emulator/otp/messages?number=${encodeURIComponent(number)}`, {
          signal: AbortSignal.timeout(5000),
        });
        const json: unknown = await answer.json();
        if (!answer.ok || !isJsonObject(json) || !Array.isArray(json.messages)) throw new HttpError(502, 'internal_error', 'The emulated inbox did not answer.');
        const messages = (json.messages as unknown[]).filter(isJsonObject).map((item) => ({ text: String(item.message), at: String(item.deliveredAt) }));
        sendJson(response, 200, { number, messages });
        return;
      }
      default:
        throw new BackendError(404, 'not_found', 'No such route.');
    }
  }

  const server = createServer((request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://local');
    } catch {
      sendJson(response, 400, { error: 'invalid_request', message: 'Unreadable URL.' });
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      api(request, response, url).catch((error: unknown) => {
        if (response.headersSent) response.destroy();
        else sendFailure(response, error);
      });
      return;
    }
    if (url.pathname === '/pushbridge-sw.js') {
      worker(request, response, () => sendJson(response, 404, { error: 'not_found', message: 'Run npm run build first.' }));
      return;
    }
    page(request, response, () => sendJson(response, 404, { error: 'not_found', message: 'No such page. Run npm run build first.' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

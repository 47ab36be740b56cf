import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body the service reads (decisions.md: 16 KiB, else 413). */
export const MAX_BODY_BYTES = 16 * 1024;

/** Every error code the local service answers with (decisions.md). */
export type ErrorCode =
  | 'missing_fields'
  | 'invalid_request'
  | 'invalid_number'
  | 'invalid_api_key'
  | 'rate_limited'
  | 'plan_limit_reached'
  | 'send_otp_failed'
  | 'validation_error'
  | 'subscription_conflict'
  | 'title_body_required'
  | 'template_not_found'
  | 'recipient_not_found'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal_error';

/**
 * An HTTP error answer in the shape decisions.md gives: `{error, message, ...extra}`. A 429
 * with `extra.retryAfter` also gets the `Retry-After` header.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpError';
  }
}

/** What {@link readJson} returns for a body that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * Read a JSON body, at most {@link MAX_BODY_BYTES}; {@link NOT_JSON} when it does not parse.
 *
 * @throws {@link HttpError} 413 `payload_too_large`.
 */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const tooLarge = (): HttpError => new HttpError(413, 'payload_too_large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Whether a parsed body is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Read a JSON object body, at most {@link MAX_BODY_BYTES}.
 *
 * @throws {@link HttpError} 413 `payload_too_large`, or 400 `invalidCode` for a body that is
 * not JSON or not an object.
 */
export async function readJsonObject(request: IncomingMessage, invalidCode: ErrorCode): Promise<Record<string, unknown>> {
  const value = await readJson(request);
  if (value === NOT_JSON) throw new HttpError(400, invalidCode, 'The body is not valid JSON.');
  if (!isJsonObject(value)) throw new HttpError(400, invalidCode, 'The body must be a JSON object.');
  return value;
}

/** Answer with a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Answer with an {@link HttpError}, or a 500 for anything else (never its text: it may hold secrets). */
export function sendError(response: ServerResponse, error: unknown, internalCode: ErrorCode = 'internal_error'): void {
  if (error instanceof HttpError) {
    const headers: Record<string, string> = {};
    if (typeof error.extra.retryAfter === 'number') headers['retry-after'] = String(error.extra.retryAfter);
    // The rest of an oversized body is not worth reading: close once answered.
    if (error.status === 413) headers.connection = 'close';
    sendJson(response, error.status, { error: error.code, message: error.message, ...error.extra }, headers);
  } else {
    sendJson(response, 500, { error: internalCode, message: 'Internal error.' });
  }
}

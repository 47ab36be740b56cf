import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body the service reads (decisions.md: 16 KiB, else 413). */
export const MAX_BODY_BYTES = 16 * 1024;

/** An HTTP error answer in the shape decisions.md gives: `{error, message, ...extra}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * Read a JSON object body, at most {@link MAX_BODY_BYTES}.
 *
 * @throws {@link HttpError} 413 `payload_too_large`, or 400 `invalidCode` for a body that is
 * not JSON or not an object.
 */
export async function readJsonObject(request: IncomingMessage, invalidCode: string): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, invalidCode, 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, invalidCode, 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Answer with a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Answer with an {@link HttpError}, or a 500 for anything else (never its text: it may hold secrets). */
export function sendError(response: ServerResponse, error: unknown, internalCode = 'internal_error'): void {
  if (error instanceof HttpError) {
    sendJson(response, error.status, { error: error.code, message: error.message, ...error.extra });
  } else {
    sendJson(response, 500, { error: internalCode, message: 'Internal error.' });
  }
}

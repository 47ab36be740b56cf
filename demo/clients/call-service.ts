import { ServiceError, toServiceErrorCode } from './service-error.ts';

/** How a client reaches the service and how long it keeps trying. */
export interface CallOptions {
  baseUrl: string;
  /** Time from the call to giving up, retries included; 10 000 ms by default. */
  deadlineMs?: number;
  /** Delay before the first retry, doubled each time, with jitter; 250 ms. */
  retryBaseMs?: number;
  /** What sends requests; global fetch. */
  fetch?: typeof fetch;
  /** How to wait between tries; setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source; Math.random. */
  random?: () => number;
  /** Current time in ms; Date.now. */
  now?: () => number;
}

/** One call: where, what, and whether sending it twice is harmless. */
export interface CallRequest {
  path: string;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * Whether sending the request twice is harmless (register is; a send might queue twice). An
   * idempotent request is retried after 429, any 5xx and any network error. Any other is retried
   * only when the service cannot have acted on it: 429 (refused before queueing), 503 with
   * `Retry-After` (the service itself asks for a retry) and a refused connection. A 500, 502 or
   * 504 may come from a gateway after the service committed, so it is thrown, not retried.
   */
  idempotent: boolean;
}

/** A success answer. */
export interface CallResult {
  status: number;
  json: Record<string, unknown>;
}

const sleepWithTimers = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterOf(response: Response, json: Record<string, unknown>): number | null {
  const header = Number(response.headers.get('retry-after'));
  if (Number.isFinite(header) && header >= 0 && response.headers.get('retry-after') !== null) return header;
  return typeof json.retryAfter === 'number' ? json.retryAfter : null;
}

function errorOf(response: Response, json: Record<string, unknown>): ServiceError {
  return new ServiceError(
    response.status,
    toServiceErrorCode(json.error),
    typeof json.message === 'string' ? json.message : `The service answered ${response.status}.`,
    retryAfterOf(response, json),
    {
      ...(Array.isArray(json.details) ? { details: json.details as { field: string; problem: string }[] } : {}),
      ...(Array.isArray(json.fields) ? { fields: json.fields as string[] } : {}),
      ...(typeof json.limit === 'string' ? { limit: json.limit as 'monthly' } : {}),
    },
  );
}

/** Whether fetch failed before the request could reach the service. */
function neverSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** Whether an error answer may be tried again (see {@link CallRequest.idempotent}). */
function retryable(failure: ServiceError, idempotent: boolean): boolean {
  if (failure.status === 429) return true;
  if (failure.status < 500) return false;
  return idempotent || (failure.status === 503 && failure.retryAfter !== null);
}

/**
 * POST JSON to `{baseUrl}{path}` (the base URL's own path is kept: `https://api.example.com/push`
 * reaches `https://api.example.com/push/v1/send`) and read the JSON answer. Retryable answers
 * (429 and 5xx for idempotent requests; 429, 503 with `Retry-After` and refused connections for
 * the others) are tried again with exponential backoff and jitter, waiting at least what
 * `Retry-After` asks, as long as the deadline allows; a wait that would pass the deadline is not
 * started and the last error is thrown instead.
 *
 * @throws {@link ServiceError} for an error answer, no answer, or the deadline.
 */
export async function callService(options: CallOptions, request: CallRequest): Promise<CallResult> {
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? sleepWithTimers;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const deadline = now() + (options.deadlineMs ?? 10_000);
  const baseMs = options.retryBaseMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    const remaining = deadline - now();
    if (remaining <= 0) throw new ServiceError(504, 'timeout', 'The service did not answer before the deadline.');
    let failure: ServiceError;
    try {
      // Not `new URL(path, base)`: an absolute path would drop the base URL's own path.
      const response = await send(`${options.baseUrl.replace(/\/+$/, '')}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(Math.ceil(remaining)),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok) return { status: response.status, json: typeof json === 'object' && json !== null ? json : {} };
      failure = errorOf(response, json);
      if (!retryable(failure, request.idempotent)) throw failure;
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if ((error as { name?: unknown }).name === 'TimeoutError') {
        throw new ServiceError(504, 'timeout', 'The service did not answer before the deadline.', null, { cause: error });
      }
      failure = new ServiceError(503, 'service_unreachable', 'The service could not be reached.', null, { cause: error });
      if (!request.idempotent && !neverSent(error)) throw failure;
    }
    const exponential = baseMs * 2 ** (attempt - 1);
    const wait = Math.round(Math.max(exponential / 2 + (exponential / 2) * random(), (failure.retryAfter ?? 0) * 1000));
    if (now() + wait >= deadline) throw failure;
    await sleep(wait);
  }
}

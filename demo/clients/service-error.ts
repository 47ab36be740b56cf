/** Every code a {@link ServiceError} carries: the service's own, then the client's. */
export type ServiceErrorCode =
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
  | 'internal_error'
  /** No answer: connection refused or reset. */
  | 'service_unreachable'
  /** The caller's deadline passed. */
  | 'timeout'
  /** An error answer without a known code. */
  | 'unknown_error';

/** Structured fields of a {@link ServiceError}, beyond status, code and retryAfter. */
export interface ServiceErrorDetails {
  /** Interface B's per-field problems of a validation error. */
  details?: { field: string; problem: string }[];
  /** Interface A's missing or wrong fields. */
  fields?: string[];
  /** Interface A's plan limit that was reached. */
  limit?: 'monthly' | 'daily' | 'interval' | 'channel_slots';
  cause?: unknown;
}

const CODES = new Set<string>([
  'missing_fields', 'invalid_request', 'invalid_number', 'invalid_api_key', 'rate_limited', 'plan_limit_reached', 'send_otp_failed',
  'validation_error', 'subscription_conflict', 'title_body_required', 'template_not_found', 'recipient_not_found', 'payload_too_large',
  'not_found', 'method_not_allowed', 'internal_error',
]);

/** The known code of an answer's `error`, or `unknown_error`. */
export function toServiceErrorCode(value: unknown): ServiceErrorCode {
  return typeof value === 'string' && CODES.has(value) ? (value as ServiceErrorCode) : 'unknown_error';
}

/**
 * The one error the service clients throw: an error answer of the hosted service (or the local
 * one), or no answer at all. `status` is the HTTP status, `retryAfter` the
 * seconds the service asked to wait, when it did. Without an answer the status is 503
 * (`service_unreachable`) or 504 (`timeout`), so that a backend can pass it on as is.
 */
export class ServiceError extends Error {
  readonly details: ServiceErrorDetails['details'];
  readonly fields: string[] | undefined;
  readonly limit: ServiceErrorDetails['limit'];

  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    readonly retryAfter: number | null = null,
    extra: ServiceErrorDetails = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ServiceError';
    this.details = extra.details;
    this.fields = extra.fields;
    this.limit = extra.limit;
  }
}

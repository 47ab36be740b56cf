/**
 * An error answer of the hosted service (or the local one): HTTP status, the machine code of
 * its `{error, message}` body, and `Retry-After` in seconds when it gave one.
 */
export class ServiceError extends Error {
  /** Interface B's per-field `details` of a validation error. */
  readonly details: unknown;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null = null,
    options?: { cause?: unknown; details?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.details = options?.details;
  }
}

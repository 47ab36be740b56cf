/** Every code the example backend answers with, beyond the service's own codes it passes on. */
export type BackendErrorCode =
  | 'invalid_request'
  | 'invalid_number'
  | 'invalid_code_format'
  | 'invalid_url'
  | 'title_body_required'
  | 'no_code_pending'
  | 'code_expired'
  | 'wrong_code'
  | 'too_many_attempts'
  | 'emulator_unavailable'
  | 'not_found';

/** Structured fields of a {@link BackendError}. */
export interface BackendErrorDetails {
  /** The request field at fault, for the page to point at. */
  field?: string;
  /** Verification attempts left for the pending code. */
  attemptsLeft?: number;
  cause?: unknown;
}

/**
 * The one error of the example backend's own checks (input validation, code verification).
 * Errors of the service arrive as the clients' `ServiceError` and are mapped separately.
 */
export class BackendError extends Error {
  readonly field: string | undefined;
  readonly attemptsLeft: number | undefined;

  constructor(
    readonly status: number,
    readonly code: BackendErrorCode,
    message: string,
    details: BackendErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'BackendError';
    this.field = details.field;
    this.attemptsLeft = details.attemptsLeft;
  }
}

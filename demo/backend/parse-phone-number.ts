import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { BackendError } from './backend-error.ts';

/** A fictional number (555-01XX) that numbering plans still accept; the page shows it as the example. */
export const EXAMPLE_PHONE_NUMBER = '+1 202 555 0123';

/**
 * The E.164 form of what a person typed: spaces, dashes, dots and brackets are tolerated. The
 * backend checks before spending a message, so a typo is answered at once and never counts
 * against the plan.
 *
 * @throws {@link BackendError} 400 `invalid_number`.
 */
export function parsePhoneNumber(input: unknown): string {
  const refuse = (cause?: unknown): BackendError =>
    new BackendError(400, 'invalid_number', `Enter the number in international form, with + and the country code, such as ${EXAMPLE_PHONE_NUMBER}.`, {
      field: 'number',
      ...(cause === undefined ? {} : { cause }),
    });
  if (typeof input !== 'string') throw refuse();
  const stripped = input.replace(/[\s.()-]/g, '');
  if (!/^\+[1-9]\d{7,14}$/.test(stripped)) throw refuse();
  try {
    const parsed = parsePhoneNumberWithError(stripped);
    if (!parsed.isValid()) throw refuse();
    return parsed.number;
  } catch (error) {
    throw error instanceof BackendError ? error : refuse(error);
  }
}

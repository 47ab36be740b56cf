import { parsePhoneNumberWithError } from 'libphonenumber-js/max';

/**
 * The E.164 form of `input`, or null when it is not a valid number (decisions.md): spaces,
 * dashes and dots are stripped, then it must be `+` and 8 to 15 digits, first digit not 0, and
 * valid in its country's real numbering plan (libphonenumber's full metadata).
 */
export function normalizePhoneNumber(input: string): string | null {
  const stripped = input.replace(/[\s.-]/g, '');
  if (!/^\+[1-9]\d{7,14}$/.test(stripped)) return null;
  try {
    const parsed = parsePhoneNumberWithError(stripped);
    return parsed.isValid() ? parsed.number : null;
  } catch {
    return null;
  }
}

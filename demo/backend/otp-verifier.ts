import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { BackendError } from './backend-error.ts';

/** Options of {@link createOtpVerifier}. */
export interface OtpVerifierOptions {
  /** HMAC key for the stored codes; 32 random bytes made at creation by default (codes die with the process). */
  secret?: Buffer;
  /** How long a code is valid; 5 minutes. */
  ttlMs?: number;
  /** Wrong tries before a code is dropped; 5. */
  maxAttempts?: number;
  /** Current time in ms; Date.now. */
  now?: () => number;
}

/** A code waiting to be sent: commit it once the message is queued, so a refused send leaves the previous code alone. */
export interface IssuedCode {
  /** The six digits, for the message text only: never stored. */
  code: string;
  /** Make this code the number's pending one, replacing any earlier one. */
  commit(): void;
}

/** Verification codes of phone numbers, kept in this process's memory. */
export interface OtpVerifier {
  /** A fresh random six-digit code for `number` (E.164). */
  issue(number: string): IssuedCode;
  /**
   * Check `code` against the pending code of `number`. A match consumes it.
   *
   * @throws {@link BackendError} `no_code_pending`, `code_expired`, `wrong_code` (with
   * `attemptsLeft`) or `too_many_attempts`.
   */
  verify(number: string, code: string): void;
}

interface Pending {
  digest: Buffer;
  expiresAt: number;
  attemptsLeft: number;
}

/**
 * The demo backend's code store: codes are kept as HMAC-SHA-256 digests under a server secret
 * (a leaked store does not reveal them, and a six-digit space is too small for a plain hash),
 * compared with `timingSafeEqual`, valid 5 minutes, dropped after 5 wrong tries. State is in
 * memory: a real backend would keep it in its database, shared by its instances.
 *
 * @example
 * ```ts
 * const otp = createOtpVerifier();
 * const issued = otp.issue('+12025550123');
 * await sendOtp({ number, message: `Your code is ${issued.code}` });
 * issued.commit();
 * otp.verify('+12025550123', '123456'); // throws BackendError unless it matches
 * ```
 */
export function createOtpVerifier(options: OtpVerifierOptions = {}): OtpVerifier {
  const secret = options.secret ?? randomBytes(32);
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const now = options.now ?? Date.now;
  const pending = new Map<string, Pending>();
  const digestOf = (number: string, code: string): Buffer => createHmac('sha256', secret).update(`${number}\u0000${code}`).digest();

  function sweep(): void {
    // Bounded memory without a timer: expired entries go whenever a code is issued.
    const time = now();
    for (const [number, entry] of pending) if (entry.expiresAt <= time) pending.delete(number);
  }

  return {
    issue(number) {
      sweep();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      return {
        code,
        commit() {
          pending.set(number, { digest: digestOf(number, code), expiresAt: now() + ttlMs, attemptsLeft: maxAttempts });
        },
      };
    },
    verify(number, code) {
      const entry = pending.get(number);
      if (!entry) throw new BackendError(400, 'no_code_pending', 'There is no code waiting for this number. Ask for a new code.');
      if (entry.expiresAt <= now()) {
        pending.delete(number);
        throw new BackendError(400, 'code_expired', 'That code has expired (codes last 5 minutes). Ask for a new code.');
      }
      entry.attemptsLeft -= 1;
      if (timingSafeEqual(entry.digest, digestOf(number, code))) {
        pending.delete(number);
        return;
      }
      if (entry.attemptsLeft <= 0) {
        pending.delete(number);
        throw new BackendError(400, 'too_many_attempts', `Too many wrong codes (${maxAttempts}). Ask for a new code.`, { attemptsLeft: 0 });
      }
      const tries = entry.attemptsLeft === 1 ? '1 try' : `${entry.attemptsLeft} tries`;
      throw new BackendError(400, 'wrong_code', `That code is not right. ${tries} left.`, { attemptsLeft: entry.attemptsLeft });
    },
  };
}

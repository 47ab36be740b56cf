/** Where the service reads the time; tests inject one they can move. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real clock. */
export function systemClock(): Clock {
  return { now: () => Date.now() };
}

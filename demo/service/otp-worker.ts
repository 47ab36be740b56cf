import type { OtpStore } from './otp-store.ts';

/** Delivers accepted OTP jobs to the emulated messaging-app inbox, after the answer. */
export interface OtpWorker {
  kick(): void;
  close(): void;
}

/**
 * Deliver queued jobs on a later turn of the event loop, so that acceptance and delivery stay
 * separate as on the hosted service; jobs left queued by a crash are delivered at start.
 */
export function createOtpWorker(store: OtpStore): OtpWorker {
  let closed = false;
  let scheduled = false;
  const run = (): void => {
    scheduled = false;
    if (closed) return;
    for (let jobs = store.queued(500); jobs.length > 0 && !closed; jobs = store.queued(500)) {
      store.markDelivered(jobs.map((job) => job.jobId));
    }
  };
  const kick = (): void => {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(run);
  };
  kick();
  return {
    kick,
    close() {
      closed = true;
    },
  };
}

import type { Clock } from './clock.ts';
import type { ServiceDatabase } from './database.ts';
import { checkPlanLimits, periodBounds, type PlanDecision } from './plan-limits.ts';
import type { OtpKeyConfig } from './service-config.ts';

/** A message in the emulated messaging-app inbox of a number. */
export interface InboxMessage {
  jobId: string;
  message: string;
  sentAt: string;
  deliveredAt: string;
}

/** OTP jobs: accepted, then delivered to the emulated inbox. */
export interface OtpStore {
  /**
   * Check the plan limits and, when they allow it, commit the job, in one transaction so that
   * two concurrent sends cannot both take the last unit of a limit.
   */
  accept(input: { jobId: string; keyHash: string; plan: OtpKeyConfig; number: string; message: string }): PlanDecision;
  /** Jobs accepted and not yet delivered, oldest first. */
  queued(limit: number): { jobId: string }[];
  markDelivered(jobIds: readonly string[]): void;
  /** The inbox of a number, newest first. */
  inbox(number: string): InboxMessage[];
}

/** The OTP store over the service database. */
export function createOtpStore(database: ServiceDatabase, clock: Clock): OtpStore {
  const countSince = database.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM otp_jobs WHERE key_hash = ? AND created_at >= ?');
  const lastTo = database.prepare<[string, string], { at: number | null }>('SELECT max(created_at) AS at FROM otp_jobs WHERE key_hash = ? AND number = ?');
  const insert = database.prepare("INSERT INTO otp_jobs (job_id, key_hash, number, message, state, created_at) VALUES (?, ?, ?, ?, 'queued', ?)");
  const queued = database.prepare<[number], { job_id: string }>("SELECT job_id FROM otp_jobs WHERE state = 'queued' ORDER BY created_at LIMIT ?");
  const deliver = database.prepare("UPDATE otp_jobs SET state = 'delivered', delivered_at = ? WHERE job_id = ? AND state = 'queued'");
  const inbox = database.prepare<[string], { job_id: string; message: string; created_at: number; delivered_at: number }>(
    "SELECT job_id, message, created_at, delivered_at FROM otp_jobs WHERE number = ? AND state = 'delivered' ORDER BY delivered_at DESC, created_at DESC, rowid DESC",
  );
  const accept = database.transaction((input: Parameters<OtpStore['accept']>[0]): PlanDecision => {
    const now = clock.now();
    const bounds = periodBounds(now);
    const decision = checkPlanLimits(
      input.plan,
      {
        thisMonth: countSince.get(input.keyHash, bounds.monthStart)?.n ?? 0,
        today: countSince.get(input.keyHash, bounds.dayStart)?.n ?? 0,
        lastToNumber: lastTo.get(input.keyHash, input.number)?.at ?? null,
      },
      now,
    );
    if (decision.allowed) insert.run(input.jobId, input.keyHash, input.number, input.message, now);
    return decision;
  });
  const markDelivered = database.transaction((jobIds: readonly string[]) => {
    const now = clock.now();
    for (const jobId of jobIds) deliver.run(now, jobId);
  });
  return {
    accept: (input) => accept(input),
    queued: (limit) => queued.all(limit).map((row) => ({ jobId: row.job_id })),
    markDelivered: (jobIds) => markDelivered(jobIds),
    inbox: (number) =>
      inbox.all(number).map((row) => ({
        jobId: row.job_id,
        message: row.message,
        sentAt: new Date(row.created_at).toISOString(),
        deliveredAt: new Date(row.delivered_at).toISOString(),
      })),
  };
}

import type { OtpKeyConfig } from './service-config.ts';

/** Which plan limit a send reached (decisions.md). */
export type PlanLimit = 'monthly' | 'daily' | 'interval' | 'channel_slots';

/** What the plan check needs to know about the key's past sends. */
export interface PlanUsage {
  /** Accepted jobs of the key since the start of this calendar month (UTC). */
  thisMonth: number;
  /** Accepted jobs of the key since the start of this UTC day. */
  today: number;
  /** When the key last sent to this number, if ever. */
  lastToNumber: number | null;
}

/** The outcome of the plan check. */
export type PlanDecision = { allowed: true } | { allowed: false; limit: PlanLimit; retryAfterSeconds: number };

/** Start of the UTC day and of the UTC calendar month of `now`, and the starts of the next ones. */
export function periodBounds(now: number): { dayStart: number; nextDay: number; monthStart: number; nextMonth: number } {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  return {
    dayStart: Date.UTC(year, month, day),
    nextDay: Date.UTC(year, month, day + 1),
    monthStart: Date.UTC(year, month, 1),
    nextMonth: Date.UTC(year, month + 1, 1),
  };
}

const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));

/**
 * Apply the four plan limits in the order decisions.md lists them: monthly, daily (free plan
 * only), minimum interval per number, channel slots. Channel slots are a count of connected
 * messaging channels: with none, no send can go out, whatever the wait.
 */
export function checkPlanLimits(plan: OtpKeyConfig, usage: PlanUsage, now: number): PlanDecision {
  const bounds = periodBounds(now);
  if (usage.thisMonth >= plan.monthlyLimit) return { allowed: false, limit: 'monthly', retryAfterSeconds: secondsUntil(bounds.nextMonth, now) };
  if (plan.plan === 'free' && usage.today >= plan.dailyLimit) return { allowed: false, limit: 'daily', retryAfterSeconds: secondsUntil(bounds.nextDay, now) };
  const intervalMs = plan.minIntervalSeconds * 1000;
  if (usage.lastToNumber !== null && now - usage.lastToNumber < intervalMs) {
    return { allowed: false, limit: 'interval', retryAfterSeconds: secondsUntil(usage.lastToNumber + intervalMs, now) };
  }
  if (plan.channelSlots < 1) return { allowed: false, limit: 'channel_slots', retryAfterSeconds: 60 };
  return { allowed: true };
}

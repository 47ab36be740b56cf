import type { RegistrationRecord } from './common/database.js';

/** A registration older than this is sent again, so the backend can drop devices that went quiet. */
export const REREGISTER_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** What the browser holds now, as {@link reconcile} needs it. */
export interface ReconcileInput {
  permission: NotificationPermission;
  /** The current subscription, or null. */
  subscription: { fingerprint: string; sameKey: boolean } | null;
  /** What the last hand-off stored. */
  record: RegistrationRecord | undefined;
  /** The recipient this page signs in as now. */
  recipientId: string;
  now: number;
}

/** What to do to make the backend's record match the browser. */
export type ReconcileAction =
  | { kind: 'none' }
  | { kind: 'register'; reason: 'unknown' | 'changed' | 'stale' | 'pending' }
  | { kind: 'resubscribe' }
  | { kind: 'rotate' }
  | { kind: 'forget'; reason: 'permission-revoked' | 'subscription-lost' };

/**
 * Decide, without side effects, how to bring the registration in line with the browser:
 * nothing when the fingerprint matches and the registration is fresh; a new register call when
 * it changed, is older than 7 days or is still pending; a new subscription when the VAPID key
 * differs; a fresh subscription when the registration belongs to another recipient (a user
 * switch by page load), so that the old user's endpoint never reaches the new user; forgetting the
 * record when permission was revoked or the subscription vanished.
 *
 * @example
 * ```ts
 * const action = reconcile({ permission: 'granted', subscription: { fingerprint, sameKey: true }, record, now: Date.now() });
 * if (action.kind === 'register') await handOff();
 * ```
 */
export function reconcile(input: ReconcileInput): ReconcileAction {
  const { permission, subscription, record, now } = input;
  if (permission !== 'granted' || !subscription) {
    if (!record) return { kind: 'none' };
    return { kind: 'forget', reason: permission === 'granted' ? 'subscription-lost' : 'permission-revoked' };
  }
  if (!subscription.sameKey) return { kind: 'resubscribe' };
  if (!record) return { kind: 'register', reason: 'unknown' };
  if (record.recipientId !== input.recipientId) return { kind: 'rotate' };
  if (record.fingerprint !== subscription.fingerprint) return { kind: 'register', reason: 'changed' };
  if (record.pending || record.registeredAt === null) return { kind: 'register', reason: 'pending' };
  if (now - record.registeredAt >= REREGISTER_AFTER_MS) return { kind: 'register', reason: 'stale' };
  return { kind: 'none' };
}

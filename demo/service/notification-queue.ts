import type { Clock } from './clock.ts';
import type { ServiceDatabase } from './database.ts';
import { remainingTtlSeconds } from './remaining-ttl.ts';

/** Where one device's delivery of one notification stands. */
export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'gone' | 'failed' | 'expired';

/** A notification's state (decisions.md): derived from its deliveries. */
export type NotificationState = 'queued' | 'delivering' | 'delivered' | 'failed' | 'expired';

/** What a queued notification needs: its payload and one delivery per device. */
export interface EnqueueInput {
  notificationId: string;
  workspace: string;
  recipientId: string;
  channel: 'push' | 'in_app';
  payload: string;
  ttlSeconds: number;
  deviceIds: readonly string[];
}

/** A delivery claimed for sending, with what is needed to send it. */
export interface ClaimedDelivery {
  notificationId: string;
  deviceId: string;
  /** Tries before this one. */
  tries: number;
  payload: string;
  ttlSeconds: number;
  createdAt: number;
  /** Null when the device was removed after the notification was queued. */
  device: { endpoint: string; p256dh: string; auth: string } | null;
}

/** One try of one delivery, as the emulator reports it. */
export interface DeliveryAttempt {
  notificationId: string;
  deviceId: string;
  /** 1-based. */
  try: number;
  /** The push service's HTTP status; null for a network error. */
  status: number | null;
  error: string | null;
  at: string;
}

/** The outcome of a try, to record. */
export interface DeliveryOutcome {
  notificationId: string;
  deviceId: string;
  try: number;
  status: number | null;
  error: string | null;
  /** The delivery's next state. */
  state: Exclude<DeliveryState, 'sending'>;
  /** When `state` is pending: when to try again. */
  nextAttemptAt?: number;
  /** Remove the device too (404/410). */
  removeDevice?: boolean;
}

/** A notification as `GET /_emulator/notifications/:id` shows it. */
export interface NotificationStatus {
  notificationId: string;
  recipientId: string;
  channel: 'push' | 'in_app';
  state: NotificationState;
  createdAt: string;
  payload: unknown;
  devices: { deviceId: string; state: DeliveryState; tries: number; lastStatus: number | null; lastError: string | null }[];
  attempts: DeliveryAttempt[];
}

/** The notification queue: notifications, their per-device deliveries and every attempt. */
export interface NotificationQueue {
  /** Commit the notification and its deliveries in one transaction. */
  enqueue(input: EnqueueInput): void;
  /** Take up to `limit` due deliveries, not already taken, and return them. */
  claim(limit: number): ClaimedDelivery[];
  /** Record outcomes in one transaction. */
  record(outcomes: readonly DeliveryOutcome[]): void;
  /** When the next pending delivery is due; null when none. */
  nextDueAt(): number | null;
  status(notificationId: string, workspace?: string): NotificationStatus | undefined;
  /** Every attempt, oldest first. */
  attempts(): DeliveryAttempt[];
}

interface AttemptRow {
  notification_id: string;
  device_id: string;
  try: number;
  status: number | null;
  error: string | null;
  at: number;
}

const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  notificationId: row.notification_id,
  deviceId: row.device_id,
  try: row.try,
  status: row.status,
  error: row.error,
  at: new Date(row.at).toISOString(),
});

/** Derive a notification's state from its deliveries' states and tries. */
export function notificationState(deliveries: readonly { state: DeliveryState; tries: number }[]): NotificationState {
  if (deliveries.length === 0) return 'failed';
  if (deliveries.some((d) => d.state === 'pending' || d.state === 'sending')) {
    return deliveries.some((d) => d.tries > 0 || d.state === 'sending') ? 'delivering' : 'queued';
  }
  if (deliveries.some((d) => d.state === 'delivered')) return 'delivered';
  if (deliveries.some((d) => d.state === 'expired')) return 'expired';
  return 'failed';
}

/** The notification queue over the service database. */
export function createNotificationQueue(database: ServiceDatabase, clock: Clock): NotificationQueue {
  const insertNotification = database.prepare(
    'INSERT INTO notifications (notification_id, workspace, recipient_id, channel, payload, ttl_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertDelivery = database.prepare(
    "INSERT INTO deliveries (notification_id, device_id, state, next_attempt_at, updated_at) VALUES (?, ?, 'pending', ?, ?)",
  );
  const due = database.prepare<[number, number], { notification_id: string; device_id: string; tries: number; payload: string; ttl_seconds: number; created_at: number; endpoint: string | null; p256dh: string | null; auth: string | null }>(
    `SELECT d.notification_id, d.device_id, d.tries, n.payload, n.ttl_seconds, n.created_at, v.endpoint, v.p256dh, v.auth
     FROM deliveries d JOIN notifications n ON n.notification_id = d.notification_id
     LEFT JOIN devices v ON v.device_id = d.device_id
     WHERE d.state = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
  );
  const updateDelivery = database.prepare(
    'UPDATE deliveries SET state = ?, tries = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE notification_id = ? AND device_id = ?',
  );
  const insertAttempt = database.prepare('INSERT INTO attempts (notification_id, device_id, try, status, error, at) VALUES (?, ?, ?, ?, ?, ?)');
  const deleteDevice = database.prepare('DELETE FROM devices WHERE device_id = ?');
  const nextDue = database.prepare<[], { at: number | null }>("SELECT min(next_attempt_at) AS at FROM deliveries WHERE state = 'pending'");
  const notification = database.prepare<[string], { notification_id: string; workspace: string; recipient_id: string; channel: 'push' | 'in_app'; payload: string; created_at: number }>(
    'SELECT * FROM notifications WHERE notification_id = ?',
  );
  const deliveriesOf = database.prepare<[string], { device_id: string; state: DeliveryState; tries: number; last_status: number | null; last_error: string | null }>(
    'SELECT device_id, state, tries, last_status, last_error FROM deliveries WHERE notification_id = ? ORDER BY rowid',
  );
  const attemptsOf = database.prepare<[string], AttemptRow>('SELECT * FROM attempts WHERE notification_id = ? ORDER BY id');
  const allAttempts = database.prepare<[], AttemptRow>('SELECT * FROM attempts ORDER BY id');

  const enqueue = database.transaction((input: EnqueueInput) => {
    const now = clock.now();
    insertNotification.run(input.notificationId, input.workspace, input.recipientId, input.channel, input.payload, input.ttlSeconds, now);
    for (const deviceId of input.deviceIds) insertDelivery.run(input.notificationId, deviceId, now, now);
  });
  // Deliveries being sent are known in memory only: a crash forgets them, and they are simply
  // pending again after a restart, without a write (and an fsync) per claim.
  const sending = new Set<string>();
  const keyOf = (notificationId: string, deviceId: string): string => `${notificationId}/${deviceId}`;
  // A delivery whose TTL ran out while it waited (downtime, a long Retry-After) is not sent:
  // the push service would drop it, or worse, show it late.
  const expire = database.transaction((rows: readonly { notification_id: string; device_id: string; tries: number }[], now: number) => {
    for (const row of rows) updateDelivery.run('expired', row.tries, now, null, 'TTL elapsed before sending', now, row.notification_id, row.device_id);
  });
  const claim = (limit: number): ClaimedDelivery[] => {
    const claimed: ClaimedDelivery[] = [];
    for (;;) {
      const now = clock.now();
      const rows = due.all(now, limit - claimed.length + sending.size).filter((row) => !sending.has(keyOf(row.notification_id, row.device_id)));
      const expired = rows.filter((row) => remainingTtlSeconds({ createdAt: row.created_at, ttlSeconds: row.ttl_seconds }, now) === 0);
      for (const row of rows.filter((candidate) => !expired.includes(candidate)).slice(0, limit - claimed.length)) {
        sending.add(keyOf(row.notification_id, row.device_id));
        claimed.push({
          notificationId: row.notification_id,
          deviceId: row.device_id,
          tries: row.tries,
          payload: row.payload,
          ttlSeconds: row.ttl_seconds,
          createdAt: row.created_at,
          device: row.endpoint === null ? null : { endpoint: row.endpoint, p256dh: row.p256dh as string, auth: row.auth as string },
        });
      }
      // Expired rows left the due set; look again for what they crowded out.
      if (expired.length === 0 || claimed.length >= limit) return claimed;
      expire(expired, now);
    }
  };
  const record = database.transaction((outcomes: readonly DeliveryOutcome[]) => {
    const now = clock.now();
    for (const outcome of outcomes) {
      if (outcome.try > 0) insertAttempt.run(outcome.notificationId, outcome.deviceId, outcome.try, outcome.status, outcome.error, now);
      updateDelivery.run(outcome.state, outcome.try, outcome.nextAttemptAt ?? now, outcome.status, outcome.error, now, outcome.notificationId, outcome.deviceId);
      if (outcome.removeDevice) deleteDevice.run(outcome.deviceId);
    }
  });

  return {
    enqueue: (input) => enqueue(input),
    claim,
    record(outcomes) {
      record(outcomes);
      for (const outcome of outcomes) sending.delete(keyOf(outcome.notificationId, outcome.deviceId));
    },
    nextDueAt: () => nextDue.get()?.at ?? null,
    status(notificationId, workspace) {
      const row = notification.get(notificationId);
      if (!row || (workspace !== undefined && row.workspace !== workspace)) return undefined;
      const devices = deliveriesOf.all(notificationId).map((d) => ({
        deviceId: d.device_id,
        state: d.state === 'pending' && sending.has(keyOf(notificationId, d.device_id)) ? ('sending' as const) : d.state,
        tries: d.tries,
        lastStatus: d.last_status,
        lastError: d.last_error,
      }));
      return {
        notificationId,
        recipientId: row.recipient_id,
        channel: row.channel,
        state: notificationState(devices),
        createdAt: new Date(row.created_at).toISOString(),
        payload: JSON.parse(row.payload) as unknown,
        devices,
        attempts: attemptsOf.all(notificationId).map(toAttempt),
      };
    },
    attempts: () => allAttempts.all().map(toAttempt),
  };
}

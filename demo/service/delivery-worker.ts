import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';
import type { Clock } from './clock.ts';
import { sendPush } from './deliver.ts';
import type { ClaimedDelivery, DeliveryOutcome, NotificationQueue } from './notification-queue.ts';
import { remainingTtlSeconds } from './remaining-ttl.ts';
import type { VapidSigner } from './vapid-signer.ts';

/** Options of {@link createDeliveryWorker}. */
export interface DeliveryWorkerOptions {
  queue: NotificationQueue;
  signer: VapidSigner;
  clock: Clock;
  /** Tries per delivery, the first included (decisions.md: 5). */
  maxTries: number;
  backoff: BackoffPolicy;
  /** Messages in flight at once. */
  concurrency: number;
  /** Bound of one request to a push service. */
  timeoutMs: number;
  send: typeof fetch;
  /** Told when deliveries were recorded (tests and the emulator wait on it). */
  onRecorded?: (outcomes: readonly DeliveryOutcome[]) => void;
}

/** Sends queued deliveries in the background. */
export interface DeliveryWorker {
  /** Look for due deliveries now (after an enqueue). */
  kick(): void;
  /** Take nothing new, finish and record what is in flight. */
  close(): Promise<void>;
}

/** Decide what a push service's answer means for the delivery (decisions.md, "Delivery"). */
export function outcomeOf(
  item: ClaimedDelivery,
  result: { status: number | null; error: string | null; retryAfterSeconds: number | null },
  options: Pick<DeliveryWorkerOptions, 'maxTries' | 'backoff'>,
  now: number,
): DeliveryOutcome {
  const thisTry = item.tries + 1;
  const base = { notificationId: item.notificationId, deviceId: item.deviceId, try: thisTry, status: result.status, error: result.error };
  const { status } = result;
  if (status !== null && status >= 200 && status < 300) return { ...base, state: 'delivered' };
  if (status === 404 || status === 410) return { ...base, state: 'gone', removeDevice: true };
  const retryable = status === null || status === 429 || status >= 500;
  if (!retryable) return { ...base, state: 'failed' };
  if (thisTry >= options.maxTries) return { ...base, state: 'failed' };
  const nextAttemptAt = now + backoffDelayMs(thisTry + 1, options.backoff, result.retryAfterSeconds);
  if (nextAttemptAt > item.createdAt + item.ttlSeconds * 1000) return { ...base, state: 'expired' };
  return { ...base, state: 'pending', nextAttemptAt };
}

/**
 * The delivery loop: claims due deliveries from the queue (in memory: a restart finds them
 * pending again), sends each as its own Web Push message, and records
 * outcomes in batches, one transaction per turn of the event loop, so that fan-out to
 * thousands of devices does not pay one fsync per device.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { queue, clock } = options;
  let closed = false;
  let running = 0;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  const inFlight = new Set<Promise<void>>();
  let unrecorded: DeliveryOutcome[] = [];
  let flushScheduled = false;

  function flush(): void {
    flushScheduled = false;
    if (unrecorded.length === 0) return;
    const batch = unrecorded;
    unrecorded = [];
    queue.record(batch);
    options.onRecorded?.(batch);
    pump();
  }

  function recordLater(outcome: DeliveryOutcome): void {
    unrecorded.push(outcome);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  }

  async function attempt(item: ClaimedDelivery): Promise<void> {
    if (item.device === null) {
      recordLater({ notificationId: item.notificationId, deviceId: item.deviceId, try: item.tries, status: null, error: 'device removed', state: 'gone' });
      return;
    }
    try {
      const result = await sendPush(
        // What is left of the TTL: the clock started when the notification was accepted.
        { ...item.device, payload: item.payload, ttlSeconds: remainingTtlSeconds(item, clock.now()), authorization: options.signer.authorization(item.device.endpoint) },
        options.send,
        options.timeoutMs,
        () => clock.now(),
      );
      recordLater(outcomeOf(item, result, options, clock.now()));
    } catch (error) {
      // Signing can throw (web-push refuses a VAPID subject, an endpoint is no URL). Unrecorded,
      // the delivery would stay claimed in memory forever and the rejection would end the process.
      const message = error instanceof Error ? error.message : String(error);
      recordLater({ notificationId: item.notificationId, deviceId: item.deviceId, try: item.tries + 1, status: null, error: message, state: 'failed' });
    }
  }

  function schedule(): void {
    const next = queue.nextDueAt();
    if (next === null || next >= wakeAt) return;
    clearTimeout(timer);
    wakeAt = next;
    timer = setTimeout(() => {
      wakeAt = Number.POSITIVE_INFINITY;
      pump();
    }, Math.max(0, next - clock.now()));
    timer.unref();
  }

  function pump(): void {
    if (closed) return;
    while (running < options.concurrency) {
      const batch = queue.claim(options.concurrency - running);
      if (batch.length === 0) break;
      for (const item of batch) {
        running += 1;
        const work = attempt(item).finally(() => {
          running -= 1;
          inFlight.delete(work);
        });
        inFlight.add(work);
      }
    }
    if (running < options.concurrency) schedule();
  }

  setImmediate(pump);
  return {
    kick: () => pump(),
    async close() {
      closed = true;
      clearTimeout(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      flush();
    },
  };
}

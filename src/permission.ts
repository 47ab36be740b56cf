import type { BrowserEnv } from './browser-env.js';
import { PushError } from './common/push-error.js';

/**
 * Make sure notifications are allowed, asking only when the user has not decided yet.
 * Call it first thing in a user gesture's handler: browsers drop the prompt otherwise.
 * A user who blocked notifications is never asked again.
 *
 * @throws {@link PushError} `permission-denied` when blocked, `permission-dismissed` when the
 * prompt was closed without a choice, `unsupported` without the Notification API.
 *
 * @example
 * ```ts
 * button.onclick = () => ensurePermission(browserEnv()).then(startSubscribing);
 * ```
 */
export async function ensurePermission(env: BrowserEnv): Promise<void> {
  const notification = env.notification;
  if (!notification) throw new PushError('unsupported');
  if (notification.permission === 'granted') return;
  if (notification.permission === 'denied') throw new PushError('permission-denied');
  let answer: NotificationPermission;
  try {
    answer = await notification.requestPermission();
  } catch (cause) {
    throw new PushError('permission-dismissed', undefined, { cause });
  }
  if (answer === 'denied') throw new PushError('permission-denied');
  if (answer !== 'granted') throw new PushError('permission-dismissed');
}

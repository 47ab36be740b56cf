/** Name of the BroadcastChannel on which the worker and every tab of the app exchange {@link PushbridgeMessage}s. */
export const CHANNEL_NAME = 'pushbridge';

/**
 * What the worker tells the app's windows. Every message carries `pushbridge: 1` so that
 * other code on the same channel or worker can tell them apart.
 */
export type PushbridgeMessage =
  | {
      pushbridge: 1;
      type: 'notification';
      notificationId: string | null;
      title: string;
      data: Record<string, string>;
    }
  | {
      pushbridge: 1;
      type: 'click';
      notificationId: string | null;
      action: string;
      url: string;
      data: Record<string, string>;
    };

/**
 * Tell whether a value is one of pushbridge's messages.
 *
 * @example
 * ```ts
 * channel.onmessage = (event) => { if (isPushbridgeMessage(event.data)) route(event.data); };
 * ```
 */
export function isPushbridgeMessage(value: unknown): value is PushbridgeMessage {
  return typeof value === 'object' && value !== null && (value as { pushbridge?: unknown }).pushbridge === 1;
}

import type { InboxItem, OutboxEvent } from './database.js';
import type { PushState } from './push-state.js';

/** Name of the BroadcastChannel on which the worker and every tab of the app exchange {@link PushbridgeMessage}s. */
export const CHANNEL_NAME = 'pushbridge';

/**
 * What the worker and the app's windows tell each other. Every message carries `pushbridge: 1`
 * so that other code on the same channel or worker can tell them apart.
 * - `notification` (worker → windows): a push arrived and was shown or stored; `shown` is false
 *   when an `in_app` item went to the inbox only, because a window of the app was visible;
 * - `click` (worker → the one window it brought forward, by `client.postMessage`): a notification
 *   was clicked; that window, if it routes the click itself, answers `click-ack` with the same
 *   `clickId` on the channel;
 * - `inbox` (worker → windows): an in-app item was stored;
 * - `event` (worker → windows): a delivered / clicked / dismissed event;
 * - `state` (tab → tabs): the push state changed;
 * - `recipient` (tab → tabs): `setRecipient` switched the user; other tabs adopt it;
 * - `subscription-change` (worker → windows): the worker resubscribed after `pushsubscriptionchange`.
 */
export type PushbridgeMessage =
  | {
      pushbridge: 1;
      type: 'notification';
      notificationId: string | null;
      channel: 'push' | 'in_app';
      title: string;
      body: string;
      data: Record<string, string>;
      /** Whether a system notification was shown (absent from workers older than this field). */
      shown?: boolean;
    }
  | {
      pushbridge: 1;
      type: 'click';
      clickId: string;
      notificationId: string | null;
      action: string;
      url: string;
      data: Record<string, string>;
    }
  | { pushbridge: 1; type: 'click-ack'; clickId: string }
  | { pushbridge: 1; type: 'inbox'; item: InboxItem }
  | { pushbridge: 1; type: 'event'; event: OutboxEvent }
  | { pushbridge: 1; type: 'state'; scope: string; state: PushState }
  | { pushbridge: 1; type: 'recipient'; scope: string; recipientId: string }
  | { pushbridge: 1; type: 'subscription-change'; scope: string; endpoint: string | null; registered: boolean; error: string | null };

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

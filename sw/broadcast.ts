import { CHANNEL_NAME, type PushbridgeMessage } from '../src/common/messages.js';

/**
 * Post one message to every window of the app on the shared BroadcastChannel. Opens and
 * closes the channel per message so that an idle worker holds nothing open.
 *
 * @example
 * ```ts
 * broadcast({ pushbridge: 1, type: 'notification', notificationId, title, data });
 * ```
 */
export function broadcast(message: PushbridgeMessage): void {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  try {
    channel.postMessage(message);
  } finally {
    channel.close();
  }
}

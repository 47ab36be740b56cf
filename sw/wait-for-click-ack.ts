import { CHANNEL_NAME, isPushbridgeMessage } from '../src/common/messages.js';

/**
 * Resolve true when a window answers `click-ack` for `clickId` on the shared channel, false after
 * `timeoutMs`. Start it before posting the click, so that a fast answer is not missed. A
 * BroadcastChannel does not name the sender: the ack is tied to the window because the click
 * (and its random `clickId`) was posted to that window alone.
 *
 * @example
 * ```ts
 * const acked = waitForClickAck(click.clickId, 1000);
 * client.postMessage(click);
 * if (!(await acked)) await client.navigate(url);
 * ```
 */
export function waitForClickAck(clickId: string, timeoutMs: number): Promise<boolean> {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  return new Promise((resolve) => {
    const done = (acked: boolean): void => {
      clearTimeout(timer);
      channel.close();
      resolve(acked);
    };
    const timer = setTimeout(done, timeoutMs, false);
    channel.onmessage = (message: MessageEvent<unknown>) => {
      const data = message.data;
      if (isPushbridgeMessage(data) && data.type === 'click-ack' && data.clickId === clickId) done(true);
    };
  });
}

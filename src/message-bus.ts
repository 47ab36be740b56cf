import type { BrowserEnv } from './browser-env.js';
import { CHANNEL_NAME, isPushbridgeMessage, type PushbridgeMessage } from './common/messages.js';

/** Listens to pushbridge's messages from the worker and other tabs, and posts to them. */
export interface MessageBus {
  /**
   * Call `listener` for every message, with whether the worker sent it to this window alone
   * (rather than to every tab on the channel); returns a function that stops it.
   */
  subscribe(listener: (message: PushbridgeMessage, toThisWindow: boolean) => void): () => void;
  /** Post to the worker and every other tab, and hand it to this page's own listeners. */
  post(message: PushbridgeMessage): void;
  /** Stop listening and close the channel, for good: later calls do nothing. */
  close(): void;
}

/**
 * The page's end of the shared BroadcastChannel, plus messages the worker posts to this window
 * directly. Opens nothing until the first listener or post.
 *
 * @example
 * ```ts
 * const bus = createMessageBus(browserEnv());
 * const stop = bus.subscribe((message) => console.log(message.type));
 * ```
 */
export function createMessageBus(env: Pick<BrowserEnv, 'openChannel' | 'serviceWorker'>): MessageBus {
  const listeners = new Set<(message: PushbridgeMessage, toThisWindow: boolean) => void>();
  let channel: BroadcastChannel | undefined;
  let opened = false;
  let closed = false;
  const deliver = (event: MessageEvent<unknown>, toThisWindow: boolean): void => {
    if (!isPushbridgeMessage(event.data)) return;
    for (const listener of [...listeners]) listener(event.data, toThisWindow);
  };
  const fromChannel = (event: MessageEvent<unknown>): void => deliver(event, false);
  const fromWorker = (event: MessageEvent<unknown>): void => deliver(event, true);

  function open(): void {
    if (opened || closed) return;
    opened = true;
    channel = env.openChannel(CHANNEL_NAME);
    channel?.addEventListener('message', fromChannel);
    env.serviceWorker?.addEventListener('message', fromWorker);
  }

  return {
    subscribe(listener) {
      if (closed) return () => false;
      open();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    post(message) {
      if (closed) return;
      open();
      channel?.postMessage(message);
      // A BroadcastChannel does not echo to its sender; this page hears its own news here.
      for (const listener of [...listeners]) listener(message, false);
    },
    close() {
      closed = true;
      listeners.clear();
      channel?.removeEventListener('message', fromChannel);
      channel?.close();
      env.serviceWorker?.removeEventListener('message', fromWorker);
      channel = undefined;
    },
  };
}

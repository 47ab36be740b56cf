/**
 * A button on a notification; `url` is where a click on this button goes (same origin only).
 */
export interface EnvelopeAction {
  action: string;
  title: string;
  url?: string;
}

/**
 * The push payload the service sends to the worker (see `spec/decisions.md`). `pushbridge: 1`
 * marks it as ours, so other push code in the same worker can ignore it.
 *
 * @example
 * ```json
 * {"pushbridge": 1, "notificationId": "…", "channel": "push", "title": "Order shipped",
 *  "body": "Arrives Tuesday", "data": {"url": "/orders/42"}}
 * ```
 */
export interface PushEnvelope {
  pushbridge: 1;
  notificationId: string;
  channel: 'push' | 'in_app';
  title: string;
  body: string;
  data?: Record<string, string>;
  android?: { channelId?: string; sound?: string };
  icon?: string;
  badge?: string;
  image?: string;
  tag?: string;
  renotify?: boolean;
  requireInteraction?: boolean;
  silent?: boolean;
  actions?: EnvelopeAction[];
}

import type { BrowserEnv } from './browser-env.js';
import type { RegistrationRecord } from './common/database.js';
import type { PushState } from './common/push-state.js';
import type { MessageBus } from './message-bus.js';
import type { PushClientOptions } from './push-client.js';
import type { ReconcileAction } from './reconcile.js';
import type { RegistrationStore } from './registration-store.js';

/** What the browser holds for a scope, and what {@link reconcile} makes of it. */
export interface BrowserSnapshot {
  action: ReconcileAction;
  registration: ServiceWorkerRegistration | undefined;
  subscription: PushSubscription | null;
  record: RegistrationRecord | undefined;
}

/**
 * The state one push client shares between its always-loaded part and its lazily loaded
 * operations (subscribe, hand-off, unsubscribe, user switch).
 */
export interface ClientContext {
  options: PushClientOptions;
  env: BrowserEnv;
  timeoutMs: number;
  workerUrl: string;
  scope: string;
  /** The current recipient; `setRecipient` changes it. */
  recipientId: string;
  bus: MessageBus;
  /** This scope's records in the shared IndexedDB. */
  store: RegistrationStore;
  /** Set by `close()`: nothing new may start listening. */
  closed: boolean;
  /** Stops the retry-when-online listener, while one is armed. */
  stopOnline: (() => void) | null;
  /** The fingerprint of a subscription for the current key and recipient. */
  fingerprintOf(subscription: PushSubscription): string;
  /** Re-read the state and tell every tab. */
  announce(): Promise<PushState>;
  sync(): Promise<PushState>;
}

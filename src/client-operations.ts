import type { BrowserSnapshot, ClientContext } from './client-context.js';
import type { RegistrationRecord } from './common/database.js';
import { postRegistration, registerRequest } from './common/handoff.js';
import { PushError, isPushError } from './common/push-error.js';
import { clientConfig } from './client-config.js';
import { handoffConfig } from './handoff-mode.js';
import { createInbox, type Inbox } from './inbox.js';
import type { SubscribeResult, UnregisteredDevice } from './push-client.js';
import { REREGISTER_AFTER_MS } from './reconcile.js';
import { subscribeWithKey, subscriptionKeys } from './subscription.js';
import { waitForActiveWorker } from './wait-for-active-worker.js';
import { withLock } from './with-lock.js';
import { withTimeout } from './with-timeout.js';

/** The work that changes subscriptions and registrations; loaded only when such work is due. */
export interface ClientOperations {
  /** Worker, subscription and hand-off, once permission is granted; see `PushClient.subscribe`. */
  subscribe(): Promise<SubscribeResult>;
  /** Call `onUnregister` again for the devices it failed on. */
  retryUnregisters(): Promise<void>;
  /** Store what the worker replays after `pushsubscriptionchange`, as the options say now. */
  saveConfig(): Promise<void>;
  /** The in-app inbox (loaded with these operations: pages that never read it do not pay for it). */
  inbox: Inbox;
  /** Carry out what reconcile decided for a snapshot (under the lock). */
  apply(snapshot: BrowserSnapshot): Promise<void>;
  /** Remove the subscription and the record, and tell the hook. */
  unsubscribe(): Promise<void>;
  /** Give the current recipient a fresh subscription (under the lock). */
  switchRecipient(): Promise<void>;
}

/**
 * The operations of one client. Split from the client so that a page that only reads the state
 * and syncs a healthy subscription loads none of this.
 *
 * @example
 * ```ts
 * const operations = createClientOperations(context);
 * await operations.subscribe();
 * ```
 */
export function createClientOperations(ctx: ClientContext): ClientOperations {
  const { env, options, scope, timeoutMs } = ctx;
  const handoff = handoffConfig(options.register);

  const saveConfig = (): Promise<void> => ctx.store.writeConfig(clientConfig(ctx));

  /** Tell the app's hook, within the timeout; a failure is queued and retried by a later sync(). */
  async function notifyUnregistered(record: RegistrationRecord, reason: UnregisteredDevice['reason']): Promise<void> {
    if (!options.onUnregister) return;
    try {
      await callHook(record, reason);
    } catch {
      await ctx.store.queueUnregister(record, reason);
    }
  }

  function callHook(record: RegistrationRecord, reason: string): Promise<void> {
    const device: UnregisteredDevice = {
      endpoint: record.endpoint,
      recipientId: record.recipientId,
      subscriberId: record.subscriberId,
      deviceId: record.deviceId,
      reason: reason as UnregisteredDevice['reason'],
    };
    // Bounded: it runs under the subscription lock, which every tab and the worker wait for.
    return withTimeout(Promise.resolve(options.onUnregister?.(device)), timeoutMs, 'The onUnregister hook');
  }

  /** Drop the browser's subscription and the record, then hand off a fresh one for the current recipient. */
  async function rotate(registration: ServiceWorkerRegistration, old: PushSubscription, record: RegistrationRecord | undefined): Promise<void> {
    await old.unsubscribe();
    if (record) await notifyUnregistered(record, 'recipient-changed');
    await ctx.store.delete();
    await handOffWithRotation(registration, await newSubscription(registration));
  }

  async function newSubscription(registration: ServiceWorkerRegistration): Promise<PushSubscription> {
    try {
      return await withTimeout(subscribeWithKey(registration.pushManager, options.vapidPublicKey), timeoutMs, 'Push subscription');
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      const denied = cause instanceof DOMException && cause.name === 'NotAllowedError';
      throw new PushError(denied ? 'permission-denied' : 'subscribe-failed', undefined, { cause });
    }
  }

  /** Hand the subscription off once; the record says pending until the backend confirms. */
  async function handOff(subscription: PushSubscription): Promise<SubscribeResult> {
    const keys = subscriptionKeys(subscription);
    const record: RegistrationRecord = {
      fingerprint: ctx.fingerprintOf(subscription),
      endpoint: keys.endpoint,
      recipientId: ctx.recipientId,
      subscriberId: null,
      deviceId: null,
      registeredAt: null,
      pending: true,
      lastError: null,
    };
    await ctx.store.write(record);
    const body = registerRequest(ctx.recipientId, keys, options.metadata);
    try {
      const result =
        typeof options.register === 'function'
          ? await withTimeout(options.register(body, subscription), timeoutMs, 'The register callback')
          : await postRegistration(env.fetch, handoff as Exclude<typeof handoff, { kind: 'callback' }>, body, timeoutMs);
      await ctx.store.write({ ...record, subscriberId: result.subscriberId, deviceId: result.deviceId, registeredAt: env.now(), pending: false });
      ctx.stopOnline?.();
      ctx.stopOnline = null;
      return { subscriberId: result.subscriberId, deviceId: result.deviceId, endpoint: keys.endpoint };
    } catch (error) {
      await ctx.store.write({ ...record, lastError: isPushError(error) ? error.code : String(error) });
      // Retried when the network returns, as well as on the next sync().
      if (!ctx.closed) ctx.stopOnline ??= env.onOnline(() => void ctx.sync());
      throw error;
    }
  }

  /** Hand off; a 409 (the endpoint belongs to another recipient) is met once with a fresh subscription. */
  async function handOffWithRotation(registration: ServiceWorkerRegistration, subscription: PushSubscription): Promise<SubscribeResult> {
    try {
      return await handOff(subscription);
    } catch (error) {
      if (!isPushError(error) || error.code !== 'register-conflict') throw error;
      await subscription.unsubscribe();
      return handOff(await newSubscription(registration));
    }
  }

  async function registerWorker(): Promise<ServiceWorkerRegistration> {
    try {
      const registration = await withTimeout(env.registerWorker(ctx.workerUrl, options.serviceWorker.scope), timeoutMs, 'Service worker registration');
      await withTimeout(waitForActiveWorker(registration), timeoutMs, 'Service worker activation');
      return registration;
    } catch (cause) {
      if (isPushError(cause)) throw cause;
      throw new PushError('worker-failed', undefined, { cause });
    }
  }

  async function currentSubscription(): Promise<{ registration: ServiceWorkerRegistration | undefined; subscription: PushSubscription | null }> {
    const registration = await env.serviceWorker?.getRegistration(scope);
    return { registration, subscription: registration ? await registration.pushManager.getSubscription() : null };
  }

  return {
    async subscribe() {
      const registration = await registerWorker();
      return withLock(env.locks, scope, timeoutMs, async () => {
        await saveConfig();
        const subscription = await newSubscription(registration);
        const record = await ctx.store.read();
        const fresh = record?.registeredAt != null && env.now() - record.registeredAt < REREGISTER_AFTER_MS;
        const confirmed = record && !record.pending && record.fingerprint === ctx.fingerprintOf(subscription);
        if (confirmed && fresh && record.subscriberId && record.deviceId) {
          // Another tab (or an earlier call) did the work while this one waited for the lock.
          return { subscriberId: record.subscriberId, deviceId: record.deviceId, endpoint: subscription.endpoint };
        }
        if (record && !record.pending && record.endpoint !== subscription.endpoint) await notifyUnregistered(record, 'key-changed');
        return handOffWithRotation(registration, subscription);
      });
    },

    async apply({ action, registration, subscription, record }) {
      if (action.kind === 'none') return;
      if (action.kind === 'forget') {
        if (subscription) await subscription.unsubscribe();
        if (record) await notifyUnregistered(record, action.reason);
        await ctx.store.delete();
        return;
      }
      if (!registration || !subscription) return;
      await saveConfig();
      if (action.kind === 'rotate') return rotate(registration, subscription, record);
      if (action.kind === 'resubscribe') {
        await subscription.unsubscribe();
        if (record && !record.pending) await notifyUnregistered(record, 'key-changed');
        await handOffWithRotation(registration, await newSubscription(registration));
        return;
      }
      await handOffWithRotation(registration, subscription);
    },

    async unsubscribe() {
      const { subscription } = await currentSubscription();
      const record = await ctx.store.read();
      if (subscription) await subscription.unsubscribe();
      if (record) await notifyUnregistered(record, 'unsubscribed');
      await ctx.store.delete();
    },

    async switchRecipient() {
      const { registration, subscription: old } = await currentSubscription();
      await saveConfig();
      if (!registration || !old) return;
      const record = await ctx.store.read();
      // Already registered for this recipient (a subscribe that started after the switch).
      if (record?.recipientId === ctx.recipientId) return;
      // A fresh subscription, so that the old user's endpoint never reaches the new user.
      await rotate(registration, old, record);
    },

    saveConfig,

    inbox: createInbox(ctx.bus, env.now),

    async retryUnregisters() {
      for (const pending of await ctx.store.pendingUnregisters()) {
        try {
          await callHook(pending.record, pending.reason);
          await ctx.store.dropUnregister(pending.record.endpoint);
        } catch {
          // Still failing: kept for the next sync().
        }
      }
    },
  };
}

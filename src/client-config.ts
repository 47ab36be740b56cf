import type { ClientContext } from './client-context.js';
import type { ClientConfig } from './common/database.js';
import { configSource } from './config-source.js';
import { handoffConfig } from './handoff-mode.js';

/**
 * What the worker needs to re-register alone after `pushsubscriptionchange`, for this client as
 * it is now (the recipient may have been switched since creation).
 *
 * @example
 * ```ts
 * await ctx.store.writeConfig(clientConfig(ctx));
 * ```
 */
export function clientConfig(ctx: ClientContext): ClientConfig {
  const handoff = handoffConfig(ctx.options.register);
  return {
    vapidPublicKey: ctx.options.vapidPublicKey,
    recipientId: ctx.recipientId,
    metadata: ctx.options.metadata ?? {},
    // Absolute, because the worker resolves URLs against its own script.
    handoff: handoff.kind === 'url' ? { ...handoff, url: new URL(handoff.url, ctx.env.baseUrl).href } : handoff,
    source: configSource(ctx),
  };
}

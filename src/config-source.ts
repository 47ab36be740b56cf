import type { ClientContext } from './client-context.js';

/**
 * A short description of the options the worker's stored config is made from, so that a page load
 * can tell whether that config is stale (a new CSRF header, a user switch) without loading the
 * code that writes it.
 *
 * @example
 * ```ts
 * if ((await store.readConfig())?.source !== configSource(ctx)) await operations.saveConfig();
 * ```
 */
export function configSource(ctx: ClientContext): string {
  const { options } = ctx;
  const register = typeof options.register === 'function' ? 'callback' : options.register;
  return JSON.stringify([options.vapidPublicKey, ctx.recipientId, options.metadata ?? {}, register, ctx.env.baseUrl]);
}

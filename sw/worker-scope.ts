/** The worker global a handler acts on; {@link installPushHandlers} passes the `self` it was given. */
export interface ScopeOption {
  /** Defaults to the worker's `self`. Tests pass a fake. */
  scope?: ServiceWorkerGlobalScope;
}

/**
 * The scope from the options, else the worker's global.
 *
 * @example
 * ```ts
 * const { registration, clients } = workerScope(options);
 * ```
 */
export function workerScope(options: ScopeOption): ServiceWorkerGlobalScope {
  return options.scope ?? (globalThis as unknown as ServiceWorkerGlobalScope);
}

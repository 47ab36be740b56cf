import type { WorkerOptions } from './worker-options.js';

/**
 * The scope from the options, else the worker's global.
 *
 * @example
 * ```ts
 * const { registration, clients } = workerScope(options);
 * ```
 */
export function workerScope(options: WorkerOptions): ServiceWorkerGlobalScope {
  return options.scope ?? (globalThis as unknown as ServiceWorkerGlobalScope);
}

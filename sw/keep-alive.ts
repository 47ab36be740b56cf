/**
 * Hand `work` to `event.waitUntil`, so that the browser keeps the worker alive until it settles,
 * and never let it reject (the error is logged): a rejected push promise makes Firefox nack the message and Chromium
 * log an unhandled error. A synthetic event (`dispatchEvent`) refuses `waitUntil`; the work
 * still runs.
 *
 * @example
 * ```ts
 * keepAlive(event, showIt());
 * ```
 */
export function keepAlive(event: ExtendableEvent, work: Promise<unknown>): Promise<void> {
  const settled = work.then(
    () => undefined,
    (error: unknown) => console.warn('pushbridge:', error),
  );
  try {
    event.waitUntil(settled);
  } catch {
    // Untrusted event: nothing to extend.
  }
  return settled;
}

/**
 * Resolve once `registration` has an active worker, which `pushManager.subscribe()` needs.
 * An older active version is good enough; otherwise wait for the installing or waiting one.
 * (workbox-window's `active` promise alone never resolves for a worker that was already active
 * but does not control this page, which is the classic first-load failure.)
 *
 * @example
 * ```ts
 * await waitForActiveWorker(await navigator.serviceWorker.register('/sw.js'));
 * ```
 */
export function waitForActiveWorker(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  if (registration.active) return Promise.resolve(registration.active);
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.reject(new Error('The registration has no installing, waiting or active worker.'));
  return new Promise((resolve, reject) => {
    const onStateChange = (): void => {
      if (registration.active) {
        worker.removeEventListener('statechange', onStateChange);
        resolve(registration.active);
      } else if (worker.state === 'redundant') {
        worker.removeEventListener('statechange', onStateChange);
        reject(new Error('The service worker became redundant before it was activated.'));
      }
    };
    worker.addEventListener('statechange', onStateChange);
  });
}

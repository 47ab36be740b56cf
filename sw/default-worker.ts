// The ready-made worker, built as the classic script `pushbridge-sw.js` for apps that have no
// worker of their own. Unlike the module, it may take control at once: it is the only worker.
import { clientsClaim } from 'workbox-core';
import { installPushHandlers } from './install-push-handlers.js';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
clientsClaim();
installPushHandlers(self);

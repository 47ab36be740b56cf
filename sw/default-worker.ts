// The ready-made worker, built as the classic script `pushbridge-sw.js` for apps that have no
// worker of their own (or add it with importScripts). Unlike the module, it takes control at
// once: it expects to be the app's worker. Configured by its URL's query (see optionsFromUrl).
import { clientsClaim } from 'workbox-core';
import { installPushHandlers } from './install-push-handlers.js';
import { optionsFromUrl } from './options-from-url.js';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
clientsClaim();
installPushHandlers(self, optionsFromUrl(self.location.href));

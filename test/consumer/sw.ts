// The app's own worker, bundled by the app: pushbridge's handlers among its other code.
import { installPushHandlers } from 'pushbridge/sw';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
installPushHandlers(self, { fallbackTitle: 'Consumer' });

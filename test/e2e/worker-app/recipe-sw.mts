// The README's Workbox recipe, as an app writes it: an InjectManifest-style worker, bundled by
// the app, that precaches its manifest, serves it cache-first, shows its own chat pushes and
// adds pushbridge's handlers beside them. `self.__WB_MANIFEST` is replaced at build time, as
// workbox-build's injectManifest does.
import { clientsClaim } from 'workbox-core';
import { installPushHandlers } from 'pushbridge/sw';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

const manifest = self.__WB_MANIFEST;
const CACHE = 'recipe-precache';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(manifest.map((entry) => entry.url))));
});
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (manifest.some((entry) => new URL(entry.url, self.location.href).pathname === url.pathname)) {
    event.respondWith(caches.match(event.request).then((hit) => hit ?? fetch(event.request)));
  }
});
// The app's own pushes (not pushbridge's): pushbridge leaves them alone with foreignPushes 'leave'.
self.addEventListener('push', (event) => {
  let payload: { chat?: string } | null = null;
  try {
    payload = event.data?.json() as { chat?: string };
  } catch {
    return;
  }
  if (payload?.chat) event.waitUntil(self.registration.showNotification(`Chat: ${payload.chat}`, { tag: 'chat' }));
});

installPushHandlers(self, { fallbackTitle: 'Recipe app', foreignPushes: 'leave', reportUrl: '/api/events' });

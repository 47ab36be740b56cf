// The tests' worker: the ready-made pushbridge-sw.js under importScripts (its options come from
// this script's query), plus two probes that change nothing for pushbridge: the time from the
// push event to the worker's "shown" message, and any uncaught error or unhandled rejection,
// both posted on the `probe` channel.
const probe = new BroadcastChannel('probe');
let pushStartedAt = [];
self.addEventListener('push', () => pushStartedAt.push(performance.now()));
self.addEventListener('error', (event) => probe.postMessage({ type: 'error', message: String(event.message) }));
self.addEventListener('unhandledrejection', (event) => probe.postMessage({ type: 'error', message: String(event.reason) }));
importScripts('/pushbridge-sw.js');
const shown = new BroadcastChannel('pushbridge');
shown.onmessage = (event) => {
  if (event.data && event.data.type === 'notification' && pushStartedAt.length > 0) {
    probe.postMessage({ type: 'shown', ms: performance.now() - pushStartedAt.shift(), title: event.data.title });
  }
};

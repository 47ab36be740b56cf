import { describe, expect, it } from 'vitest';
import { installPushHandlers } from '../../../sw/install-push-handlers.ts';
import { fakeWorker } from './fake-worker.ts';

describe('installPushHandlers', () => {
  it('adds only its event listeners (no message listener), and removes them again', () => {
    const { scope, listeners } = fakeWorker();
    const uninstall = installPushHandlers(scope);
    expect([...listeners.keys()].sort()).toEqual(['notificationclick', 'notificationclose', 'push', 'pushsubscriptionchange', 'sync']);
    uninstall();
    expect(listeners.size).toBe(0);
  });

  it('never calls skipWaiting or clients.claim', () => {
    const { scope } = fakeWorker();
    const calls: string[] = [];
    Object.assign(scope, { skipWaiting: () => calls.push('skipWaiting') });
    Object.assign(scope.clients, { claim: () => calls.push('claim') });
    installPushHandlers(scope);
    expect(calls).toEqual([]);
  });

  it('ignores sync events of other code', () => {
    const { scope, listeners } = fakeWorker();
    installPushHandlers(scope, { reportUrl: '/r' });
    const waited: unknown[] = [];
    listeners.get('sync')?.({ tag: 'someone-else', waitUntil: (p: unknown) => waited.push(p) } as unknown as Event);
    expect(waited).toEqual([]);
  });
});

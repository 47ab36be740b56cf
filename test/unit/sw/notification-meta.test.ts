import { describe, expect, it } from 'vitest';
import { notificationOptions, readNotification } from '../../../sw/notification-meta.ts';
import { parsePush } from '../../../sw/payload.ts';

function roundTrip(payload: object) {
  const parsed = parsePush(JSON.stringify(payload));
  const options = notificationOptions(parsed) as NotificationOptions & Record<string, unknown>;
  const notification = { tag: options.tag ?? '', data: options.data } as Notification;
  return { options, meta: readNotification(notification) };
}

describe('notification bookkeeping', () => {
  it('keeps the app data exactly and carries the id in the tag', () => {
    const { options, meta } = roundTrip({ pushbridge: 1, notificationId: 'n1', title: 't', body: 'b', data: { url: '/a' } });
    expect(options).toEqual({ body: 'b', data: { url: '/a' }, tag: 'pushbridge:n1' });
    expect(meta).toEqual({ notificationId: 'n1', data: { url: '/a' }, actionUrls: {} });
  });

  it('keeps a custom tag and carries the id and action URLs beside the data', () => {
    const { options, meta } = roundTrip({
      pushbridge: 1,
      notificationId: 'n2',
      title: 't',
      body: 'b',
      tag: 'orders',
      renotify: true,
      actions: [{ action: 'track', title: 'Track', url: '/track' }],
    });
    expect(options).toMatchObject({ tag: 'orders', renotify: true, actions: [{ action: 'track', title: 'Track' }] });
    expect(meta).toEqual({ notificationId: 'n2', data: {}, actionUrls: { track: '/track' } });
  });

  it('marks a fallback as ours, without an id, and drops renotify when there is no tag', () => {
    const { options, meta } = roundTrip({ title: 'flat', renotify: true });
    expect(options.tag).toBeUndefined();
    expect(options.renotify).toBeUndefined();
    expect(meta).toEqual({ notificationId: null, data: {}, actionUrls: {} });
  });

  it('does not claim notifications shown by other code', () => {
    expect(readNotification({ tag: 'chat', data: { url: '/chat' } } as unknown as Notification)).toBeNull();
    expect(readNotification({ tag: '', data: null } as unknown as Notification)).toBeNull();
    expect(readNotification({ tag: '', data: { __pushbridge: '{broken' } } as unknown as Notification)).toBeNull();
  });
});

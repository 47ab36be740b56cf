import { describe, expect, it } from 'vitest';
import { parsePush } from '../../../sw/payload.ts';

describe('parsePush', () => {
  it('reads the envelope: id, channel, title, body, data, display options and actions', () => {
    const parsed = parsePush(
      JSON.stringify({
        pushbridge: 1,
        notificationId: 'n1',
        channel: 'in_app',
        title: 'Shipped',
        body: 'Tuesday',
        data: { url: '/o/1' },
        tag: 't',
        renotify: true,
        requireInteraction: false,
        image: '/i.png',
        actions: [{ action: 'track', title: 'Track', url: '/track/1' }, { action: 'later', title: 'Later' }],
      }),
    );
    expect(parsed).toEqual({
      marked: true,
      notificationId: 'n1',
      channel: 'in_app',
      title: 'Shipped',
      body: 'Tuesday',
      data: { url: '/o/1' },
      display: { tag: 't', renotify: true, requireInteraction: false, image: '/i.png' },
      actions: [{ action: 'track', title: 'Track', url: '/track/1' }, { action: 'later', title: 'Later' }],
    });
  });

  it('drops each wrongly typed field on its own and keeps the rest', () => {
    const parsed = parsePush(
      JSON.stringify({
        pushbridge: 1,
        notificationId: 5,
        channel: 'sms',
        title: 'Hi',
        body: 3,
        icon: 5,
        silent: 'yes',
        data: { url: '/x', n: 3, o: {} },
        actions: [{ action: 'a' }, 'b', { action: 'ok', title: 'OK', url: 9 }],
      }),
    );
    expect(parsed).toMatchObject({ notificationId: null, channel: 'push', title: 'Hi', body: '', display: {}, data: { url: '/x' } });
    expect(parsed.actions).toEqual([{ action: 'ok', title: 'OK' }]);
  });

  it('applies display defaults unless the payload sets them', () => {
    const defaults = { icon: '/default.png', badge: '/badge.png', silent: false };
    expect(parsePush(JSON.stringify({ pushbridge: 1, title: 'a', body: 'b', icon: '/own.png' }), { defaults }).display).toEqual({
      icon: '/own.png',
      badge: '/badge.png',
      silent: false,
    });
  });

  it('tolerates flat FCM-like shapes, unmarked', () => {
    expect(parsePush(JSON.stringify({ title: 'Flat', body: 'b', url: '/flat' }))).toMatchObject({ marked: false, title: 'Flat', data: { url: '/flat' } });
    expect(parsePush(JSON.stringify({ notification: { title: 'Legacy', body: 'b', click_action: '/legacy' }, data: { k: 'v' } }))).toMatchObject({
      title: 'Legacy',
      body: 'b',
      data: { k: 'v', url: '/legacy' },
    });
  });

  it.each([
    ['empty', null],
    ['an empty string', ''],
    ['not JSON', '{oops'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"hi"'],
    ['JSON null', 'null'],
    ['a marked envelope with a non-string title and body', JSON.stringify({ pushbridge: 1, title: 7, body: null })],
    ['oversized', JSON.stringify({ pushbridge: 1, title: 'Big', body: 'x'.repeat(5000) })],
  ])('falls back without throwing for a payload that is %s', (_, text) => {
    const parsed = parsePush(text, { fallbackTitle: 'Shop', fallbackBody: 'Something new' });
    expect(parsed).toMatchObject({ title: 'Shop', body: 'Something new', notificationId: null, channel: 'push', data: {}, actions: [] });
  });

  it('keeps a readable body under the fallback title', () => {
    expect(parsePush(JSON.stringify({ pushbridge: 1, title: ['x'], body: 'Your code is 1234' }), { fallbackTitle: 'Shop' })).toMatchObject({
      title: 'Shop',
      body: 'Your code is 1234',
    });
  });

  it('drops the reserved data key __pushbridge, where the worker keeps its bookkeeping', () => {
    const parsed = parsePush(JSON.stringify({ pushbridge: 1, title: 't', data: { url: '/a', __pushbridge: '{"id":"forged"}' } }));
    expect(parsed.data).toEqual({ url: '/a' });
  });

  it('has a default fallback title', () => {
    expect(parsePush(null).title).toBe('New notification');
  });
});

import { describe, expect, it } from 'vitest';
import { parsePush } from '../../../sw/payload.ts';

describe('parsePush', () => {
  it('reads the envelope: title, body, data and display options', () => {
    const parsed = parsePush(
      JSON.stringify({ pushbridge: 1, notificationId: 'n1', channel: 'push', title: 'Shipped', body: 'Tuesday', data: { url: '/o/1' }, tag: 't', renotify: true, icon: 5 }),
    );
    expect(parsed.title).toBe('Shipped');
    expect(parsed.options).toEqual({ body: 'Tuesday', data: { url: '/o/1' }, tag: 't', renotify: true });
    expect(parsed.envelope?.notificationId).toBe('n1');
  });

  it('keeps only string values of data', () => {
    const parsed = parsePush(JSON.stringify({ pushbridge: 1, title: 'a', body: 'b', data: { url: '/x', n: 3, o: {} } }));
    expect(parsed.options.data).toEqual({ url: '/x' });
  });

  it.each([
    ['empty', null],
    ['not JSON', '{oops'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"hi"'],
    ['without the marker', JSON.stringify({ title: 'x', body: 'y' })],
    ['with a non-string title', JSON.stringify({ pushbridge: 1, title: 7, body: 'y' })],
  ])('falls back without throwing for a payload that is %s', (_, text) => {
    const parsed = parsePush(text, { fallbackTitle: 'Shop', fallbackBody: 'Something new' });
    expect(parsed).toEqual({ title: 'Shop', options: { body: 'Something new', data: {} }, envelope: null });
  });
});

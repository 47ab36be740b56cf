import { describe, expect, it } from 'vitest';
import { resolveClickUrl } from '../../../sw/resolve-click-url.ts';

const scope = 'https://shop.example/app/';

describe('resolveClickUrl', () => {
  it('resolves paths against the scope', () => {
    expect(resolveClickUrl('/orders/42?x=1#top', scope)).toBe('https://shop.example/orders/42?x=1#top');
    expect(resolveClickUrl('inbox', scope)).toBe('https://shop.example/app/inbox');
    expect(resolveClickUrl('https://shop.example/a', scope)).toBe('https://shop.example/a');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/',
    '//evil.example/path',
    'http://shop.example/',
    'blob:https://shop.example/uuid',
    '',
  ])('sends %s to the scope root', (url) => {
    expect(resolveClickUrl(url, scope)).toBe(scope);
  });

  it('sends non-strings to the scope root', () => {
    expect(resolveClickUrl(undefined, scope)).toBe(scope);
    expect(resolveClickUrl({ toString: () => 'https://evil.example' }, scope)).toBe(scope);
  });
});

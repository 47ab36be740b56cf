import { describe, expect, it } from 'vitest';
import { optionsFromUrl } from '../../../sw/options-from-url.ts';

describe('optionsFromUrl', () => {
  it('reads the ready-made worker options from its query', () => {
    const href =
      'https://shop.example/pushbridge-sw.js?fallbackTitle=Shop&fallbackBody=New&icon=%2Fi.png&reportUrl=%2Fevents&clickMode=open-new&foreignPushes=leave&clickAckTimeoutMs=250';
    expect(optionsFromUrl(href)).toEqual({
      fallbackTitle: 'Shop',
      fallbackBody: 'New',
      reportUrl: '/events',
      defaults: { icon: '/i.png' },
      clickMode: 'open-new',
      foreignPushes: 'leave',
      clickAckTimeoutMs: 250,
    });
  });

  it('ignores unknown and invalid values', () => {
    expect(optionsFromUrl('https://shop.example/sw.js?clickMode=weird&clickAckTimeoutMs=x&other=1')).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, bytesToBase64Url } from '../../../src/common/base64url.ts';

describe('base64url', () => {
  it('round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = bytesToBase64Url(bytes);
    expect(text).not.toMatch(/[+/=]/);
    expect(base64UrlToBytes(text)).toEqual(bytes);
  });

  it('accepts padded and standard base64 input', () => {
    expect(base64UrlToBytes('-_8=')).toEqual(Uint8Array.from([0xfb, 0xff]));
    expect(base64UrlToBytes('+/8')).toEqual(Uint8Array.from([0xfb, 0xff]));
  });
});

// web/playground/numparse.mjs: typed text to float32. Expected values are IEEE-754
// float32 constants written out by hand (bit patterns in the comments).
import { describe, expect, it } from 'vitest';
import { parseFloat32 } from '../../web/playground/numparse.mjs';

const bits = (x) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x); return b.getUint32(0); };
const ok = (text, opts) => {
  const r = parseFloat32(text, opts);
  expect(r.ok, `${text}: ${r.error}`).toBe(true);
  return r.value;
};

describe('parseFloat32', () => {
  it('reads decimals and rounds them to float32 once', () => {
    expect(ok('1.5')).toBe(1.5);
    expect(ok('  -2.25 ')).toBe(-2.25);
    expect(ok('.5')).toBe(0.5);
    expect(ok('3.')).toBe(3);
    expect(bits(ok('0.1'))).toBe(0x3dcccccd);       // float32 0.1
    expect(bits(ok('1e-45'))).toBe(0x00000001);     // the smallest subnormal
    expect(bits(ok('3.4028235e38'))).toBe(0x7f7fffff); // FLT_MAX
    expect(bits(ok('16777217'))).toBe(0x4b800000);  // 2^24 + 1 ties to even: 2^24
    expect(ok('\u22123')).toBe(-3);                 // the minus sign the page prints
  });

  it('keeps the sign of zero', () => {
    expect(Object.is(ok('-0'), -0)).toBe(true);
    expect(Object.is(ok('0'), 0)).toBe(true);
    expect(Object.is(ok('-0.0e5'), -0)).toBe(true);
  });

  it('reads hexadecimal floats exactly', () => {
    expect(bits(ok('0x1p-126'))).toBe(0x00800000);  // FLT_MIN
    expect(bits(ok('0x1p-149'))).toBe(0x00000001);
    expect(ok('-0x1.8p3')).toBe(-12);
    expect(bits(ok('0x1.fffffep127'))).toBe(0x7f7fffff);
    expect(ok('0xAp0')).toBe(10);
    expect(Object.is(ok('0x1p-2000'), 0)).toBe(true); // far below float32: 0
    expect(Object.is(ok('-0x0p0'), -0)).toBe(true);
  });

  it('reads Infinity only where allowed (tmax)', () => {
    expect(ok('Infinity', { allowInfinity: true })).toBe(Infinity);
    expect(ok('inf', { allowInfinity: true })).toBe(Infinity);
    expect(parseFloat32('Infinity').error).toMatch(/must be finite/);
    expect(parseFloat32('-inf', { allowInfinity: true }).error).toMatch(/must not be negative/);
  });

  it('refuses what is not a float32 with a clear message', () => {
    expect(parseFloat32('').error).toBe('type a number');
    expect(parseFloat32('abc').error).toMatch(/"abc" is not a number/);
    expect(parseFloat32('1,5').error).toMatch(/is not a number/);
    expect(parseFloat32('NaN').error).toMatch(/NaN/);
    expect(parseFloat32('1e39').error).toMatch(/too large for a float32/);
    expect(parseFloat32('0x1p128').error).toMatch(/too large/);
    expect(parseFloat32('0x1.23456789abcdefp0').error).toMatch(/at most 13 hex digits/);
    expect(parseFloat32('-1', { min: 0 }).error).toBe('must be 0 or more');
    expect(parseFloat32(5).error).toBe('type a number');
    expect(parseFloat32('1'.repeat(500)).error).toMatch(/too long/);
  });
});

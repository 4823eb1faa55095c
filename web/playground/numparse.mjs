// Typed numbers: the text a user types into the inspector, read as the float32 it rounds
// to, or a clear error. Pure: no DOM.
//
// Accepted: decimal numbers ("1.5", "-2e-3", "1e-45", ".5"), signed zero ("-0"), C-style
// hexadecimal floats ("0x1p-126", "-0x1.8p3", "0x1.fffffep127"), and, where allowed,
// "Infinity" / "inf" (a ray's tmax). Decimals are rounded to float32 exactly once
// (f32format.mjs strtof: round to nearest, ties to even); a hexadecimal float with up to
// 13 hex digits after the point is exact in a double, so Math.fround rounds it once too.
// A number that rounds to float32 infinity is an error (it overflows), as is NaN.

import { strtof } from '../f32format.mjs';

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/;
const INF = /^([+-]?)(inf|infinity)$/i;

/** The exact value of a hexadecimal float's parts, or null when it has too many digits. */
function hexValue(sign, intDigits, fracDigits, exp) {
  const digits = (intDigits + fracDigits).replace(/^0+/, '');
  if (digits.length > 13) return null; // more than 52 bits: not exact in a double
  let v = digits === '' ? 0 : parseInt(digits, 16);
  const e = Number(exp) - 4 * fracDigits.length;
  // Scale in two steps, each exact while the result is a normal double (whatever
  // underflows in a double is far below float32's smallest subnormal, so it reads as 0).
  if (v !== 0) {
    const half = Math.trunc(e / 2);
    v = v * 2 ** half * 2 ** (e - half);
  }
  return sign === '-' ? -v : v;
}

/**
 * Read `text` as a float32.
 * @param {string} text what the user typed
 * @param {{allowInfinity?: boolean, min?: number}} [opts] allowInfinity: "Infinity" and
 *   "inf" are accepted as +Infinity; min: the smallest value allowed (e.g. 0 for sizes)
 * @returns {{ok: true, value: number} | {ok: false, error: string}}
 */
export function parseFloat32(text, opts = {}) {
  if (typeof text !== 'string') return { ok: false, error: 'type a number' };
  const s = text.trim().replace(/\u2212/g, '-');
  if (s === '') return { ok: false, error: 'type a number' };
  if (s.length > 400) return { ok: false, error: 'that is too long to be a number' };
  const { allowInfinity = false, min } = opts;
  let value;
  const inf = INF.exec(s);
  if (inf) {
    if (!allowInfinity) return { ok: false, error: 'must be finite (Infinity is not allowed here)' };
    if (inf[1] === '-') return { ok: false, error: 'must not be negative: use Infinity for no limit' };
    return { ok: true, value: Infinity };
  }
  if (/^[+-]?nan$/i.test(s)) return { ok: false, error: 'NaN is not a number slabcast accepts here' };
  const hex = HEX.exec(s);
  if (hex) {
    const v = hexValue(hex[1], hex[2], hex[3] ?? '', hex[4]);
    if (v === null) return { ok: false, error: 'a hexadecimal float may have at most 13 hex digits' };
    if (hex[2] === '' && (hex[3] ?? '') === '') return { ok: false, error: `"${s.slice(0, 40)}" has no hex digits` };
    value = Math.fround(v);
  } else if (DECIMAL.test(s)) {
    value = strtof(s);
  } else {
    return { ok: false, error: `"${s.slice(0, 40)}" is not a number (try 1.5, -0, 1e-45 or 0x1p-126)` };
  }
  if (!Number.isFinite(value)) {
    return { ok: false, error: `${s.slice(0, 40)} is too large for a float32 (the largest is 3.4028235e38)` };
  }
  if (min !== undefined && value < min) return { ok: false, error: `must be ${min} or more` };
  return { ok: true, value };
}

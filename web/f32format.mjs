// Number formatting of the case runners (docs/case-runner.md, "The results document").
//
// A float32 prints as the first of C's printf("%.1g") ... printf("%.9g") whose
// text reads back with strtof() as the same float32; -0 prints as 0; non-finite
// values print as the JSON strings "inf", "-inf", "nan".
//
// The native runner gets this from glibc. Here it is emulated exactly:
// - %.Pg rounds the exact binary value to P significant digits with ties to
//   even (glibc, default rounding mode), whereas JS's toExponential() rounds
//   ties away from zero; ties are detected and redone with exact arithmetic.
// - strtof() rounds the decimal directly to float32; Math.fround(Number(s))
//   rounds twice, which differs only when Number(s) lands exactly on a float32
//   midpoint; that case is redone with exact arithmetic.

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

/** The float32 bit pattern of x (x must already be a float32 value). */
function bitsOf(x) {
  f32buf[0] = x;
  return u32buf[0];
}

function fromBits(bits) {
  u32buf[0] = bits >>> 0;
  return f32buf[0];
}

/** Exact value of a finite non-negative float32 a as BigInt mantissa m and power-of-two exponent e: a = m * 2^e. */
function decompose(a) {
  const bits = bitsOf(a);
  const expField = (bits >>> 23) & 0xff;
  const frac = bits & 0x7fffff;
  if (expField === 0) return { m: BigInt(frac), e: -149 };
  return { m: BigInt(frac | 0x800000), e: expField - 150 };
}

/** Exact decimal digits of a finite positive float32: {digits (no trailing zeros), exp10 of the first digit}. */
function exactDecimal(a) {
  const { m, e } = decompose(a);
  let digits;
  let k; // value = digits * 10^k
  if (e >= 0) {
    digits = (m << BigInt(e)).toString();
    k = 0;
  } else {
    digits = (m * 5n ** BigInt(-e)).toString();
    k = e;
  }
  const stripped = digits.replace(/0+$/, '');
  k += digits.length - stripped.length;
  return { digits: stripped, exp10: stripped.length - 1 + k };
}

/** Round a digit string (value 0.d1d2... * 10^(exp10+1)) to p significant digits, ties to even. */
function roundHalfEven(digits, exp10, p) {
  if (digits.length <= p) return { digits, exp10 };
  const kept = digits.slice(0, p);
  const first = digits.charCodeAt(p) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(p + 1));
  let up;
  if (first > 5 || (first === 5 && restNonZero)) up = true;
  else if (first < 5) up = false;
  else up = (kept.charCodeAt(p - 1) - 48) % 2 === 1; // exact tie
  if (!up) return { digits: kept.replace(/0+$/, ''), exp10 };
  // Add one unit in the last place.
  const arr = kept.split('').map((c) => c.charCodeAt(0) - 48);
  let i = p - 1;
  while (i >= 0 && arr[i] === 9) { arr[i] = 0; i--; }
  if (i < 0) return { digits: '1', exp10: exp10 + 1 };
  arr[i] += 1;
  return { digits: arr.join('').replace(/0+$/, ''), exp10 };
}

/** Significant digits of a positive finite float32 rounded to p digits as glibc does: {digits, exp10}. */
function significant(a, p) {
  const s = a.toExponential(p - 1); // "d.ddde+X"; ties away from zero
  const ePos = s.indexOf('e');
  const mant = s.slice(0, ePos).replace('.', '');
  const exp10 = Number(s.slice(ePos + 1));
  // A tie is possible only when the exact value has p+1 significant digits, the last a 5.
  // Let toExponential(p) tell whether the digit after the p-th could be an exact 5.
  const next = a.toExponential(p);
  const nPos = next.indexOf('e');
  if (next.charAt(nPos - 1) === '5' && Number(next) === a) {
    const exact = exactDecimal(a);
    return roundHalfEven(exact.digits, exact.exp10, p);
  }
  return { digits: mant.replace(/0+$/, '') || '0', exp10 };
}

/** printf("%.{p}g") of a positive finite number given its rounded significant digits. */
function layoutG(digits, exp10, p) {
  if (exp10 < p && exp10 >= -4) {
    if (exp10 >= 0) {
      const intLen = exp10 + 1;
      const intPart = digits.length >= intLen ? digits.slice(0, intLen) : digits + '0'.repeat(intLen - digits.length);
      const frac = digits.slice(intLen);
      return frac ? `${intPart}.${frac}` : intPart;
    }
    return `0.${'0'.repeat(-exp10 - 1)}${digits}`;
  }
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const ae = Math.abs(exp10);
  return `${mant}e${exp10 < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
}

/**
 * C's printf("%.{p}g", (double)x) for a finite float32 x (1 <= p <= 9 is what the runners use).
 * @param {number} x
 * @param {number} p
 */
export function formatG(x, p) {
  if (p < 1) p = 1;
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  const a = Math.abs(x);
  const { digits, exp10 } = significant(a, p);
  return (neg ? '-' : '') + layoutG(digits, exp10, p);
}

const TWO_128 = 2 ** 128;

/** The exact value of a decimal string (as produced by formatG) compared with a dyadic double m: -1, 0, 1. */
function compareDecimalToDouble(s, m) {
  // s = D * 10^q exactly.
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:e([+-]\d+))?$/.exec(s);
  if (!match) throw new Error(`not a decimal: ${s}`);
  const neg = match[1] === '-';
  const frac = match[3] || '';
  let D = BigInt(match[2] + frac);
  let q = (match[4] ? Number(match[4]) : 0) - frac.length;
  if (neg) D = -D;
  // m = M * 2^e exactly (m is a finite double).
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(m));
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const expField = (hi >>> 20) & 0x7ff;
  let M = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (expField === 0) e = -1074;
  else { M |= 1n << 52n; e = expField - 1075; }
  if (m < 0) M = -M;
  // Compare D*10^q with M*2^e: bring both to integers.
  let left = D;
  let right = M;
  if (q >= 0) left *= 10n ** BigInt(q); else right *= 10n ** BigInt(-q);
  if (e >= 0) right <<= BigInt(e); else left <<= BigInt(-e);
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * strtof(s) for a decimal string s (the output of formatG), exactly (round to nearest, ties to even).
 * @param {string} s
 */
export function strtof(s) {
  const v = Number(s);
  const f = Math.fround(v);
  if (f === v || !Number.isFinite(v)) return f;
  // The float32 neighbours of v: F (nearest, with infinity standing as 2^128) and g on the other side.
  const F = Math.abs(f) === Infinity ? Math.sign(f) * TWO_128 : f;
  let g;
  if (Math.abs(F) === TWO_128) {
    g = Math.sign(F) * 3.4028234663852886e38; // FLT_MAX
  } else if (F === 0) {
    g = v > 0 ? fromBits(1) : -fromBits(1);
  } else {
    const step = (v > F) === (F > 0) ? 1 : -1; // bits + 1 is one step away from zero
    g = fromBits(bitsOf(F) + step);
    if (Math.abs(g) === Infinity) g = Math.sign(g) * TWO_128;
  }
  let lower = Math.min(F, g);
  let upper = Math.max(F, g);
  const mid = lower / 2 + upper / 2; // exact: both are float32 values
  if (v !== mid) return f;
  // Number(s) is a float32 midpoint: decide with the exact decimal.
  const c = compareDecimalToDouble(s, mid);
  const toF32 = (y) => (Math.abs(y) === TWO_128 ? Math.sign(y) * Infinity : y);
  lower = toF32(lower);
  upper = toF32(upper);
  if (c < 0) return lower;
  if (c > 0) return upper;
  // Exact tie: the one with an even mantissa (infinity counts as even: FLT_MAX is odd).
  if (!Number.isFinite(lower)) return lower;
  if (!Number.isFinite(upper)) return upper;
  return (bitsOf(lower) & 1) === 0 ? lower : upper;
}

/**
 * The runners' text for a float32 value: the shortest %.Pg (P = 1..9) that strtof reads
 * back as the same float32 (the smallest P on a tie); -0 as 0; non-finite values as the JSON strings "inf", "-inf", "nan".
 * @param {number} x a float32 value (a JS number that Math.fround leaves unchanged)
 */
export function formatFloat32(x) {
  if (Number.isNaN(x)) return '"nan"';
  if (x === Infinity) return '"inf"';
  if (x === -Infinity) return '"-inf"';
  if (x === 0) return '0';
  // The shortest text among %.1g .. %.9g that reads back as x (the first on a tie), as the
  // native runner does: 100 prints as "100", not "1e+02". %.9g always reads back.
  let best = null;
  for (let p = 1; p <= 9; p++) {
    const s = formatG(x, p);
    if (strtof(s) === x && (best === null || s.length < best.length)) best = s;
  }
  return best;
}

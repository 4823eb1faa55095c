// A JSON reader that accepts and rejects exactly what the native runner's
// cJSON_ParseWithLength() (Debian's cJSON 1.7.15) does, and that sees strings
// the way the native runner's C code does. The two runners must agree byte for
// byte on any file, so JS's JSON.parse (stricter in some ways, laxer in others)
// is not used:
//
// - whitespace is any byte <= 0x20 (NUL included); a UTF-8 BOM is skipped when
//   the file has at least 5 bytes; anything after the first complete value is
//   ignored;
// - numbers: '-' or a digit starts a run of [0-9+-eE.]; its longest prefix that
//   C's strtod() accepts is the number ("01", "1.", "-.5" are numbers);
// - strings are byte strings: any raw byte is allowed; the escapes are
//   \b \f \n \r \t \" \\ \/ \uXXXX; a \u with a non-hex digit stands for
//   U+0000; surrogates must pair up; a string ends at its first NUL byte
//   (C strings), so "a\u0000b" reads as "a";
// - arrays and objects nest at most 1000 deep;
// - of duplicate keys the last one counts (as the native runner's lookup does).
//
// Values: null, true, false, number (a JS double, as strtod gives), string (a
// JS string holding one byte per char, i.e. latin1; decode with bytesToUtf8),
// Array, and Map for objects.

const NESTING_LIMIT = 1000;

class ParseError extends Error {}

const NUMBER_PREFIX = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

function isNumberChar(c) {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45 || c === 0x2e;
}

function hexValue(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** hex4 of cJSON: the 4 hex digits at bytes[p..p+3] as a number (0 when one is not a digit). */
function hex4(bytes, p) {
  let h = 0;
  for (let i = 0; i < 4; i++) {
    const v = hexValue(bytes[p + i]);
    if (v < 0) return 0;
    h = (h << 4) | v;
  }
  return h;
}

/** The bytes of the string body bytes[start..end) with its escapes decoded (\\uXXXX as UTF-8). */
function decodeEscapes(bytes, start, end) {
  const out = [];
  let p = start;
  while (p < end) {
    const c = bytes[p];
    if (c !== 0x5c) { out.push(c); p++; continue; }
    const e = bytes[p + 1];
    let seq = 2;
    switch (e) {
      case 0x62: out.push(0x08); break; // b
      case 0x66: out.push(0x0c); break; // f
      case 0x6e: out.push(0x0a); break; // n
      case 0x72: out.push(0x0d); break; // r
      case 0x74: out.push(0x09); break; // t
      case 0x22: case 0x5c: case 0x2f: out.push(e); break;
      case 0x75: { // u
        if (end - p < 6) throw new ParseError();
        const first = hex4(bytes, p + 2);
        let cp;
        if (first >= 0xdc00 && first <= 0xdfff) throw new ParseError();
        if (first >= 0xd800 && first <= 0xdbff) {
          const q = p + 6;
          seq = 12;
          if (end - q < 6) throw new ParseError();
          if (bytes[q] !== 0x5c || bytes[q + 1] !== 0x75) throw new ParseError();
          const second = hex4(bytes, q + 2);
          if (second < 0xdc00 || second > 0xdfff) throw new ParseError();
          cp = 0x10000 + (((first & 0x3ff) << 10) | (second & 0x3ff));
        } else {
          seq = 6;
          cp = first;
        }
        if (cp < 0x80) out.push(cp);
        else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
        else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
        else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
        break;
      }
      default:
        throw new ParseError();
    }
    p += seq;
  }
  return out;
}

/**
 * A cJSON-compatible reader over bytes: one method per JSON construct, the position in off. It
 * throws ParseError where cJSON's parse fails.
 */
class CaseJsonReader {
  constructor(bytes) {
    this.bytes = bytes;
    this.len = bytes.length;
    this.off = 0;
    this.depth = 0;
  }

  canAccess(i) { return this.off + i < this.len; }

  at(i) { return this.bytes[this.off + i]; }

  skipWhitespace() {
    if (!this.canAccess(0)) return;
    while (this.canAccess(0) && this.at(0) <= 0x20) this.off++;
    if (this.off === this.len) this.off--;
  }

  matches(word) {
    if (this.off + word.length > this.len) return false;
    for (let i = 0; i < word.length; i++) if (this.bytes[this.off + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  parseString() {
    if (this.at(0) !== 0x22) throw new ParseError();
    const start = this.off + 1;
    let end = start;
    while (end < this.len && this.bytes[end] !== 0x22) {
      if (this.bytes[end] === 0x5c) {
        if (end + 1 >= this.len) throw new ParseError();
        end++;
      }
      end++;
    }
    if (end >= this.len || this.bytes[end] !== 0x22) throw new ParseError();
    const out = decodeEscapes(this.bytes, start, end);
    this.off = end + 1;
    // C strings end at the first NUL.
    const nul = out.indexOf(0);
    const n = nul < 0 ? out.length : nul;
    let s = '';
    for (let i = 0; i < n; i += 8192) s += String.fromCharCode(...out.slice(i, Math.min(n, i + 8192)));
    return s;
  }

  parseNumber() {
    let i = 0;
    while (this.canAccess(i) && isNumberChar(this.at(i))) i++;
    let run = '';
    for (let k = 0; k < i; k++) run += String.fromCharCode(this.at(k));
    const m = NUMBER_PREFIX.exec(run);
    if (!m) throw new ParseError();
    this.off += m[0].length;
    return Number(m[0]);
  }

  parseArray() {
    if (this.depth >= NESTING_LIMIT) throw new ParseError();
    this.depth++;
    const arr = [];
    this.off++;
    this.skipWhitespace();
    if (this.canAccess(0) && this.at(0) === 0x5d) { this.depth--; this.off++; return arr; }
    if (!this.canAccess(0)) throw new ParseError();
    this.off--;
    do {
      this.off++;
      this.skipWhitespace();
      arr.push(this.parseValue());
      this.skipWhitespace();
    } while (this.canAccess(0) && this.at(0) === 0x2c);
    if (!this.canAccess(0) || this.at(0) !== 0x5d) throw new ParseError();
    this.depth--;
    this.off++;
    return arr;
  }

  parseObject() {
    if (this.depth >= NESTING_LIMIT) throw new ParseError();
    this.depth++;
    const obj = new Map();
    this.off++;
    this.skipWhitespace();
    if (this.canAccess(0) && this.at(0) === 0x7d) { this.depth--; this.off++; return obj; }
    if (!this.canAccess(0)) throw new ParseError();
    this.off--;
    do {
      this.off++;
      this.skipWhitespace();
      if (!this.canAccess(0)) throw new ParseError();
      const key = this.parseString();
      this.skipWhitespace();
      if (!this.canAccess(0) || this.at(0) !== 0x3a) throw new ParseError();
      this.off++;
      this.skipWhitespace();
      const value = this.parseValue();
      obj.delete(key); // keep insertion order of the last occurrence
      obj.set(key, value);
      this.skipWhitespace();
    } while (this.canAccess(0) && this.at(0) === 0x2c);
    if (!this.canAccess(0) || this.at(0) !== 0x7d) throw new ParseError();
    this.depth--;
    this.off++;
    return obj;
  }

  parseValue() {
    if (this.matches('null')) { this.off += 4; return null; }
    if (this.matches('false')) { this.off += 5; return false; }
    if (this.matches('true')) { this.off += 4; return true; }
    if (!this.canAccess(0)) throw new ParseError();
    const c = this.at(0);
    if (c === 0x22) return this.parseString();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (c === 0x5b) return this.parseArray();
    if (c === 0x7b) return this.parseObject();
    throw new ParseError();
  }
}

/**
 * Parse bytes as the native runner does. Returns the value, or undefined when the
 * input is not valid JSON for cJSON.
 * @param {Uint8Array} bytes
 */
export function parseCaseJson(bytes) {
  if (bytes.length === 0) return undefined;
  const r = new CaseJsonReader(bytes);
  try {
    if (r.len > 4 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) r.off = 3;
    r.skipWhitespace();
    return r.parseValue();
  } catch (e) {
    if (e instanceof ParseError) return undefined;
    throw e;
  }
}

const utf8 = new TextDecoder('utf-8');

/** A byte string (one byte per char) as text (invalid UTF-8 becomes U+FFFD). */
export function bytesToUtf8(s) {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return utf8.decode(b);
}

/** Text as a byte string (its UTF-8 bytes, one per char). */
export function utf8ToBytes(s) {
  let out = '';
  for (const b of new TextEncoder().encode(s)) out += String.fromCharCode(b);
  return out;
}

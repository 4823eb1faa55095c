// errors.js: slabcast's one error type, and the guard that makes every failure of a public call
// one: a wasm trap, a throwing getter or Proxy in the caller's input, or bad input itself.

/** Longest quoted name in a message, in UTF-8 bytes (docs/case-runner.md). */
const QUOTED_NAME_MAX_BYTES = 64;

const utf8Encoder = new TextEncoder();
const apply = Reflect.apply;

/** Thrown for invalid input, for a module that cannot be loaded, and for wasm traps. */
export class SlabcastError extends Error {
  /**
   * @param {string} message
   * @param {{field?: string, status?: number, cause?: unknown}} [details]
   */
  constructor(message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SlabcastError';
    /** The input field at fault, when known (e.g. 'ray.origin'). */
    this.field = details.field;
    /** The core's sc_status, for errors reported by the core. */
    this.status = details.status;
  }
}

/** Throws a SlabcastError about the input field `field`. */
export function fail(message, field) {
  throw new SlabcastError(message, { field });
}

/**
 * The longest prefix of `s` whose UTF-8 form has at most `max` bytes, cut at a
 * character boundary. Lone surrogates count as U+FFFD (3 bytes).
 * @param {string} s
 * @param {number} [max]
 */
export function truncateUtf8(s, max = QUOTED_NAME_MAX_BYTES) {
  if (utf8Encoder.encode(s).length <= max) return s;
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + n > max) break;
    bytes += n;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** e itself when it is a SlabcastError, else a SlabcastError about `what` caused by e. */
export function asSlabcastError(e, what) {
  if (e instanceof SlabcastError) return e;
  const message = e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e);
  return new SlabcastError(`${what}: ${message}`, { cause: e });
}

/** A method named `key` that runs f under the lock and turns any other exception into a SlabcastError. */
function guardedMethod(f, key, what, lock) {
  return {
    [key](...args) {
      const locked = lock !== null && lock.enter(key);
      try { return apply(f, this, args); } catch (e) { throw asSlabcastError(e, what); } finally { if (locked) lock.leave(); }
    },
  }[key];
}

/** A getter that runs g under the lock and turns any other exception into a SlabcastError. */
function guardedGetter(g, key, what, lock) {
  return function () {
    const locked = lock !== null && lock.enter(key);
    try { return apply(g, this, []); } catch (e) { throw asSlabcastError(e, what); } finally { if (locked) lock.leave(); }
  };
}

/**
 * Wraps every method and getter of obj so that any exception that is not a SlabcastError
 * (a throwing getter or Proxy in the caller's input, say) reaches the caller as a
 * SlabcastError naming the call, with the original as its cause. With a lock, every call
 * enters it first (lock.enter(key) may refuse, or return false to run unlocked) and leaves it
 * when done. Returns a new object with obj's properties, the wrapped ones in their place.
 */
export function guardMethods(obj, prefix, lock = null) {
  // A new object, its properties added once each in obj's order: redefining obj's own
  // properties in place would turn it into a slow dictionary-mode object in V8, and every
  // call through it would pay a hash lookup.
  const out = {};
  for (const key of Reflect.ownKeys(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (typeof key === 'string' && d.enumerable) {
      if (typeof d.value === 'function') d.value = guardedMethod(d.value, key, prefix + key, lock);
      else if (typeof d.get === 'function') d.get = guardedGetter(d.get, key, prefix + key, lock);
    }
    Object.defineProperty(out, key, d);
  }
  return out;
}

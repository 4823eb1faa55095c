// typed.js: typed arrays read through the engine's own accessors.
//
// They are captured here once and never looked up on the array or its prototype chain: an array
// whose own `length` or `byteLength` was redefined (Object.defineProperty), a subclass that
// overrides them, or a later change to Float32Array.prototype cannot make slabcast read or write
// other bytes than the array really has. taKind is the brand check: the typed array's real kind
// ('Float32Array', ...), or undefined for anything else.

// Each getter is called through Function.prototype.call bound to it here, once: a later change
// to Function.prototype.call cannot reach it either, and V8 calls a bound call about three
// times faster than Reflect.apply(getter, a, []).
const uncurry = (fn) => Function.prototype.call.bind(fn);
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayGetter = (key) => uncurry(Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get);
const TA_KIND = typedArrayGetter(Symbol.toStringTag);
const TA_LENGTH = typedArrayGetter('length');
const TA_BYTE_LENGTH = typedArrayGetter('byteLength');
const TA_BYTE_OFFSET = typedArrayGetter('byteOffset');
const TA_BUFFER = typedArrayGetter('buffer');
const TA_SET = uncurry(TypedArrayPrototype.set);

/** The typed array's real kind ('Float32Array', ...), undefined when a is not a typed array. */
export const taKind = (a) => TA_KIND(a);
/** Its real number of elements. */
export const taLength = (a) => TA_LENGTH(a);
/** Its real size in bytes. */
export const taByteLength = (a) => TA_BYTE_LENGTH(a);
/** Its real offset in its buffer. */
export const taByteOffset = (a) => TA_BYTE_OFFSET(a);
/** Its real buffer. */
export const taBuffer = (a) => TA_BUFFER(a);
/** target.set(source, offset) with the engine's own set (source: a typed array or an array). */
export const taSet = (target, source, offset = 0) => TA_SET(target, source, offset);

// typed.js: typed arrays read through the engine's own accessors.
//
// They are captured here once and never looked up on the array or its prototype chain: an array
// whose own `length` or `byteLength` was redefined (Object.defineProperty), a subclass that
// overrides them, or a later change to Float32Array.prototype cannot make slabcast read or write
// other bytes than the array really has. taKind is the brand check: the typed array's real kind
// ('Float32Array', ...), or undefined for anything else.

const apply = Reflect.apply;
const NO_ARGS = Object.freeze([]); // one shared argument list: a getter call allocates nothing
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayGetter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const TA_KIND = typedArrayGetter(Symbol.toStringTag);
const TA_LENGTH = typedArrayGetter('length');
const TA_BYTE_LENGTH = typedArrayGetter('byteLength');
const TA_BYTE_OFFSET = typedArrayGetter('byteOffset');
const TA_BUFFER = typedArrayGetter('buffer');
const TA_SET = TypedArrayPrototype.set;

/** The typed array's real kind ('Float32Array', ...), undefined when a is not a typed array. */
export const taKind = (a) => apply(TA_KIND, a, NO_ARGS);
/** Its real number of elements. */
export const taLength = (a) => apply(TA_LENGTH, a, NO_ARGS);
/** Its real size in bytes. */
export const taByteLength = (a) => apply(TA_BYTE_LENGTH, a, NO_ARGS);
/** Its real offset in its buffer. */
export const taByteOffset = (a) => apply(TA_BYTE_OFFSET, a, NO_ARGS);
/** Its real buffer. */
export const taBuffer = (a) => apply(TA_BUFFER, a, NO_ARGS);
/** target.set(source, offset) with the engine's own set (source: a typed array or an array). */
export const taSet = (target, source, offset = 0) => apply(TA_SET, target, [source, offset]);

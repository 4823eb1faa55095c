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

// The buffer getters, to tell a buffer that can change size under slabcast (a resizable
// ArrayBuffer, a growable SharedArrayBuffer another thread may grow) from a fixed one. Engines
// without resizable buffers lack the getters: there every buffer is fixed.
const bufferGetter = (Type, key) => {
  const d = typeof Type === 'function' ? Object.getOwnPropertyDescriptor(Type.prototype, key) : undefined;
  return d !== undefined && typeof d.get === 'function' ? uncurry(d.get) : null;
};
const AB_RESIZABLE = bufferGetter(ArrayBuffer, 'resizable');
const SAB_GROWABLE = bufferGetter(globalThis.SharedArrayBuffer, 'growable');

/** Whether typed array a lives in a buffer whose size can change (resizable or growable). */
export function taResizable(a) {
  const buffer = TA_BUFFER(a);
  try {
    return AB_RESIZABLE !== null && AB_RESIZABLE(buffer);
  } catch {
    return SAB_GROWABLE !== null && SAB_GROWABLE(buffer); // a SharedArrayBuffer
  }
}

/**
 * A view of exactly `length` elements of typed array a from element `from` (a itself when it is
 * that already and its buffer is fixed), through the engine's own constructor: no species, no
 * subclass code. The caller has checked that a holds them. Copying from it copies those elements,
 * even from a buffer another thread grows meanwhile.
 */
export function taExact(a, Type, from, length) {
  if (from === 0 && TA_LENGTH(a) === length && !taResizable(a)) return a;
  return new Type(TA_BUFFER(a), TA_BYTE_OFFSET(a) + from * Type.BYTES_PER_ELEMENT, length);
}

/** A new Type holding `length` elements of a from element `from` (no species, no subclass code). */
export function taCopy(a, Type, from, length) {
  const c = new Type(length);
  TA_SET(c, taExact(a, Type, from, length), 0);
  return c;
}

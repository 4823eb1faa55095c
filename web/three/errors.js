// slabcast/three, errors: how the adapter's modules refuse input and report failures. Every
// error that leaves the adapter is a SlabcastError; fail() names the offending field, and
// asSlabcastError() turns anything else (a throwing getter of the scene, a Proxy) into one that
// names the call, with the original as its cause.

import { SlabcastError } from '../slabcast.js';

/** Throws a SlabcastError with message, naming field (a string, or an object made one). */
export function fail(message, field) {
  throw new SlabcastError(message, { field: typeof field === 'string' ? field : String(field) });
}

export function isNum(v) {
  return typeof v === 'number';
}

/** e itself when it is a SlabcastError, else a SlabcastError `${call}: message` caused by e. */
export function asSlabcastError(call, e) {
  if (e instanceof SlabcastError) return e;
  return new SlabcastError(`${call}: ${e && e.message ? e.message : String(e)}`, { cause: e });
}

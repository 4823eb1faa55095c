// The playground's scene state, gathered: everything web/repro.js, the tests and
// other pages import from one place. Each concern is a module of its own:
//
//   scene.mjs        the scene's schema, the default scene, copies, bit-exact comparison
//   scene-check.mjs  validity (docs/semantics.md, OBB orthonormality aside)
//   link.mjs         the shareable link (URL fragment): its byte format, encode, decode
//   case-file.mjs    the case-file export (toCaseFile) and import (fromCaseFile)
//   ui-state.mjs     the view settings a link carries beside the scene
//
// Pure ES modules: no DOM, no wasm instance, no globals; they run unchanged in
// Node and in browsers.

export { MAX_RAYS, MAX_SHAPES, cloneState, defaultState, sameState } from './scene.mjs';
export { validateState } from './scene-check.mjs';
export { LINK_VERSION, MAX_FRAGMENT_CHARS, decode, encode } from './link.mjs';
export { MAX_IMPORT_BYTES, MAX_IMPORT_CASES, fromCaseFile, toCaseFile } from './case-file.mjs';

// The slabcast version, for files that record which build made them (case files
// exported by the playground or by slabcast/repro). package.json, the C header
// (SC_VERSION_STRING), the wasm build (sc_wasm_version) and CMake hold the same
// string; tests/web/version.test.mjs checks that they agree.

/** The version of this slabcast package, e.g. "0.1.0". */
export const VERSION = '0.1.0';

#!/usr/bin/env bash
# Build the native library, runner and tests (build/native) and the WebAssembly
# core (build/wasm, copied to web/slabcast.wasm). Presets: CMakePresets.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "build: native (build/native)"
cmake --preset native
cmake --build --preset native
echo "build: wasm (build/wasm -> web/slabcast.wasm)"
cmake --preset wasm
cmake --build --preset wasm

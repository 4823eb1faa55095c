#!/usr/bin/env bash
# Build the native library, runner and tests (build/native) and the WebAssembly
# core (build/wasm). CMake writes only into build/; this script then stages the product module
# beside its loader (web/slabcast.wasm, where web/slabcast.js and the npm package find it).
# The benchmark's scene module stays in build/wasm/slabcast-bench.wasm. Presets: CMakePresets.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "build: native (build/native)"
cmake --preset native
cmake --build --preset native
echo "build: wasm (build/wasm; slabcast.wasm and slabcast-mt.wasm staged in web/)"
cmake --preset wasm
cmake --build --preset wasm
cp build/wasm/slabcast.wasm web/slabcast.wasm
# The shared-memory build for slabcast/parallel (docs/parallel.md), staged the same way.
cp build/wasm/slabcast-mt.wasm web/slabcast-mt.wasm

#!/usr/bin/env bash
# The native tests (unit, world, case files, fuzz-corpus replays) under AddressSanitizer +
# UndefinedBehaviorSanitizer (CMake preset `asan`, build/asan). Part of `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "asan: build (preset asan: build/asan)"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "asan: ctest"
ctest --preset asan

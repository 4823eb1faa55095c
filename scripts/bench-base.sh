#!/usr/bin/env bash
# Builds the commit before issue 25 (default 481861d: main before the issue's work) in a worktree
# of its own, for the "before" side of the benchmarks and of the answer digests:
#   bash scripts/bench-base.sh [COMMIT] [DIR]     (default: 481861d /tmp/base)
# DIR then holds that commit's web/slabcast.js + web/slabcast.wasm (its JS module and wasm) and
# build/native/{bench_world,answers_digest,slabcast-cases}: that commit's library under this
# checkout's tools/bench_world.c and tools/answers_digest.c (so both sides are measured and hashed
# by the same program). Then, from this checkout:
#   node web/bench/answers.mjs --web DIR/web --native DIR/build/native --record tests/answers/digests.json
#   node web/bench/build-times.mjs --base DIR [--record web/bench/baseline.json]
#   node web/bench/bench.mjs --base DIR
# Remove it afterwards: git worktree remove --force DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="${1:-481861d}"
dir="${2:-/tmp/base}"
if [ ! -d "$dir" ]; then
  git -C "$here" worktree add --detach "$dir" "$commit"
fi
dir="$(cd "$dir" && pwd)" # absolute: the tools below are compiled from here with -I"$dir/src"
cd "$dir"
[ -e node_modules ] || ln -s "$here/node_modules" node_modules
cmake --preset native >/dev/null
cmake --build --preset native --target slabcast slabcast-cases
NODE_PATH=/usr/share/nodejs cmake --preset wasm >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build --preset wasm --target slabcast_wasm
cp build/wasm/slabcast.wasm web/slabcast.wasm
# This checkout's tools against that commit's library, with the flags CMake gives them (Release).
for tool in bench_world answers_digest; do
  cc -O3 -DNDEBUG -std=gnu11 -ffp-contract=off -I"$dir/src" "$here/tools/$tool.c" build/native/libslabcast.a -lm \
    -o "build/native/$tool"
done
echo "bench-base: $(git -C "$dir" rev-parse --short HEAD) built in $dir"

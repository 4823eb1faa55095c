#!/usr/bin/env bash
# Package test (ctest: package/subproject and package/fast-math-refused): slabcast pulled into a
# consumer with add_subdirectory (tests/package/subproject).
#   shared      Debug + BUILD_SHARED_LIBS=ON: the parent keeps Debug (slabcast compiled with the
#               parent's Debug flags), libslabcast is a shared object exporting the public sc_*
#               functions and nothing internal, and the consumer runs against it.
#   static      no build type given: the parent's CMAKE_BUILD_TYPE stays empty (slabcast does not
#               force Release on it), the library is static, the consumer runs.
#   fast-math   CMAKE_C_FLAGS=-ffast-math: the build fails with slabcast's message saying why.
#
#   bash tests/package/subproject.sh MODE [SOURCE_DIR [WORK_DIR]]
set -euo pipefail

mode=${1:?mode: shared, static or fast-math}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${2:-$here/../..}" && pwd)
work=${3:-$src/build/subproject-test}/$mode
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

say() { printf 'subproject(%s): %s\n' "$mode" "$*"; }
die() { printf 'subproject(%s): FAILED: %s\n' "$mode" "$*" >&2; exit 1; }
run() { printf 'subproject(%s): + %s\n' "$mode" "$*"; "$@"; }

rm -rf -- "$work"
mkdir -p -- "$work"
configure() {
  run cmake -S "$here/subproject" -B "$work" "-DSLABCAST_SOURCE_DIR=$src" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@"
}
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$work/CMakeCache.txt"; }

case $mode in
shared)
  configure -DCMAKE_BUILD_TYPE=Debug -DBUILD_SHARED_LIBS=ON
  [[ $(cache_value CMAKE_BUILD_TYPE) == Debug ]] || die "CMAKE_BUILD_TYPE is '$(cache_value CMAKE_BUILD_TYPE)', not Debug"
  run cmake --build "$work" --parallel "$jobs"
  # slabcast's own sources were compiled with the parent's Debug flags (-g, no -O3).
  entry=$(grep -F '"command"' "$work/compile_commands.json" | grep -F '/src/slabcast.c' | head -n 1)
  [[ $entry == *" -g "* && $entry != *"-O3"* ]] || die "src/slabcast.c not compiled as Debug: $entry"
  lib=$(find "$work/slabcast" -maxdepth 1 -name 'libslabcast.so*' -type f -print -quit)
  [[ -n $lib ]] || die "no shared libslabcast.so under $work/slabcast"
  [[ ! -e $work/slabcast/libslabcast.a ]] || die "a static libslabcast.a was built too"
  say "shared library: ${lib#"$work"/}"
  exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }')
  grep -qx 'sc_raycast_aabb' <<<"$exported" || die "sc_raycast_aabb is not exported"
  grep -qx 'sc_world_cast_rays' <<<"$exported" || die "sc_world_cast_rays is not exported"
  leaked=$({ grep -v '^sc_' <<<"$exported" || true; grep '^sc__' <<<"$exported" || true; })
  [[ -z $leaked ]] || die "internal symbols exported: $leaked"
  say "exports $(wc -l <<<"$exported") functions, all public sc_*"
  deps=$(ldd "$work/slabcast_consumer")
  grep -q 'libslabcast\.so' <<<"$deps" || die "the consumer does not link the shared library: $deps"
  run "$work/slabcast_consumer"
  ;;
static)
  configure
  [[ -z $(cache_value CMAKE_BUILD_TYPE) ]] || die "slabcast set the parent's CMAKE_BUILD_TYPE to '$(cache_value CMAKE_BUILD_TYPE)'"
  run cmake --build "$work" --parallel "$jobs"
  [[ -f $work/slabcast/libslabcast.a ]] || die "no static libslabcast.a"
  run "$work/slabcast_consumer"
  ;;
fast-math)
  configure -DCMAKE_C_FLAGS=-ffast-math
  if out=$(cmake --build "$work" --parallel 1 2>&1); then
    die "slabcast built with -ffast-math"
  fi
  grep -q 'slabcast must not be built with -ffast-math' <<<"$out" || { printf '%s\n' "$out" >&2; die "the build failed without slabcast's message"; }
  say "refused: $(grep -m1 -o 'slabcast must not be built with -ffast-math[^"]*' <<<"$out")"
  ;;
*) die "unknown mode $mode" ;;
esac
say ok

#!/usr/bin/env bash
# Package test (ctest: package/cmake-consumer). Builds slabcast (Release, no tools or tests),
# installs it into a fresh prefix, then builds and runs the consumer in tests/package/cmake-consumer
#   1. through CMake: find_package(slabcast 0.1 REQUIRED) + slabcast::slabcast, and
#   2. through pkg-config: cc main.c $(pkg-config --cflags --libs slabcast).
# Everything happens under WORK_DIR, which is wiped first.
#
#   bash tests/package/cmake-consumer.sh [SOURCE_DIR [WORK_DIR]]
#   (defaults: this repository and build/package-test; ctest passes <build dir>/package-test)
# Honours CC (the compiler) and CMAKE_GENERATOR. Exits 77 (ctest: skipped) only when
# pkg-config is missing, after the CMake part has passed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
work=${2:-$src/build/package-test}
consumer_src=$here/cmake-consumer
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

say() { printf 'package-test: %s\n' "$*"; }
die() { printf 'package-test: FAILED: %s\n' "$*" >&2; exit 1; }
run() { printf 'package-test: + %s\n' "$*"; "$@"; }
on_exit() {
  local status=$?
  ((status == 0 || status == 77)) || printf 'package-test: FAILED (exit %d)\n' "$status" >&2
}
trap on_exit EXIT

[[ -f $src/CMakeLists.txt && -f $src/src/slabcast.h ]] || die "not a slabcast source tree: $src"
[[ -f $consumer_src/CMakeLists.txt ]] || die "consumer missing: $consumer_src"

build=$work/build
prefix=$work/prefix
consumer_build=$work/consumer-build
pc_bin=$work/pkgconfig-consumer
say "source $src, work dir $work"
rm -rf -- "$build" "$prefix" "$consumer_build" "$pc_bin"
mkdir -p -- "$work" "$pc_bin"

say "1/4 build slabcast (Release, tools and tests off)"
run cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DSLABCAST_BUILD_TOOLS=OFF -DSLABCAST_BUILD_TESTS=OFF -DSLABCAST_INSTALL=ON
run cmake --build "$build" --parallel "$jobs"

say "2/4 install into $prefix"
run cmake --install "$build" --prefix "$prefix"
# The library directory is lib, lib64 or lib/<multiarch>, depending on the platform.
config=$(find "$prefix" -name slabcastConfig.cmake -print -quit)
[[ -n $config ]] || die "no slabcastConfig.cmake under $prefix"
cmake_dir=$(dirname "$config")
libdir=$(dirname "$(dirname "$cmake_dir")")
for f in "$prefix/include/slabcast.h" "$libdir/libslabcast.a" "$cmake_dir/slabcastConfig.cmake" \
         "$cmake_dir/slabcastConfigVersion.cmake" "$cmake_dir/slabcastTargets.cmake" \
         "$libdir/pkgconfig/slabcast.pc"; do
  [[ -f $f ]] || die "not installed: $f"
  say "installed: ${f#"$prefix"/}"
done
for f in sc_internal.h sc_simd.h sc_kernels.h; do
  [[ ! -e $prefix/include/$f ]] || die "internal header installed: include/$f"
done
# Relocatable: no absolute path of the build machine (source tree, build tree, libm) in the
# installed package files.
if grep -n -F -e "$src" -e "$build" -e "$prefix" -e '/libm.' "$cmake_dir"/*.cmake "$libdir/pkgconfig/slabcast.pc"; then
  die "absolute paths in the installed CMake / pkg-config files (above)"
fi

say "3/4 CMake consumer: find_package(slabcast 0.1 REQUIRED), slabcast::slabcast"
run cmake -S "$consumer_src" -B "$consumer_build" -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_PREFIX_PATH=$prefix"
found=$(sed -n 's/^slabcast_DIR:PATH=//p' "$consumer_build/CMakeCache.txt")
[[ $found == "$cmake_dir" ]] || die "find_package found slabcast in '$found', not in $cmake_dir"
run cmake --build "$consumer_build" --parallel "$jobs"
run "$consumer_build/slabcast_consumer"

say "4/4 pkg-config consumer"
if ! command -v pkg-config >/dev/null 2>&1; then
  say "SKIPPED: pkg-config is missing (Debian: apt-get install pkgconf); the CMake part passed"
  exit 77
fi
export PKG_CONFIG_PATH=$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
say "PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
pc_version=$(pkg-config --modversion slabcast)
say "pkg-config --modversion slabcast: $pc_version"
want_version=$(sed -n 's/^project(slabcast VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ $pc_version == "$want_version" ]] || die "slabcast.pc has version '$pc_version', project() says '$want_version'"
pc_flags=$(pkg-config --cflags --libs slabcast)
say "pkg-config --cflags --libs slabcast: $pc_flags"
# shellcheck disable=SC2086  # the flags are meant to be split
run "${CC:-cc}" "$consumer_src/main.c" $pc_flags -o "$pc_bin/slabcast_consumer"
run "$pc_bin/slabcast_consumer"

say "ok: installed package works from CMake and pkg-config"

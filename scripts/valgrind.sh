#!/usr/bin/env bash
# Runs the native programs (preset `native`, build/native) under Valgrind's memcheck: the unit
# tests, the world tests, and the case runner (run and check) on every tests/cases/*.json.
# Fails on any memory error or leak. About a minute on two cores (the world tests take most of
# it), so it is not part of npm test; the sanitizer preset `asan` (npm run test:asan) and the
# fuzzers (scripts/fuzz.sh) cover the same code on every npm test.
#
#   bash scripts/valgrind.sh      # or: npm run test:valgrind
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'valgrind: %s\n' "$*"; }

if ! command -v valgrind >/dev/null 2>&1; then
  say "valgrind is missing (Debian: apt-get install valgrind)" >&2
  exit 1
fi

say "build (preset native: build/native)"
cmake --preset native >/dev/null
cmake --build --preset native -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

# --error-exitcode=99: told apart from the programs' own statuses (the runner exits 2 on a
# refused file)
VG=(valgrind --quiet --error-exitcode=99 --leak-check=full --track-origins=yes)
failed=0
# check WHAT EXPECTED-STATUS COMMAND...
check() {
  local what=$1 want=$2
  shift 2
  local log status=0
  log=$(mktemp)
  "${VG[@]}" "$@" >/dev/null 2>"$log" || status=$?
  if ((status == want)); then
    say "ok: $what"
  else
    say "FAILED: $what (exit $status, expected $want)" >&2
    cat "$log" >&2
    failed=1
  fi
  rm -f "$log"
}

check "unit tests" 0 build/native/slabcast_tests
check "world tests" 0 build/native/slabcast_world_tests
for f in tests/cases/*.json; do
  check "slabcast-cases run $f" 0 build/native/slabcast-cases run "$f"
  check "slabcast-cases check $f" 0 build/native/slabcast-cases check "$f"
done
# the error paths: a refused file, a missing file, bad usage
check "slabcast-cases run (not JSON)" 2 build/native/slabcast-cases run scripts/valgrind.sh
check "slabcast-cases check (missing file)" 2 build/native/slabcast-cases check tests/cases/no-such-file.json
check "slabcast-cases (usage)" 2 build/native/slabcast-cases

if ((failed)); then
  say "memcheck found errors" >&2
  exit 1
fi
say "clean"

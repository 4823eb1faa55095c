#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`: clang, AddressSanitizer + UBSan) and runs
# each build/fuzz/fuzz_* for SECONDS (default 5) on a fresh copy of its seed corpus
# tests/fuzz/corpus/<target>/ (what a run finds goes to the copy, never into the repository).
# Fails when any target crashes, leaks, trips a sanitizer or breaks an invariant; the input
# that did it is kept and its path printed (replay: build/fuzz/<target> FILE).
#
#   bash scripts/fuzz.sh         # 5 s per target (part of npm test)
#   bash scripts/fuzz.sh 600     # the longer run: 10 minutes per target
#
# FUZZ_TARGETS="fuzz_world" limits the run to some targets; FUZZ_WORK sets the work directory
# (default build/fuzz/work). Details: docs/fuzzing.md.
#
# The target world_model is the model-based test of the JS world API
# (tests/web/world-model.test.mjs, fast-check) for SECONDS with a random seed (printed;
# FUZZ_MODEL_SEED=N to choose it); a failure prints the seed and the counterexample's path to
# replay it. It needs web/slabcast.wasm (bash scripts/build.sh), not clang.
# npm test runs only the libFuzzer targets here (FUZZ_TARGETS), so that it stays deterministic:
# vitest runs the same model test there with its fixed seed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${1:-5}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: bash scripts/fuzz.sh [SECONDS]   (SECONDS per target, default 5)" >&2
  exit 2
fi
targets=(${FUZZ_TARGETS:-fuzz_cases fuzz_queries fuzz_world fuzz_capsule world_model})
native=()
model=0
for t in "${targets[@]}"; do
  if [[ $t == world_model ]]; then model=1; else native+=("$t"); fi
done
# A fixed seed, so that a run (and a failure) can be repeated: FUZZ_SEED=N to choose another.
seed=${FUZZ_SEED:-20261125}
if ! [[ $seed =~ ^[0-9]+$ ]] || ((seed < 1)); then
  echo "fuzz: FUZZ_SEED must be a positive integer, not \"$seed\"" >&2
  exit 2
fi
work=${FUZZ_WORK:-build/fuzz/work}

say() { printf 'fuzz: %s\n' "$*"; }

failed=()
if ((${#native[@]})); then
  if ! command -v clang >/dev/null 2>&1; then
    say "clang is missing (Debian: apt-get install clang; npm run setup installs it)" >&2
    exit 1
  fi
  say "build (preset fuzz: build/fuzz)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz --target "${native[@]}" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
fi

for t in "${native[@]}"; do
  dir=$work/$t
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -R "tests/fuzz/corpus/$t/." "$dir/corpus/"
  log=$dir/fuzz.log
  say "$t: ${seconds} s on a copy of tests/fuzz/corpus/$t ($(ls "$dir/corpus" | wc -l) inputs), -seed=$seed"
  status=0
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: the default, stated.
  "build/fuzz/$t" "$dir/corpus" -seed="$seed" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/cov \1, ft \2, corpus \3/')
  if ((status != 0)); then
    say "$t: FAILED (exit $status); log: $log" >&2
    grep -E 'invariant failed|ERROR: |runtime error|SUMMARY' "$log" | head -n 5 >&2 || true
    for a in "$dir"/artifacts/*; do [[ -e $a ]] && say "  input kept: $a (replay: build/fuzz/$t $a; rerun: FUZZ_SEED=$seed)" >&2; done
    failed+=("$t")
  else
    say "$t: ok, ${runs:-?} runs (${rate:-?}/s), ${cov:-no coverage line}"
  fi
done

# The model-based test of the JS world API: as many runs as fit in SECONDS, a random seed.
if ((model)); then
  mseed=${FUZZ_MODEL_SEED:-$(( (RANDOM << 15 | RANDOM) + 1 ))}
  if ! [[ $mseed =~ ^[0-9]+$ ]] || ((mseed < 1 || mseed > 2147483647)); then
    echo "fuzz: FUZZ_MODEL_SEED must be an integer in [1, 2147483647], not \"$mseed\"" >&2
    exit 2
  fi
  dir=$work/world_model
  rm -rf "$dir"
  mkdir -p "$dir"
  log=$dir/vitest.log
  say "world_model: ${seconds} s of tests/web/world-model.test.mjs, seed $mseed"
  status=0
  NO_COLOR=1 SLABCAST_MODEL_SEED=$mseed SLABCAST_MODEL_RUNS=100000000 SLABCAST_MODEL_TIME=$seconds \
    npx vitest run tests/web/world-model.test.mjs >"$log" 2>&1 || status=$?
  if ((status != 0)); then
    say "world_model: FAILED (exit $status); log: $log" >&2
    grep -E '^(world model FAILED|counterexample|error): ' "$log" | cut -c1-2000 >&2 || tail -n 20 "$log" >&2
    replay=$(sed -n 's/^world model FAILED: //p' "$log" | head -n 1)
    [[ -n $replay ]] && say "  replay: $replay npx vitest run tests/web/world-model.test.mjs" >&2
    failed+=(world_model)
  else
    say "world_model: ok, $(grep -o 'world model: [0-9]* runs' "$log" | head -n 1 | grep -o '[0-9]*') runs"
  fi
fi

if ((${#failed[@]})); then
  say "failed: ${failed[*]}" >&2
  exit 1
fi
say "all targets ran ${seconds} s without a failure"

#!/usr/bin/env bash
# npm run bench: the set-up and build, the answer digests' check, then web/bench/bench.mjs with the
# commit before issue 25 built beside this one (scripts/bench-base.sh, into build/base), so that the
# Targets table's "before" BVH build times are measured in the same run, alternated with this
# build's, on this machine. Without git or that commit (an export of the sources, a shallow clone),
# the run goes on with the times recorded in web/bench/baseline.json, and says so.
# Arguments go to bench.mjs (sizes, --no-scenes, --no-three, --no-browser).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
bash scripts/build.sh
node web/bench/answers.mjs --check tests/answers/digests.json
commit=481861d
base=build/base
if git rev-parse --verify --quiet "$commit^{commit}" >/dev/null 2>&1 && bash scripts/bench-base.sh "$commit" "$base"; then
  exec node web/bench/bench.mjs --base "$base" "$@"
fi
echo "bench: the commit before ($commit) could not be built here; the \"before\" build times are web/bench/baseline.json's" >&2
exec node web/bench/bench.mjs "$@"

#!/usr/bin/env bash
# Idempotent setup for a fresh clone (Debian/Ubuntu): installs the missing system
# packages with apt-get and the npm dependencies with `npm ci`. Non-interactive
# (works as root with no stdin, e.g. CI=true); without root it uses sudo when it
# has to install something. Prints what it does; does nothing when all is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'setup: %s\n' "$*"; }
# shellcheck source=apt-wait.sh
source scripts/apt-wait.sh

# System packages: build tools, cJSON for the native runner, Emscripten for the
# wasm core, Chromium for the browser tests (never downloaded by npm), clang for the
# fuzzers (scripts/fuzz.sh), Embree 3 for the native peer benchmark (build/native/bench_embree).
PACKAGES=(cmake make gcc pkg-config libcjson-dev emscripten chromium clang libembree-dev)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# libFuzzer's runtime (clang -fsanitize=fuzzer) and clang's sanitizer runtimes are in
# libclang-rt-N-dev, which clang-N only recommends (bookworm: clang-14, libclang-rt-14-dev;
# `dpkg -S libclang_rt.fuzzer-x86_64.a`). Prints that package's name once clang's version is known.
clang_rt_package() {
  local v=""
  if command -v clang >/dev/null 2>&1; then
    v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
  else
    v=$(apt-cache depends clang 2>/dev/null | sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1)
  fi
  if [[ -n $v ]]; then printf 'libclang-rt-%s-dev\n' "$v"; fi
}

# Installs the packages named (apt-get update first, once).
updated=0
apt_install() {
  if [[ $(id -u) -eq 0 ]]; then
    APT_SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    APT_SUDO=(sudo -n)
  else
    say "missing Debian packages: $*; run as root: apt-get install $*" >&2
    exit 1
  fi
  say "installing Debian packages: $*"
  if ((!updated)); then
    say "apt-get update"
    apt_get_waiting update
    updated=1
  fi
  apt_get_waiting install -y "$@"
}

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  rt=$(clang_rt_package)
  for p in "${PACKAGES[@]}" $rt; do
    installed "$p" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    apt_install "${missing[@]}"
  else
    say "Debian packages present: ${PACKAGES[*]} $rt"
  fi
  # clang installed just now: its runtime package is known only now (and apt may have left
  # the recommends out)
  rt=$(clang_rt_package)
  if [[ -n $rt ]] && ! installed "$rt"; then
    apt_install "$rt"
  fi
else
  say "no dpkg/apt-get here: not installing system packages; checking the tools instead"
  for tool in cmake emcc pkg-config clang; do
    command -v "$tool" >/dev/null 2>&1 || { say "missing: $tool (install it and retry)" >&2; exit 1; }
  done
fi

# npm dependencies, exactly as locked. node_modules is stale when it was not
# installed from the current package-lock.json (its hash is kept next to it).
stamp=node_modules/.slabcast-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
have=$(cat "$stamp" 2>/dev/null || true)
if [[ ! -d node_modules || "$have" != "$want" ]]; then
  if [[ ! -d node_modules ]]; then
    say "npm ci (node_modules is missing)"
  else
    say "npm ci (node_modules does not match package-lock.json)"
  fi
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund </dev/null
  printf '%s\n' "$want" >"$stamp"
else
  say "node_modules matches package-lock.json"
fi

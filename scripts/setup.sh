#!/usr/bin/env bash
# Idempotent setup for a fresh clone (Debian/Ubuntu): installs the missing system
# packages with apt-get and the npm dependencies with `npm ci`. Non-interactive
# (works as root with no stdin, e.g. CI=true); without root it uses sudo when it
# has to install something. Prints what it does; does nothing when all is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'setup: %s\n' "$*"; }

# System packages: build tools, cJSON for the native runner, Emscripten for the
# wasm core, Chromium for the browser tests (never downloaded by npm).
PACKAGES=(cmake make gcc pkg-config libcjson-dev emscripten chromium)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for p in "${PACKAGES[@]}"; do
    installed "$p" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
      SUDO=()
    elif command -v sudo >/dev/null 2>&1; then
      SUDO=(sudo -n)
    else
      say "missing Debian packages: ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    say "installing Debian packages: ${missing[*]}"
    say "apt-get update"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" </dev/null
  else
    say "Debian packages present: ${PACKAGES[*]}"
  fi
else
  say "no dpkg/apt-get here: not installing system packages; checking the tools instead"
  for tool in cmake emcc pkg-config; do
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

# shellcheck shell=bash
# apt_get_waiting ARGS...: apt-get ARGS, waiting for another package install to finish
# instead of failing on its lock. Sourced by scripts/setup.sh.
#
# Another apt or dpkg run (unattended-upgrades on a fresh machine, a second set-up) holds
# /var/lib/dpkg/lock-frontend, /var/lib/dpkg/lock or /var/lib/apt/lists/lock. apt-get's own
# DPkg::Lock::Timeout covers the dpkg locks of install, but `apt-get update` fails at once
# on the lists lock, so every lock failure is also retried here until SLABCAST_APT_WAIT
# seconds (default 1200) have passed; then it fails with a message naming the lock.
# Runs "${APT_SUDO[@]}" in front of apt-get when that array is set.

apt_get_waiting() {
  local limit=${SLABCAST_APT_WAIT:-1200} start=$SECONDS out status said=0
  if ! [[ $limit =~ ^[0-9]+$ ]]; then
    printf 'setup: SLABCAST_APT_WAIT must be a number of seconds, not "%s"\n' "$limit" >&2
    return 2
  fi
  out=$(mktemp)
  while true; do
    status=0
    ${APT_SUDO[@]+"${APT_SUDO[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$limit" "$@" \
      </dev/null 2>"$out" || status=$?
    if ((status == 0)) || ! grep -qiE 'could not get lock|unable to (acquire|lock)' "$out"; then
      cat "$out" >&2
      rm -f "$out"
      return "$status"
    fi
    if ((SECONDS - start >= limit)); then
      cat "$out" >&2
      rm -f "$out"
      printf 'setup: gave up after %s s waiting for another package install to release its lock (see above); run the set-up again when it has finished\n' "$limit" >&2
      return "$status"
    fi
    if ((!said)); then
      printf 'setup: another package install holds the apt/dpkg lock; waiting for it (up to %s s)\n' "$limit" >&2
      said=1
    fi
    sleep 3
  done
}

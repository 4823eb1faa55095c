// scripts/setup.sh waits for another package install instead of failing on its lock.
// The test holds apt's lists lock and the dpkg locks for a few seconds from another
// process (fcntl locks, as apt and dpkg take them) and runs apt_get_waiting, the wrapper
// setup.sh calls apt-get through, with commands that need those locks but change nothing:
// an `apt-get update` with no sources and an install of a package that is already there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get') && existsSync('/usr/bin/perl') && existsSync('/var/lib/dpkg/lock-frontend');
const why = !isRoot ? "skipped: not root, cannot take the apt and dpkg locks" : (hasApt ? "" : "skipped: no apt-get, perl or dpkg here");

/** Holds fcntl write locks on `files` for `seconds`; resolves once they are held. */
function holdLocks(files, seconds) {
  const script = `use Fcntl; my @f; for my $p (@ARGV) { open(my $h, '>>', $p) or die "open $p: $!";
    my $l = pack('s s x4 q q i x4', F_WRLCK, 0, 0, 0, 0); fcntl($h, F_SETLK, $l) or die "lock $p: $!"; push @f, $h }
    $| = 1; print "held\\n"; sleep ${seconds}; print "released\\n";`;
  const child = spawn('perl', ['-e', script, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
  const events = [];
  const released = new Promise((resolve) => child.on('exit', resolve));
  const held = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        events.push(line);
        if (line === 'held') resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`lock holder exited with ${code} before holding the locks`)));
  });
  return { held, released, events };
}

/** Runs apt_get_waiting ARGS in bash (as setup.sh does); resolves with its exit code and output. */
function aptWaiting(args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', 'set -euo pipefail; source scripts/apt-wait.sh; apt_get_waiting "$@"', 'x', ...args],
      { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const noSources = ['update', '-o', 'Dir::Etc::sourcelist=/dev/null', '-o', 'Dir::Etc::sourceparts=/nonexistent'];
const installed = spawnSync('dpkg-query', ['-W', '-f=${Status}', 'bash']).stdout?.toString() ?? '';

describe.skipIf(!isRoot || !hasApt)(`setup waits for the apt and dpkg locks ${why}`, () => {
  it('apt-get update waits while another process holds the lists lock, then succeeds', async () => {
    const lock = holdLocks(['/var/lib/apt/lists/lock'], 4);
    await lock.held;
    const r = await aptWaiting(noSources);
    await lock.released;
    expect(r.out).toMatch(/another package install holds the apt\/dpkg lock; waiting/);
    expect(r.code).toBe(0);
    // It finished after the holder let go, not before.
    expect(lock.events).toEqual(['held', 'released']);
  }, 60_000);

  it('apt-get install waits while another process holds the dpkg locks, then succeeds', async () => {
    expect(installed).toContain('install ok installed');
    const lock = holdLocks(['/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock'], 4);
    await lock.held;
    let finished = false;
    const run = aptWaiting(['install', '-y', '--no-download', 'bash']).then((r) => { finished = true; return r; });
    await lock.released;
    const stillWaiting = !finished;
    const r = await run;
    expect(stillWaiting).toBe(true);
    expect(r.code).toBe(0);
  }, 60_000);

  it('gives up after SLABCAST_APT_WAIT seconds with a message naming the lock', async () => {
    const lock = holdLocks(['/var/lib/apt/lists/lock'], 8);
    await lock.held;
    const r = await aptWaiting(noSources, { SLABCAST_APT_WAIT: '2' });
    await lock.released;
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/Could not get lock \/var\/lib\/apt\/lists\/lock/);
    expect(r.out).toMatch(/gave up after 2 s waiting for another package install/);
  }, 60_000);
});

// The Targets table of issue 25, printed last by `npm run bench` (web/bench/bench.mjs): per
// target, the figure measured in this run beside its peer's, the ratio, the target and whether it
// is met. Also the run's header (machine, versions, command). bench.mjs gathers the inputs:
//   embree   build/native/bench_embree's lines ({ machine } line, then one row per size)
//   rows     bench.mjs's main rows (wasm: build_ms, bytes_per_box, refit_bytes_same, peers)
//   native   build/native/bench_world's rows by size (build_ms, bytes_per_box, refit_*)
//   single   web/bench/single.mjs singleRayRows() (ns per call)
//   parallel web/bench/parallel-bench.mjs runParallelBench() rows
//   before   the build times of main before issue 25 (web/bench/baseline.json, or measured in this
//            run with --base DIR): { commit, how, wasm: { n: ms }, native: { n: ms } }
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const fmtRate = (x) => (!Number.isFinite(x) ? '-' : x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k/s` : `${x.toFixed(0)} /s`);
const fx = (x, d = 2) => (Number.isFinite(x) ? `${x.toFixed(d)}x` : '-');

/** The CPU's model and SIMD flags from /proc/cpuinfo (Linux), else os.cpus(). */
export function cpuInfo() {
  let model = os.cpus()[0]?.model ?? '?';
  let flags = [];
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    model = text.match(/^model name\s*:\s*(.*)$/m)?.[1] ?? model;
    const all = new Set((text.match(/^flags\s*:\s*(.*)$/m)?.[1] ?? '').split(/\s+/));
    flags = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f'].filter((f) => all.has(f));
  } catch { /* not Linux */ }
  return { model, flags, cores: os.availableParallelism?.() ?? os.cpus().length };
}

/** The C compiler of a CMake build directory: "GNU 12.2.0", or '?' when not configured. */
export function cmakeCompiler(buildDir) {
  try {
    const dir = path.join(buildDir, 'CMakeFiles');
    for (const v of readdirSync(dir)) {
      const f = path.join(dir, v, 'CMakeCCompiler.cmake');
      if (!existsSync(f)) continue;
      const text = readFileSync(f, 'utf8');
      const id = text.match(/set\(CMAKE_C_COMPILER_ID "([^"]*)"\)/)?.[1];
      const ver = text.match(/set\(CMAKE_C_COMPILER_VERSION "([^"]*)"\)/)?.[1];
      const cc = text.match(/set\(CMAKE_C_COMPILER "([^"]*)"\)/)?.[1] ?? '';
      return `${id ?? '?'} ${ver ?? '?'}${/em(cc|scripten)/.test(cc) ? ' (Emscripten)' : ''}`;
    }
  } catch { /* not built */ }
  return '?';
}

/** The header lines: command, date, commit, machine, versions. */
export function header({ root, argv, embreeMachine, simd }) {
  const cpu = cpuInfo();
  let commit = '?';
  try {
    commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch { /* not a checkout */ }
  const em = embreeMachine;
  return [
    `command: node web/bench/bench.mjs ${argv.join(' ')}`.trimEnd(),
    `date: ${new Date().toISOString()}, commit ${commit}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
    `machine: ${cpu.model}, ${cpu.cores} cores, SIMD flags (/proc/cpuinfo): ${cpu.flags.join(' ') || '?'}` +
      (em ? `; CPUID: avx2 ${em.machine.avx2}, fma ${em.machine.fma}, avx512f ${em.machine.avx512f}` : ''),
    `versions: Node ${process.version}; native ${cmakeCompiler(path.join(root, 'build/native'))}; wasm ${cmakeCompiler(path.join(root, 'build/wasm'))}` +
      (em ? `; Embree ${em.embree}` : ''),
    `kernels: slabcast native ${em?.slabcast_simd ?? '?'}, wasm ${simd}` +
      (em ? `; Embree default device runs ${em.embree_isa}, the isa=avx2 device ${em.embree_avx2_isa}` : ''),
  ];
}

const row = (what, at, measured, peer, ratio, target, met, note = '') => ({ what, at, measured, peer, ratio, target, met, note });

function embreeTargets(out, embree) {
  const { machine, rows } = embree;
  // judged against the faster of Embree's two devices in this run (its default ISA is not always
  // its fastest: on a CPU with AVX-512 its AVX2 device can win on small scenes), the other beside it
  for (const r of rows) {
    const devices = [[`Embree ${machine.embree_isa}`, r.cpu_rays_per_s], [`Embree isa=avx2 (${machine.embree_avx2_isa})`, r.avx2_cpu_rays_per_s]]
      .filter(([, v]) => Number.isFinite(v) && v > 0);
    if (!devices.length) continue;
    devices.sort((a, b) => b[1] - a[1]);
    const [[name, rate], other] = devices;
    const ratio = r.slabcast_cpu_rays_per_s / rate;
    const agree = r.mismatches === 0 && r.avx2_mismatches === 0 ? 'same answers' : `${r.mismatches} / ${r.avx2_mismatches} mismatches`;
    const beside = other ? `${other[0]} ${fmtRate(other[1])}: ${fx(r.slabcast_cpu_rays_per_s / other[1])}; ` : '';
    out.push(row('native castRays vs Embree rtcIntersect1 (its faster device), thread CPU time', `${r.boxes} boxes`,
      fmtRate(r.slabcast_cpu_rays_per_s), `${name} ${fmtRate(rate)}`, fx(ratio), '>= 1.0x', ratio >= 1, `${beside}${agree}`));
  }
}

function peerTargets(out, rows) {
  for (const [peer, target, goal] of [['Jolt', 15, ' (goal 20x)'], ['rapier-simd', 12, '']]) {
    for (const r of rows.filter((x) => x.boxes === 10000 || x.boxes === 100000)) {
      const p = r.peers?.[peer];
      if (!p || p.error || !Number.isFinite(p.ratio)) {
        out.push(row(`wasm castRays vs ${peer}, one thread`, `${r.boxes} boxes`, fmtRate(r.sc_best_rays_s), p?.error ? 'failed' : 'not run', '-', `>= ${target}x${goal}`, null));
        continue;
      }
      const plain = peer === 'rapier-simd' && r.peers.rapier && !r.peers.rapier.error ? `rapier (no SIMD) ${fx(r.peers.rapier.ratio, 1)}; ` : '';
      out.push(row(`wasm castRays vs ${peer}, one thread`, `${r.boxes} boxes`, fmtRate(r.sc_best_rays_s),
        `${fmtRate(p.rays_s)}`, fx(p.ratio, 1), `>= ${target}x${goal}`, p.ratio >= target,
        `${plain}agreement ${p.checked - p.mismatches}/${p.checked}`));
    }
  }
}

// single.mjs' singleRayRows: ns per call, and (when it gives them) ratios as the median of its
// rounds' ratios (s.ratio) and a table where every call hits (s.hits); else the ratios of the ns.
function singleTargets(out, s) {
  // the target names no array kind: each form a game may pass is judged (a Float32Array box, a
  // plain array box, a plain array ray and box)
  for (const [key, form] of [['raycastAABB', 'a Float32Array(6) box'], ['raycastAABBPlain', 'a plain array box'],
    ['raycastAABBArrays', 'a plain array ray and box']]) {
    if (s[key] === undefined) continue;
    const ratio = s.ratio?.[key] ?? s[key] / s.three;
    out.push(row(`raycastAABB, a different box array per call (${form}), vs three.js Ray.intersectBox`, `${s.n} calls`,
      `${s[key].toFixed(1)} ns`, `${s.three.toFixed(1)} ns`, fx(ratio), '<= 1.5x', ratio <= 1.5, `agreement ${s.agree}/${s.n}`));
  }
  const shapes = [['aabb', s.raycast], ...Object.entries(s.shapes ?? {})];
  for (const [shape, ns] of shapes) {
    const r = s.ratio?.[shape] ?? ns / s.raycastAABB;
    out.push(row('raycast (plain arrays in, a result object out) vs raycastAABB', shape, `${ns.toFixed(1)} ns`,
      `${s.raycastAABB.toFixed(1)} ns`, fx(r), '<= 3x', r <= 3, s.hits ? 'the loop of single.mjs (most calls miss)' : ''));
  }
  for (const [shape, ns] of Object.entries(s.hits?.shapes ?? {})) {
    const r = s.hits.ratio?.[shape] ?? ns / s.hits.raycastAABB;
    out.push(row('raycast (plain arrays in, a result object out) vs raycastAABB, every call a hit', shape, `${ns.toFixed(1)} ns`,
      `${s.hits.raycastAABB.toFixed(1)} ns`, fx(r), '<= 3x', r <= 3, s.hits.count ? `${s.hits.count[shape]} hits` : ''));
  }
}

function worldTargets(out, { rows, native, before }) {
  for (const r of rows) {
    const nat = native.get(r.boxes);
    const worst = Math.max(r.bytes_per_box, nat?.bytes_per_box ?? 0);
    out.push(row('memory per box (world bytes / boxes)', `${r.boxes} boxes`, `wasm ${r.bytes_per_box.toFixed(0)} B`,
      '-', '-', '<= 200 B', worst <= 200, nat ? `native ${nat.bytes_per_box.toFixed(0)} B` : ''));
  }
  for (const [where, get] of [['wasm', (r) => r.build_best_ms], ['native', (r) => native.get(r.boxes)?.build_ms]]) {
    for (const r of rows) {
      const now = get(r);
      const was = before?.[where]?.[r.boxes];
      const ratio = now / was;
      out.push(row(`BVH build time, ${where}`, `${r.boxes} boxes`, Number.isFinite(now) ? `${now.toFixed(2)} ms` : '-',
        was ? `before ${was.toFixed(2)} ms` : 'before: not recorded', fx(ratio), 'no worse (<= 1.10x: the run-to-run spread)',
        Number.isFinite(ratio) ? ratio <= 1.1 : null, before ? `before: ${before.commit}, ${before.how}` : ''));
    }
  }
  for (const r of rows) {
    const nat = native.get(r.boxes);
    const nativeOk = nat ? nat.refit_allocs === 0 && nat.refit_frees === 0 && nat.refit_bytes_same : null;
    const ok = r.refit_bytes_same && nativeOk !== false;
    out.push(row('refit in place', `${r.boxes} boxes`,
      nat ? `native: ${nat.refit_allocs} allocations, ${nat.refit_frees} frees, bytes ${nat.refit_bytes_same ? 'same' : 'CHANGED'}` : 'native: not run',
      '-', '-', 'no allocation, same bytes', nativeOk === null ? null : ok,
      `wasm: world.bytes ${r.refit_bytes_same ? 'same' : 'CHANGED'} across refit()`));
  }
}

function parallelTargets(out, prows, cores) {
  // the whole call's time is judged (the target: "at most 100 us per call"); the overhead beside it
  for (const r of prows.filter((x) => x.latency_us !== undefined && x.mode === 'copied')) {
    out.push(row(`parallel, copied memory, ${r.small} rays per call on ${r.workers} workers`, `${r.env}, ${r.boxes} boxes${r.path ? `, ${r.path}` : ''}`,
      `${r.latency_us.toFixed(1)} us`, `single-threaded World ${r.single_us.toFixed(1)} us`, '-', '<= 100 us per call', r.latency_us <= 100,
      `overhead ${r.overhead_us.toFixed(1)} us (call - single / threads used)${r.same === undefined ? '' : `; same bits: ${r.same ? 'yes' : 'NO'}`}`));
  }
  const w = Math.min(2, cores);
  for (const r of prows.filter((x) => x.rays_per_s !== undefined && x.mode === 'shared' && x.workers === w)) {
    const eff = r.vs_one_worker / w;
    out.push(row(`parallel, shared memory, ${w} workers: speed per core vs 1 worker`, `${r.env}, ${r.boxes} boxes`,
      fmtRate(r.rays_per_s), `1 worker ${fmtRate(r.rays_per_s / r.vs_one_worker)}`, fx(eff), '>= 0.85x per core', eff >= 0.85,
      `vs the single-threaded World: ${fx(r.vs_single / w)} per core; same bits: ${r.same ? 'yes' : 'NO'}`));
  }
}

/** The rows of the Targets table from the run's results (any input may be missing: its rows say so); o.cores: the machine's by default. */
export function targetRows(o) {
  const out = [];
  if (o.embree?.rows?.length) embreeTargets(out, o.embree);
  else out.push(row('native castRays vs Embree', '-', 'not run', '-', '-', '>= 1.0x', null, 'build/native/bench_embree missing or failed'));
  peerTargets(out, o.rows ?? []);
  if (o.single) singleTargets(out, o.single);
  worldTargets(out, o);
  if (o.parallel?.length) parallelTargets(out, o.parallel, o.cores ?? cpuInfo().cores);
  else out.push(row('parallel', '-', 'not run', '-', '-', '', null));
  return out;
}

/** The table, markdown. */
export function formatTargets(rows) {
  const lines = [
    '| target | at | slabcast | peer | ratio | target | met | notes |',
    '| --- | --- | ---: | ---: | ---: | --- | --- | --- |',
  ];
  for (const r of rows) {
    const met = r.met === null ? 'not measured' : r.met ? 'yes' : '**no**';
    lines.push(`| ${r.what} | ${r.at} | ${r.measured} | ${r.peer} | ${r.ratio} | ${r.target} | ${met} | ${r.note} |`);
  }
  const judged = rows.filter((r) => r.met !== null);
  lines.push('', `${judged.filter((r) => r.met).length} of ${judged.length} measured rows met (${rows.length - judged.length} not measured).`);
  return lines.join('\n');
}

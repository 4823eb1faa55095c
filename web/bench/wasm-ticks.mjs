// Where V8's time goes inside slabcast's wasm, per machine instruction: maps the ticks of
// `node --prof` onto the code `--print-wasm-code` printed in the same run (each function's
// TurboFan code), then prints the share of ticks per function and, for one function, its code
// with the ticks of each instruction (to a file), and its hottest basic blocks.
//
//   node --prof --prof-sampling-interval=100 --print-wasm-code SCRIPT.mjs > code.txt
//   node web/bench/wasm-ticks.mjs code.txt isolate-*.log [FUNCTION [OUT.txt]]
//
// SCRIPT casts a scene many times (e.g. world.castRays in a loop). Function names need a
// module linked with --profiling-funcs (a build directory of its own:
// cmake ... -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs); without it V8 prints wasm-function[i].
// The printing itself takes ticks (in libc's write): they stay outside every function's share.
import { readFileSync, writeFileSync } from 'node:fs';

const [codeFile, logFile, want, outFile = 'wasm-ticks.txt'] = process.argv.slice(2);
if (!codeFile || !logFile) {
  console.error('usage: node web/bench/wasm-ticks.mjs code.txt isolate.log [FUNCTION [OUT.txt]]');
  process.exit(2);
}

/** The TurboFan functions of the listing: name and instructions ({addr, off, text, ticks}, by address). */
function functions(lines) {
  const out = [];
  let cur = null;
  let inBody = false;
  for (const l of lines) {
    if (l.startsWith('name: ')) {
      cur = { name: l.slice(6), tier: '', ins: [] };
      out.push(cur);
      inBody = false;
    } else if (cur && l.startsWith('compiler: ')) {
      cur.tier = l.slice(10);
    } else if (cur && l.startsWith('Instructions (size')) {
      inBody = true;
    } else if (cur && inBody) {
      const m = /^0x([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$/.exec(l);
      if (m) cur.ins.push({ addr: BigInt(`0x${m[1]}`), off: m[2], text: m[3], ticks: 0 });
      else if (l.trim() === '' || /^[A-Z]/.test(l)) inBody = false; // the tables after the code
    }
  }
  return out.filter((f) => f.tier === 'TurboFan' && f.ins.length > 0);
}

const funcs = functions(readFileSync(codeFile, 'utf8').split('\n'));
const ranges = funcs.map((f) => ({ f, lo: f.ins[0].addr, hi: f.ins[f.ins.length - 1].addr + 16n }));
let total = 0;
const per = new Map();
for (const l of readFileSync(logFile, 'utf8').split('\n')) {
  if (!l.startsWith('tick,')) continue;
  total++;
  const pc = BigInt(l.split(',')[1]);
  const r = ranges.find((x) => pc >= x.lo && pc < x.hi);
  if (!r) continue;
  per.set(r.f.name, (per.get(r.f.name) ?? 0) + 1);
  const ins = r.f.ins;
  let lo = 0;
  let hi = ins.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ins[mid].addr <= pc) lo = mid;
    else hi = mid - 1;
  }
  ins[lo].ticks++;
}
console.log(`${total} ticks`);
for (const [name, n] of [...per].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${((100 * n) / total).toFixed(1).padStart(5)}% ${n} ${name}`);
if (want) {
  const f = funcs.find((x) => x.name === want);
  if (!f) {
    console.error(`no TurboFan code for ${want}`);
    process.exit(1);
  }
  writeFileSync(outFile, f.ins.map((x) => `${String(x.ticks).padStart(6)} ${x.off.padStart(6)} ${x.text}`).join('\n'));
  // basic blocks: runs of instructions ending at a jump
  const blocks = [];
  let cur = [];
  for (const x of f.ins) {
    cur.push(x);
    if (/^j[a-z]+ /.test(x.text) || x.text.startsWith('ret')) {
      blocks.push(cur);
      cur = [];
    }
  }
  if (cur.length) blocks.push(cur);
  const sum = (b) => b.reduce((s, x) => s + x.ticks, 0);
  const own = per.get(want) ?? 0;
  console.log(`\n${want}: ${own} ticks; its code with ticks per instruction in ${outFile}; hottest blocks:`);
  for (const b of blocks.sort((a, c) => sum(c) - sum(a)).slice(0, 12)) {
    console.log(`${((100 * sum(b)) / Math.max(1, own)).toFixed(1).padStart(5)}% +0x${b[0].off} ${b.length} instr: ${b.slice(0, 4).map((x) => x.text).join(' | ')}`);
  }
}

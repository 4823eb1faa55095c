// lists.js: the answers of castRayAll and the overlaps on a parallel world, whose items have as
// many answers as they have hits. An answer is a list: start (an Int32Array of n + 1: item i's
// hits are start[i] to start[i + 1] - 1), then the hits' arrays (index; castRayAll also t and
// normal, 3 floats per hit). Workers answer lists of their slices; these join them, checking
// each piece, as a worker's message is data from another thread.
import { SlabcastError } from '../core/errors.js';
import { checkBatchItems, stageBatch } from '../core/world.js';
import { taCopy, taExact, taKind, taLength, taSet } from '../core/typed.js';
import { OUT } from './protocol.js';

/** Throws (and the caller fails the pool) when worker k's list for m items is malformed. */
function checkList(q, k, m, answer) {
  const bad = (what) => { throw new SlabcastError(`parallel world: worker ${k} answered ${q.name} with ${what}`); };
  const start = answer.start;
  if (taKind(start) !== 'Int32Array' || taLength(start) !== m + 1) bad(`a start that is not an Int32Array of ${m + 1}`);
  if (start[0] !== 0) bad('a start that does not begin at 0');
  for (let i = 0; i < m; i++) if (!(start[i + 1] >= start[i])) bad(`a start that decreases at ${i}`);
  const hits = start[m];
  for (const [key, Type, per] of OUT[q.out]) {
    const a = answer[key];
    if (taKind(a) !== Type.name || taLength(a) !== per * hits) bad(`${key} that is not a ${Type.name} of ${per * hits}`);
  }
  return hits;
}

/**
 * One list for all n items from the workers' answers: answer k is worker ks[k]'s, for items
 * starts[k] to starts[k + 1] - 1.
 */
export function assembleLists(q, answers, n, starts, ks) {
  let hits = 0;
  const counts = answers.map((a, k) => {
    const h = checkList(q, ks[k], starts[k + 1] - starts[k], a);
    hits += h;
    return h;
  });
  const out = { start: new Int32Array(n + 1) };
  for (const [key, Type, per] of OUT[q.out]) out[key] = new Type(per * hits);
  let at = 0;
  answers.forEach((a, k) => {
    const item = starts[k];
    const m = starts[k + 1] - item;
    for (let i = 1; i <= m; i++) out.start[item + i] = at + a.start[i];
    for (const [key, , per] of OUT[q.out]) taSet(out[key], a[key], per * at);
    at += counts[k];
  });
  return out;
}

/**
 * The lists of n items in two jobs: a first one gives each item room for `room` hits and counts
 * them all; the items with more run again, alone, with exactly their room. job(items, m, filter,
 * rooms, room) runs one job (rooms: m + 1 running totals, or null for `room` per item) and returns
 * its answers as copies: { total, start, index, t?, normal? }. Resolves with { list, hits }.
 */
export async function twoJobs(q, a, n, filter, room, job) {
  const first = await job(a, n, filter, null, room);
  const { total } = first;
  let hits = 0;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = hits += total[i];
  const list = { start };
  for (const [key, Type, per] of OUT[q.out]) list[key] = new Type(per * hits);
  copyHits(q, list, start, first, (i) => i, n);
  const over = [];
  for (let i = 0; i < n; i++) if (total[i] > room) over.push(i);
  if (over.length === 0) return { list, hits };
  const m = over.length;
  const items = new Float32Array(q.per * m);
  const exclude = filter !== null && filter.exclude !== null ? new Int32Array(m) : null;
  const rooms = new Int32Array(m + 1);
  over.forEach((i, k) => {
    taSet(items, taExact(a, Float32Array, q.per * i, q.per), q.per * k);
    if (exclude !== null) exclude[k] = filter.exclude[i];
    rooms[k + 1] = rooms[k] + total[i];
  });
  const second = await job(items, m, filter === null ? null : { ...filter, exclude }, rooms, 0);
  copyHits(q, list, start, second, (k) => over[k], m);
  return { list, hits };
}

/** Copies the hits of a job's answers r (its item k being item at(k) of list) that fitted into list at start. */
function copyHits(q, list, start, r, at, m) {
  const all = q.out === 'all';
  for (let k = 0; k < m; k++) {
    const from = r.start[k];
    const count = r.total[k];
    if (count === 0 || count > r.start[k + 1] - from) continue; // did not fit: the second job brings it
    const to = start[at(k)];
    for (let h = 0; h < count; h++) list.index[to + h] = r.index[from + h];
    if (all) {
      for (let h = 0; h < count; h++) list.t[to + h] = r.t[from + h];
      for (let h = 0; h < 3 * count; h++) list.normal[3 * to + h] = r.normal[3 * from + h];
    }
  }
}

/**
 * Byte offsets of one list job's stage for m items and `hits` room: items, start, total, index,
 * t, normal (castRayAll), then the exclude list at x (16-aligned).
 */
export function listStage(q, m, hits) {
  const all = q.out === 'all';
  const s = (4 * q.per * m + 7) & ~7;
  const c = s + 4 * (m + 1);
  const i = c + 4 * m;
  const t = i + 4 * hits;
  const nn = t + (all ? 4 * hits : 0);
  const x = (nn + (all ? 12 * hits : 0) + 15) & ~15;
  return { s, c, i, t, n: nn, x, all };
}

/** The answers of a job staged at base (listStage's offsets L), copied through the engine's own constructors. */
export function readListStage(core, base, L, m, hits) {
  const r = {
    total: taCopy(core.i32, Int32Array, (base + L.c) >> 2, m),
    start: taCopy(core.i32, Int32Array, (base + L.s) >> 2, m + 1),
    index: taCopy(core.i32, Int32Array, (base + L.i) >> 2, hits),
  };
  if (L.all) {
    r.t = taCopy(core.f32, Float32Array, (base + L.t) >> 2, hits);
    r.normal = taCopy(core.f32, Float32Array, (base + L.n) >> 2, 3 * hits);
  }
  return r;
}

/** Writes start (rooms, or `room` per item) at byte address p. */
export function writeStarts(core, p, m, rooms, room) {
  if (rooms === null) for (let i = 0; i <= m; i++) core.i32[(p >> 2) + i] = i * room;
  else taSet(core.i32, rooms, p >> 2);
}

/**
 * The lists of n items on one core, in its own thread (a copied worker's replica, or the calling
 * thread's world): sc_wasm_world_lists, two jobs as twoJobs. filter: checkFilter's (numbers), or
 * null. A refused item throws a SlabcastError naming it in the batch; error.item is its index.
 */
export async function coreLists(core, ptr, q, a, n, filter, room = 8) {
  const { list } = await twoJobs(q, a, n, filter, room, (items, m, f, rooms, rm) => {
    const hits = rooms === null ? rm * m : rooms[m];
    const L = listStage(q, m, hits);
    const exclude = f !== null && f.exclude !== null;
    const base = stageBatch(core, items, L.x - 4 * q.per * m + (f === null ? 0 : 16 + (exclude ? 4 * m : 0)), q.per * m);
    checkBatchItems(core, q.op, base, m, q.name);
    writeStarts(core, base + L.s, m, rooms, rm);
    let fPtr = 0;
    if (f !== null) {
      fPtr = base + L.x;
      const w = fPtr >> 2;
      core.i32[w] = f.mask | 0;
      core.i32[w + 1] = exclude ? fPtr + 16 : 0;
      core.i32[w + 2] = f.inside;
      if (exclude) taSet(core.i32, taExact(f.exclude, Int32Array, 0, m), w + 4);
    }
    const status = core.call(core.ex.sc_wasm_world_lists, ptr, q.op, base, m, base + L.s, base + L.c, base + L.i,
      L.all ? base + L.t : 0, L.all ? base + L.n : 0, fPtr);
    core.views();
    if (status !== 0) {
      const i = core.call(core.ex.sc_wasm_error_index);
      const e = new SlabcastError(`${q.name}${i >= 0 ? `[${i}]` : ''}: ${core.statusMessage(status)}`, { status, field: q.name });
      e.item = i;
      throw e;
    }
    return readListStage(core, base, L, m, hits);
  });
  return list;
}

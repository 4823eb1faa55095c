// Keeps the docs pages honest:
// - docs/edge-cases.md: every cell of the table is recomputed (slabcast's real module, three.js's
//   Ray, the seed ports of tests/docs/seed-ports.mjs) and compared; slabcast's column must agree
//   with the answer derived by hand from docs/semantics.md; rows where slabcast differs carry a "why".
// - docs/game-dev.md and docs/api-js.md: their js blocks run, in order, as one module against the
//   built module, and every `// a → b` and `// throws "…"` comment in them is checked.
// - docs/api-js.md: names every export, every Slabcast member and every World member.
// - docs/api-c.md: names every public declaration of src/slabcast.h; its ```c declarations blocks
//   match the header; its status table matches sc_status_message; its C programs compile, run
//   and print what their `// prints:` comments say.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadSlabcast } from '../../web/slabcast.js';
import * as slabcastModule from '../../web/slabcast.js';
import {
  cDeclarations, checksOf, compileAndRun, expectedPrints, fencedBlocks, haveCompiler, headerNames,
  jsModuleSource, normalizeC, runJsModule,
} from '../docs/blocks.mjs';
import { computeTable, COLUMNS, differs, judge, renderMarkdown, ROWS } from '../docs/edge-cases.mjs';
import {
  seed000Raycast, seed002LinetestAabb, seed002RaycastAabb, seed002RaycastPlane, seed002RaycastSphere,
  seed004Intersects,
} from '../docs/seed-ports.mjs';
import { WASM, requireBuilt } from './helpers/artifacts.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (p) => readFileSync(join(ROOT, p), 'utf8');

let sc;
beforeAll(async () => {
  requireBuilt(WASM);
  sc = await loadSlabcast();
});

/** The cells of a markdown table row ('|' escaped as '\|' stays in the cell). */
function splitRow(line) {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The table of docs/edge-cases.md (between its markers) and its "why" lines. */
function parseEdgeCases(md) {
  const begin = md.indexOf('<!-- edge-cases:begin');
  const end = md.indexOf('<!-- edge-cases:end -->');
  expect(begin, 'docs/edge-cases.md lacks its <!-- edge-cases:begin --> marker').toBeGreaterThanOrEqual(0);
  expect(end, 'docs/edge-cases.md lacks its <!-- edge-cases:end --> marker').toBeGreaterThan(begin);
  const lines = md.slice(begin, end).split('\n').slice(1);
  const tableLines = lines.filter((l) => l.startsWith('|'));
  const header = splitRow(tableLines[0]);
  const rows = tableLines.slice(2).map(splitRow);
  const whys = new Map();
  for (const l of lines) {
    const m = l.match(/^- \*\*(\d+)\.\*\* (.+)$/);
    if (m) whys.set(Number(m[1]), m[2]);
  }
  return { header, rows, whys, block: lines.join('\n').trim() };
}

describe('seed ports reproduce their seeds', () => {
  test('seed 000: the tutorial\'s own unit test (box 0.5..2, results true, false, false, true, false)', () => {
    const box = { min: [0.5, 0.5, 0.5], max: [2, 2, 2] };
    const rays = [
      [[-2, -2, -2], [2, 2, 2]], [[0, 0, 0], [0, 1, 0]], [[0, 0, 0], [-1, 0, 0]],
      [[1, 1, 1], [1, 1, 0]], [[0.4, 1, 1], [-1, 0, 0]],
    ];
    const hits = rays.map(([origin, dir]) => seed000Raycast({ origin, dir }, box) !== -1);
    expect(hits).toEqual([true, false, false, true, false]);
    // README: NaN for a zero direction component with the origin on that slab's plane
    expect(seed000Raycast({ origin: [0.5, 1, 1], dir: [0, 1, 0] }, box)).toBeNaN();
  });

  test('seed 002: the known bugs of the seed README', () => {
    const box = { min: [0, 0, 0], max: [2, 2, 2] };
    // a segment lying inside a box is a miss
    expect(seed002LinetestAabb({ a: [0.5, 1, 1], b: [1.5, 1, 1] }, box)).toBe(false);
    // a sphere behind the ray is a hit at negative t
    expect(seed002RaycastSphere({ origin: [3, 0, 0], dir: [1, 0, 0] }, { center: [0, 0, 0], radius: 1 }))
      .toEqual({ hit: true, t: -4 });
    // zero direction components are replaced by 1e-5: the y slab becomes [(0-1)/1e-5, (2-1)/1e-5]
    expect(seed002RaycastAabb({ origin: [-1, 1, 1], dir: [1, 0, 0] }, box)).toEqual({ hit: true, t: 1 });
    // the plane test is one-sided
    const plane = { normal: [0, 1, 0], d: 1 };
    expect(seed002RaycastPlane({ origin: [0, 3, 0], dir: [0, -1, 0] }, plane)).toEqual({ hit: true, t: 2 });
    expect(seed002RaycastPlane({ origin: [0, -1, 0], dir: [0, 1, 0] }, plane).hit).toBe(false);
  });

  test('seed 004: an origin strictly inside is (true, 0); faces are inclusive', () => {
    const box = { min: [0, 0, 0], max: [2, 2, 2] };
    expect(seed004Intersects({ origin: [1, 1, 1], dir: [1, 0, 0] }, box)).toEqual([true, 0]);
    expect(seed004Intersects({ origin: [-1, 2, 2], dir: [1, 0, 0] }, box)).toEqual([true, 1]);
    expect(seed004Intersects({ origin: [-1, 2.5, 1], dir: [1, 0, 0] }, box)).toEqual([false, 0]);
  });
});

describe('docs/edge-cases.md', () => {
  let table;
  let parsed;
  beforeAll(() => {
    table = computeTable(sc, THREE);
    parsed = parseEdgeCases(read('docs/edge-cases.md'));
  });

  test('has at least 12 rows and the expected columns', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(12);
    expect(parsed.header).toEqual(COLUMNS);
    expect(parsed.rows.length).toBe(table.length);
  });

  test('every cell matches the recomputed answer', () => {
    const mismatches = [];
    table.forEach(({ cells }, i) => {
      const doc = parsed.rows[i] ?? [];
      cells.forEach((cell, k) => {
        if (doc[k] !== cell) mismatches.push(`row ${i + 1}, ${COLUMNS[k]}: page says ${JSON.stringify(doc[k])}, computed ${JSON.stringify(cell)}`);
      });
      if (doc.length !== cells.length) mismatches.push(`row ${i + 1}: ${doc.length} cells, expected ${cells.length}`);
    });
    expect(mismatches).toEqual([]);
  });

  test('slabcast agrees with the answer derived from docs/semantics.md on every row', () => {
    for (const { answers, row } of table) {
      expect(judge(answers.slabcast, row.truth), row.label).toBe('');
      if (row.truth.invalid) expect(answers.slabcast.kind, row.label).toBe('error');
    }
  });

  test('rows where slabcast differs from another column say why, and the page shows the same "why" lines', () => {
    table.forEach(({ answers, row }, i) => {
      if (differs(answers)) expect(row.why, `row ${i + 1} (${row.label}) needs a why`).toBeTruthy();
      if (row.why) expect(parsed.whys.get(i + 1), `why of row ${i + 1}`).toBe(row.why);
    });
    expect(parsed.whys.size).toBe(ROWS.filter((r) => r.why).length);
  });

  test('the generated block is the page\'s block, verbatim', () => {
    expect(parsed.block).toBe(renderMarkdown(table).trim());
  });
});

/** Runs a page's js blocks; returns the check results. */
function runPage(page) {
  const md = read(page);
  const blocks = fencedBlocks(md).filter((b) => b.lang === 'js');
  const source = jsModuleSource(blocks, ROOT, page);
  return { blocks, ...runJsModule(source), checks: blocks.flatMap((b) => checksOf(b.code)) };
}

function expectAllPassed(results) {
  const failed = results.filter((r) => !r.ok).map((r) => `${r.label}\n    actual:   ${r.actual ?? r.error}\n    expected: ${r.expected}`);
  expect(failed, failed.join('\n')).toEqual([]);
}

describe('docs/game-dev.md', () => {
  test('every code block is a js block', () => {
    const blocks = fencedBlocks(read('docs/game-dev.md'));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const b of blocks) expect(b.lang, `block at line ${b.line}`).toBe('js');
  });

  test('the blocks run in order against the built module, and every check holds', () => {
    const { results, checks } = runPage('docs/game-dev.md');
    expect(checks.length).toBeGreaterThanOrEqual(12);
    expect(results.length).toBe(checks.length);
    expectAllPassed(results);
  });

  test('the numbers it quotes are in docs/benchmarks.md', () => {
    const md = read('docs/game-dev.md');
    const bench = read('docs/benchmarks.md');
    const section = md.slice(md.indexOf('## Performance notes'));
    for (const m of section.matchAll(/\b(\d+\.\d+) (M|k|ms)\b/g)) {
      expect(bench, `${m[0]} is not in docs/benchmarks.md`).toContain(m[2] === 'ms' ? m[1] : `${m[1]} ${m[2]}`);
    }
  });
});

describe('README.md', () => {
  test('its js blocks from "## JavaScript" on run in order against the built module, and every check holds', () => {
    const md = read('README.md');
    const from = md.split('\n').findIndex((l) => l === '## JavaScript') + 1;
    expect(from).toBeGreaterThan(0);
    const blocks = fencedBlocks(md).filter((b) => b.lang === 'js' && b.line > from);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const { results } = runJsModule(jsModuleSource(blocks, ROOT, 'README.md'));
    const checks = blocks.flatMap((b) => checksOf(b.code));
    expect(checks.length).toBeGreaterThanOrEqual(4);
    expect(results.length).toBe(checks.length);
    expectAllPassed(results);
  });
});

describe('docs/api-js.md', () => {
  test('the blocks run in order against the built module, and every check holds', () => {
    const { results, checks } = runPage('docs/api-js.md');
    expect(checks.length).toBeGreaterThanOrEqual(40);
    expect(results.length).toBe(checks.length);
    expectAllPassed(results);
  });

  test('names every export, every Slabcast member and every World member', () => {
    const md = read('docs/api-js.md');
    const world = sc.createWorld();
    const names = [
      ...Object.keys(slabcastModule),
      ...Object.keys(sc),
      ...Object.keys(world),
    ];
    world.dispose();
    for (const name of names) expect(md, `docs/api-js.md does not mention \`${name}\``).toContain(`\`${name}`);
  });

  test('documents the three.js adapter from web/three.d.ts, or says where it is documented', () => {
    const md = read('docs/api-js.md');
    const section = md.slice(md.indexOf('## three.js adapter'));
    expect(section.length).toBeGreaterThan(0);
    const dts = join(ROOT, 'web/three.d.ts');
    if (existsSync(dts)) {
      const exported = [...readFileSync(dts, 'utf8').matchAll(/export\s+(?:declare\s+)?(?:function|class|interface|type|const)\s+(\w+)/g)].map((m) => m[1]);
      expect(exported.length).toBeGreaterThan(0);
      for (const name of exported) expect(section, `the adapter section does not mention ${name}`).toContain(name);
    } else {
      expect(section).toContain('web/three.d.ts');
    }
  });
});

describe('docs/api-c.md', () => {
  const header = () => read('src/slabcast.h');

  test('names every public declaration of src/slabcast.h', () => {
    const md = read('docs/api-c.md');
    const names = headerNames(header());
    expect(names.length).toBeGreaterThan(60);
    for (const name of names) expect(md, `docs/api-c.md does not mention ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
  });

  test('its declaration blocks match the header', () => {
    const h = normalizeC(header());
    const blocks = fencedBlocks(read('docs/api-c.md')).filter((b) => b.info === 'c declarations');
    expect(blocks.length).toBeGreaterThan(5);
    for (const b of blocks) {
      for (const decl of cDeclarations(b.code)) expect(h, `not in src/slabcast.h: ${decl}`).toContain(decl);
    }
    // every function of the header is in some declaration block
    const documented = blocks.map((b) => normalizeC(b.code)).join('\n');
    for (const m of header().matchAll(/^[\w ]+?\**\b(sc_\w+)\s*\(/gm)) {
      expect(documented, `no declaration block shows ${m[1]}`).toMatch(new RegExp(`\\b${m[1]}\\(`));
    }
  });

  test('its status table matches the enum order and sc_status_message', () => {
    const md = read('docs/api-c.md');
    const enumBody = header().match(/typedef enum sc_status \{([\s\S]*?)\} sc_status;/)[1];
    const order = [...enumBody.matchAll(/^\s*(SC_\w+)/gm)].map((m) => m[1]).filter((n) => n !== 'SC_STATUS_COUNT');
    const rows = md.split('\n').filter((l) => /^\| `SC_(OK|ERR_\w+)` \|/.test(l)).map(splitRow);
    expect(rows.map((r) => r[0].replace(/`/g, ''))).toEqual(order);
    rows.forEach((r, i) => {
      expect(Number(r[1]), r[0]).toBe(i);
      expect(r[2], r[0]).toBe(`\`${sc.statusMessage(i)}\``);
    });
    expect(md).toContain(`\`SC_STATUS_COUNT\` (${order.length})`);
  });

  const cc = haveCompiler();
  test.skipIf(!cc)('its C examples compile with the sources, run, and print what they say', () => {
    const blocks = fencedBlocks(read('docs/api-c.md')).filter((b) => b.info === 'c');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const b of blocks) {
      const stdout = compileAndRun(cc, ROOT, b.code);
      const want = expectedPrints(b.code);
      expect(stdout.trim().split('\n').filter(Boolean), `block at line ${b.line}`).toEqual(want);
    }
  });
});

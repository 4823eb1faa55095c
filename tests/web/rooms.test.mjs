// Rooms stay one job (docs/architecture.md, "Rooms"): scripts/check-rooms.mjs passes on this
// tree, and its counting is right. Expected line counts are those of the small sources written
// here, counted by hand (a function runs from its opening line to its closing brace, both
// included); the limits are the project's rule (800 lines a file, 120 a function).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exemptions, functionsOf, lineCount } from '../../scripts/check-rooms.mjs';
import { ROOT } from './helpers/artifacts.mjs';

const SCRIPT = path.join(ROOT, 'scripts/check-rooms.mjs');

/** `n` lines of filler statements. */
const filler = (n, line = '  x++;') => Array.from({ length: n }, () => line).join('\n');

describe('the rooms of this tree', () => {
  it('no file over 800 lines and no function over 120 lines, beyond those docs/architecture.md lists', () => {
    // Throws (and prints what is over) when the script exits 1.
    const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(out).toMatch(/^rooms: no file over 800 lines and no function over 120 lines/m);
  });
});

describe('counting a function', () => {
  it('C: from the line of its name to its closing brace; braces in strings, characters and comments do not count', () => {
    const c = [
      '/* a { comment } */', //                          1
      'static int f(int a,', //                          2: f opens here
      '             int b)', //                          3
      '{', //                                             4
      '    const char *s = "}{"; char k = \'{\';', //    5
      '    // }', //                                      6
      '    if (a) { return b; }', //                      7
      '    return a;', //                                 8
      '}', //                                             9: f closes (8 lines)
      'struct s { int x; };', //                         10: not a function
      'int g(void) { return 0; }', //                    11: one line
    ].join('\n');
    expect(functionsOf(c, 'c')).toEqual([
      { name: 'f', line: 2, lines: 8 },
      { name: 'g', line: 11, lines: 1 },
    ]);
  });

  it('C: a name made by a macro, extern "C", and a multi-line function-like macro', () => {
    const c = [
      '#ifdef __cplusplus', //                           1
      'extern "C" {', //                                 2: does not nest what follows
      '#endif', //                                       3
      'static int KKT_FN(one)(int a)', //                4
      '{', //                                            5
      '    return a;', //                                6
      '}', //                                            7: 4 lines
      '#define TWICE(x) \\', //                          8
      '    do { \\', //                                  9
      '        (x); (x); \\', //                        10
      '    } while (0)', //                             11: the macro has 4 lines
      '#ifdef __cplusplus', //                          12
      '}', //                                           13
      '#endif', //                                      14
    ].join('\n');
    expect(functionsOf(c, 'c')).toEqual([
      { name: 'KKT_FN(one)', line: 4, lines: 4 },
      { name: 'TWICE (macro)', line: 8, lines: 4 },
    ]);
  });

  it('JS: declarations, methods, arrows and nested functions; templates and regular expressions skipped', () => {
    const js = [
      '#!/usr/bin/env node', //                                        1
      'export function a(x) {', //                                     2: a
      '  const re = /[}{]\\}/g;', //                                   3
      '  const t = `${x}}{ ${ { k: 1 }.k }`;', //                      4
      '  const inner = (y) => {', //                                   5: inner
      '    return y / 2 / 3;', //                                      6
      '  };', //                                                       7: inner ends (3)
      '  return inner(x);', //                                         8
      '}', //                                                          9: a ends (8)
      'class K {', //                                                 10: not a function
      '  get size() { return 1; }', //                                11: size (1)
      '  method(p,', //                                               12: method
      '    q) {', //                                                  13
      "    if (p) { return '}'; }", //                                14
      '    return q;', //                                             15
      '  }', //                                                       16: method ends (5)
      '}', //                                                         17
      'const h = async () => {', //                                   18: h
      '  for (const v of [1]) { void v; }', //                        19
      '};', //                                                        20: h ends (3)
    ].join('\n');
    expect(functionsOf(js, 'js')).toEqual([
      { name: 'a', line: 2, lines: 8 },
      { name: 'inner', line: 5, lines: 3 },
      { name: 'size', line: 11, lines: 1 },
      { name: 'method', line: 12, lines: 5 },
      { name: 'h', line: 18, lines: 3 },
    ]);
  });

  it('lines of a file: a final newline does not start a line', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });
});

describe('the script on a small tree', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rooms-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Write the tree: src/ok.c (800 lines), src/big.c (801), web/f.js (functions of 120 and 121 lines). */
  function tree(architecture) {
    for (const d of ['src', 'web', 'tools', 'docs']) mkdirSync(path.join(dir, d), { recursive: true });
    writeFileSync(path.join(dir, 'src/ok.c'), `${filler(800, '/* */')}\n`);
    writeFileSync(path.join(dir, 'src/big.c'), `${filler(801, '/* */')}\n`);
    // fits: opening line + 118 + closing brace = 120; long: 1 + 119 + 1 = 121
    writeFileSync(path.join(dir, 'web/f.js'),
      `function fits() {\n${filler(118)}\n}\nfunction long() {\n${filler(119)}\n}\n`);
    writeFileSync(path.join(dir, 'docs/architecture.md'), architecture);
  }
  const run = () => spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });

  it('fails on what is over and not listed, and names it', () => {
    tree('# Architecture\n');
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('src/big.c: 801 lines (limit 800) - NOT LISTED');
    // fits takes lines 1-120, so long opens on line 121
    expect(r.stdout).toContain('web/f.js:121 long: 121 lines (limit 120) - NOT LISTED');
    expect(r.stdout).not.toContain('src/ok.c');
    expect(r.stdout).not.toContain('fits');
  });

  it('passes when each is listed with a reason under "Rooms larger than the rule"', () => {
    tree([
      '# Architecture', '', '## Rooms', '', '### Rooms larger than the rule', '',
      '- `src/big.c`: a reason.', '- `web/f.js` `long`: another reason.', '', '## Next', '',
      '- `src/ok.c`: a list item under another heading is not an exemption.', '',
    ].join('\n'));
    const r = run();
    expect(r.stdout).toContain('src/big.c: 801 lines (limit 800) - listed: a reason.');
    expect(r.status).toBe(0);
  });

  it('fails on a listed room that is within the limits (a stale line)', () => {
    tree('## Rooms larger than the rule\n\n- `src/big.c`: big.\n- `web/f.js` `long`: long.\n- `web/f.js` `fits`: stale.\n');
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('lists `web/f.js` `fits` under "Rooms larger than the rule", but it is within the limits');
  });

  it('reads only list items with a reason, and only under its heading', () => {
    const m = exemptions([
      '## Rooms larger than the rule', '- `a.c`: why', '- `b.c`:', '* `c.js` `f`: why f', '### sub', '- `d.c`: in a subsection',
      '## Other', '- `e.c`: elsewhere',
    ].join('\n'));
    expect([...m.entries()]).toEqual([['a.c', 'why'], ['c.js f', 'why f'], ['d.c', 'in a subsection']]);
  });
});

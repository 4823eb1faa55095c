// Code blocks of the docs pages, made runnable for tests/web/docs.test.mjs.
//
// JS blocks (```js) of a page run in order as one ES module in a child `node` process, the way a
// user would paste them. Two kinds of comment are checks:
//   <statement> // <expr> → <expected>     also as a line of its own: // <expr> → <expected>
//        after that line, <expr> must deep-equal <expected> (typed arrays compare as arrays,
//        numbers with Object.is, so -0 !== 0 and NaN === NaN)
//   <one-line statement> // throws "<message>"      (or '<message>')
//        the statement must throw an error with exactly that message (a JS string literal)
// Imports of 'slabcast', 'slabcast/three' and 'slabcast/repro' are rewritten to the files in web/, and 'three' to
// node_modules/three.
//
// C blocks: ```c declarations blocks must match declarations of src/slabcast.h; other ```c
// blocks are compiled with the sources (wrapped in main() when they have none) and run, and
// their `// prints: <line>` comments must match the output lines in order.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Fenced code blocks: {info, lang, code, line} (line: 1-based line of the opening fence). */
export function fencedBlocks(md) {
  const blocks = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^(\s*)(```+)(.*)$/);
    if (!m) continue;
    const fence = m[2];
    const info = m[3].trim();
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trim().startsWith(fence); j++) body.push(lines[j]);
    blocks.push({ info, lang: info.split(/\s+/)[0], code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

const CHECK = /^(.*?)\/\/\s*(.+?)\s+→\s+(.+?)\s*$/;
const THROWS = /^(\s*)(.+?);?\s*\/\/\s*throws\s+(".*"|'.*')\s*$/;

/** The checks of a block, for counting: [{kind, text}]. */
export function checksOf(code) {
  const out = [];
  for (const line of code.split('\n')) {
    if (THROWS.test(line)) out.push({ kind: 'throws', text: line.trim() });
    else if (CHECK.test(line)) out.push({ kind: 'equals', text: line.trim() });
  }
  return out;
}

/** The block's code with its check comments turned into calls of __check / __throws. */
export function instrument(code, where) {
  const out = [];
  code.split('\n').forEach((line, k) => {
    const label = JSON.stringify(`${where}+${k + 1}: ${line.trim()}`);
    let m = line.match(THROWS);
    if (m) {
      out.push(`${m[1]}__throws(() => { ${m[2]}; }, ${m[3]}, ${label});`);
      return;
    }
    out.push(line);
    m = line.match(CHECK);
    if (m) {
      const indent = line.match(/^\s*/)[0];
      out.push(`${indent}__check(() => (${m[2]}), () => (${m[3]}), ${label});`);
    }
  });
  return out.join('\n');
}

const PRELUDE = `
const __results = [];
const __plain = (v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
function __equal(a, b) {
  a = __plain(a); b = __plain(b);
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => __equal(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => __equal(a[k], b[k]));
  }
  return Object.is(a, b);
}
const __show = (v) => JSON.stringify(__plain(v), (k, x) => (ArrayBuffer.isView(x) ? Array.from(x) : (typeof x === 'number' && !Number.isFinite(x)) || Object.is(x, -0) ? String(Object.is(x, -0) ? '-0' : x) : x));
function __check(actual, expected, label) {
  let a, e;
  try { a = actual(); e = expected(); } catch (err) { __results.push({ label, ok: false, error: String(err && err.stack || err) }); return; }
  __results.push({ label, ok: __equal(a, e), actual: __show(a), expected: __show(e) });
}
function __throws(f, message, label) {
  try { f(); } catch (err) {
    __results.push({ label, ok: err && err.message === message, actual: String(err && err.message), expected: message, name: err && err.name });
    return;
  }
  __results.push({ label, ok: false, actual: 'no exception', expected: message });
}
process.on('exit', () => { process.stdout.write('\\n@@RESULTS@@' + JSON.stringify(__results) + '\\n'); });
`;

/** The module source of a page's JS blocks (imports rewritten to files under root). */
export function jsModuleSource(blocks, root, page) {
  const web = (f) => pathToFileURL(join(root, 'web', f)).href;
  const three = pathToFileURL(join(root, 'node_modules/three/build/three.module.js')).href;
  const imports = [];
  const body = [];
  for (const b of blocks) {
    const code = b.code
      .replace(/from\s+'slabcast'/g, `from '${web('slabcast.js')}'`)
      .replace(/from\s+'slabcast\/three'/g, `from '${web('three.js')}'`)
      .replace(/from\s+'slabcast\/repro'/g, `from '${web('repro.js')}'`)
      .replace(/from\s+'three'/g, `from '${three}'`);
    // import declarations are hoisted: keep them at the top so the prelude can come first
    const lines = instrument(code, `${page}:${b.line}`).split('\n');
    for (const l of lines) (/^import\s/.test(l) ? imports : body).push(l);
    body.push('');
  }
  return `${imports.join('\n')}\n${PRELUDE}\n${body.join('\n')}\n`;
}

/**
 * Runs a module source in a child node process.
 * @returns {{results: {label: string, ok: boolean, actual?: string, expected?: string, error?: string}[], stdout: string}}
 */
export function runJsModule(source) {
  const dir = mkdtempSync(join(tmpdir(), 'slabcast-docs-'));
  const file = join(dir, 'page.mjs');
  writeFileSync(file, source);
  try {
    const stdout = execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    const k = stdout.lastIndexOf('@@RESULTS@@');
    const results = k >= 0 ? JSON.parse(stdout.slice(k + '@@RESULTS@@'.length)) : [];
    return { results, stdout: k >= 0 ? stdout.slice(0, k) : stdout };
  } catch (e) {
    throw new Error(`the page's code failed:\n${e.stderr || e.message}\n--- module ---\n${source}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------- C

/** Whitespace-normalized C: one space between tokens, none around punctuation. */
export function normalizeC(s) {
  return s
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(){}\[\];,*=])\s*/g, '$1')
    .trim();
}

/** The top-level declarations of a block (split at ';' outside braces). */
export function cDeclarations(code) {
  const norm = normalizeC(code);
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of norm) {
    cur += ch;
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ';' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Public declarations of the header: function names, typedef names, enum constants, macros. */
export function headerNames(header) {
  const noComments = header.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const names = new Set();
  for (const m of noComments.matchAll(/\b(sc_\w+)\s*\(/g)) names.add(m[1]);
  for (const m of noComments.matchAll(/\}\s*(sc_\w+)\s*;/g)) names.add(m[1]);
  for (const m of noComments.matchAll(/typedef\s+struct\s+\w+\s+(sc_\w+)\s*;/g)) names.add(m[1]);
  for (const m of noComments.matchAll(/\b(SC_[A-Z0-9_]+)\b/g)) {
    if (m[1] !== 'SLABCAST_H') names.add(m[1]);
  }
  return [...names].filter((n) => !/^SLABCAST_H$/.test(n));
}

/** Expected output lines of a C program: its `// prints: ...` comments, in order. */
export function expectedPrints(code) {
  return [...code.matchAll(/\/\/\s*prints:\s*(.*)$/gm)].map((m) => m[1].trim());
}

export function haveCompiler() {
  for (const cc of ['cc', 'gcc', 'clang']) {
    try {
      execFileSync(cc, ['--version'], { stdio: 'ignore' });
      return cc;
    } catch { /* next */ }
  }
  return null;
}

/** Compiles a C block with the slabcast sources and runs it; returns its stdout. */
export function compileAndRun(cc, root, code) {
  const program = /\bint\s+main\s*\(/.test(code)
    ? code
    : `#include "slabcast.h"\n#include <math.h>\n#include <stdio.h>\nint main(void)\n{\n${code}\nreturn 0;\n}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'slabcast-docs-c-'));
  try {
    const src = join(dir, 'example.c');
    const exe = join(dir, 'example');
    writeFileSync(src, program);
    // the library's sources, as CMakeLists.txt lists them (set(SLABCAST_SOURCES ...))
    const cmake = readFileSync(join(root, 'CMakeLists.txt'), 'utf8').match(/set\(SLABCAST_SOURCES([^)]*)\)/);
    if (!cmake) throw new Error('CMakeLists.txt has no set(SLABCAST_SOURCES ...)');
    const sources = cmake[1].trim().split(/\s+/).map((f) => join(root, f));
    execFileSync(cc, ['-std=c11', '-O1', '-ffp-contract=off', '-Wall', '-Werror=implicit-function-declaration',
      `-I${join(root, 'src')}`, ...sources, src, '-lm', '-o', exe], { stdio: ['ignore', 'pipe', 'pipe'] });
    return execFileSync(exe, { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

#!/usr/bin/env node
// Rooms stay one job (docs/architecture.md, "Rooms larger than the rule"): lists every
// file over MAX_FILE_LINES lines and every function over MAX_FUNCTION_LINES lines in
// src/, web/ and tools/, and exits 1 when one of them is not listed, with its reason,
// under that heading of docs/architecture.md. A listed room that is no longer over the
// limit also fails (the list would lie): remove its line.
//
// A function's lines run from its opening line (the line of its name, or of its
// parameter list for an unnamed function) to the line of its closing brace, both
// counted. C: every top-level brace block after a parameter list, and every
// multi-line function-like #define (its continued lines). JS: function declarations
// and expressions, methods, getters / setters and arrow functions with a block body,
// at any depth. Comments, strings, template literals and regular expressions are
// skipped, so braces inside them never count.
//
//   node scripts/check-rooms.mjs               report; exit 1 on an unlisted or stale room
//   node scripts/check-rooms.mjs --json        the same as JSON on stdout
//   node scripts/check-rooms.mjs --root DIR    check another tree (the tests use small ones)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MAX_FILE_LINES = 800;
export const MAX_FUNCTION_LINES = 120;
export const DIRS = ['src', 'web', 'tools'];
export const EXEMPT_HEADING = 'Rooms larger than the rule';
/** Files whose lines count (text we write; generated and binary files are elsewhere). */
const TEXT = /\.(c|h|js|mjs|cjs|ts|css|html)$/;
const C_LIKE = /\.(c|h)$/;
const JS_LIKE = /\.(js|mjs|cjs)$/;

/** Lines of a text (a final newline does not start a line). */
export function lineCount(text) {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

const IDENT = /[A-Za-z0-9_$]/;
const C_CONTROL = new Set(['if', 'for', 'while', 'switch', 'do', 'else', 'return', 'sizeof']);
const JS_CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await', 'do', 'else']);
// After these keywords a '/' starts a regular expression, not a division.
const JS_REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw',
  'case', 'do', 'else', 'yield', 'await']);

/**
 * The tokens of C or JS source that matter for brace matching: identifiers / numbers
 * ('word'), punctuation ('(' ')' '{' '}' '=>' ';' ',' and others), each with its line
 * (1-based). Comments, strings, template text and regular expressions are dropped;
 * a template's ${ } is kept as '{' ... '}' tokens. C preprocessor lines are dropped
 * and reported apart (as multi-line macros) by cMacros().
 */
export function tokenize(text, lang) {
  const toks = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  const templateDepth = []; // brace depth at which each open ${ } returns to template text
  let depth = 0;
  let atLineStart = true;
  const last = () => toks[toks.length - 1];
  if (text.startsWith('#!')) i = text.indexOf('\n') < 0 ? n : text.indexOf('\n'); // a shebang line
  const skipTo = (end) => { // skip to just after `end`, counting lines
    const j = text.indexOf(end, i);
    const stop = j < 0 ? n : j + end.length;
    for (; i < stop; i++) if (text[i] === '\n') line++;
  };
  const skipString = (q) => {
    i++;
    while (i < n && text[i] !== q) {
      if (text[i] === '\\') i++;
      if (text[i] === '\n') line++;
      i++;
    }
    i++;
  };
  // Template text from i (just after ` or a closing }) to its end or the next ${.
  const skipTemplate = () => {
    while (i < n) {
      const c = text[i];
      if (c === '\\') { i += 2; continue; }
      if (c === '\n') line++;
      if (c === '`') { i++; return; }
      if (c === '$' && text[i + 1] === '{') {
        i += 2;
        toks.push({ t: '{', line, template: true });
        templateDepth.push(depth);
        depth++;
        return;
      }
      i++;
    }
  };
  const regexAllowed = () => {
    const p = last();
    if (!p) return true;
    if (p.t === 'word') return JS_REGEX_AFTER_WORD.has(p.v);
    return !(p.t === ')' || p.t === ']' || p.t === '}' || p.t === 'str');
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n') { line++; i++; atLineStart = true; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') { i++; continue; }
    if (lang === 'c' && atLineStart && c === '#') {
      // A preprocessor line, with its continuations.
      while (i < n && text[i] !== '\n') {
        if (text[i] === '\\' && text[i + 1] === '\n') { i++; line++; }
        else if (text[i] === '/' && text[i + 1] === '*') { skipTo('*/'); continue; }
        i++;
      }
      continue;
    }
    atLineStart = false;
    if (c === '/' && text[i + 1] === '/') { while (i < n && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') { i += 2; skipTo('*/'); continue; }
    if (c === '"' || c === "'") { skipString(c); toks.push({ t: 'str', line }); continue; }
    if (lang === 'js' && c === '`') { i++; skipTemplate(); toks.push({ t: 'str', line }); continue; }
    if (lang === 'js' && c === '/' && regexAllowed()) {
      i++;
      let inClass = false;
      while (i < n && text[i] !== '\n') {
        const d = text[i];
        if (d === '\\') { i += 2; continue; }
        if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        i++;
      }
      if (i < n && text[i] === '/') {
        i++;
        while (i < n && IDENT.test(text[i])) i++; // flags
      }
      toks.push({ t: 'str', line });
      continue;
    }
    if (IDENT.test(c)) {
      let j = i;
      while (j < n && IDENT.test(text[j])) j++;
      toks.push({ t: 'word', v: text.slice(i, j), line });
      i = j;
      continue;
    }
    if (c === '=' && text[i + 1] === '>') { toks.push({ t: '=>', line }); i += 2; continue; }
    if (c === '{') { depth++; toks.push({ t: '{', line }); i++; continue; }
    if (c === '}') {
      depth--;
      toks.push({ t: '}', line });
      i++;
      if (templateDepth.length && templateDepth[templateDepth.length - 1] === depth) {
        templateDepth.pop();
        skipTemplate();
      }
      continue;
    }
    toks.push({ t: c, line });
    i++;
  }
  return toks;
}

/** Multi-line function-like macros of C source: {name, line, lines}. */
export function cMacros(text) {
  const out = [];
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const m = /^\s*#\s*define\s+([A-Za-z_]\w*)\(/.exec(lines[k]);
    if (!m) continue;
    let end = k;
    while (end < lines.length - 1 && /\\\s*$/.test(lines[end])) end++;
    if (end > k) out.push({ name: `${m[1]} (macro)`, line: k + 1, lines: end - k + 1 });
  }
  return out;
}

/** Index of the '(' that matches the ')' at toks[j], or -1. */
function openParen(toks, j) {
  let d = 0;
  for (let k = j; k >= 0; k--) {
    if (toks[k].t === ')') d++;
    else if (toks[k].t === '(' && --d === 0) return k;
  }
  return -1;
}

/** Index of the '}' that matches the '{' at toks[j], or -1. */
function closeBrace(toks, j) {
  let d = 0;
  for (let k = j; k < toks.length; k++) {
    if (toks[k].t === '{') d++;
    else if (toks[k].t === '}' && --d === 0) return k;
  }
  return -1;
}

/**
 * The functions of a source text: {name, line, lines}, line being the opening line.
 * @param {string} text
 * @param {'c' | 'js'} lang
 */
export function functionsOf(text, lang) {
  const toks = tokenize(text, lang);
  const out = [];
  let depth = 0;
  const opened = []; // per open brace: whether it counts for depth (extern "C" { does not)
  for (let j = 0; j < toks.length; j++) {
    const tok = toks[j];
    if (tok.t === '}') { if (opened.pop()) depth--; continue; }
    if (tok.t !== '{') continue;
    const externC = lang === 'c' && toks[j - 1]?.t === 'str' && toks[j - 2]?.v === 'extern';
    opened.push(!externC);
    if (externC) continue;
    depth++;
    if (tok.template) continue;
    let name = null;
    let line = 0;
    if (lang === 'c') {
      if (depth !== 1) continue; // C has no nested functions
      const p = toks[j - 1];
      if (!p || p.t !== ')') continue;
      const o = openParen(toks, j - 1);
      let before = toks[o - 1];
      if (before && before.t === ')') {
        // A name made by a macro: NAME_MACRO(part)(parameters) {
        const o2 = openParen(toks, o - 1);
        const macro = toks[o2 - 1];
        if (!macro || macro.t !== 'word') continue;
        const part = toks.slice(o2 + 1, o - 1).map((t) => t.v ?? t.t).join('');
        name = `${macro.v}(${part})`;
        before = macro;
      } else if (!before || before.t !== 'word' || C_CONTROL.has(before.v)) {
        continue;
      } else {
        name = before.v;
      }
      line = before.line;
    } else {
      const p = toks[j - 1];
      if (!p) continue;
      if (p.t === '=>') {
        // (a, b) => {   or   a => {
        const q = toks[j - 2];
        if (q && q.t === ')') {
          const o = openParen(toks, j - 2);
          line = toks[o].line;
        } else if (q) line = q.line;
        else continue;
        // A name when it is assigned: const name = (...) => { / name: (...) => {
        name = '(arrow)';
        const o = q && q.t === ')' ? openParen(toks, j - 2) : j - 2;
        const a = toks[o - 1];
        const b = toks[o - 2];
        const async = a && a.t === 'word' && a.v === 'async';
        const a2 = async ? b : a;
        const b2 = async ? toks[o - 3] : b;
        if (a2 && (a2.t === '=' || a2.t === ':') && b2 && b2.t === 'word') name = b2.v;
      } else if (p.t === ')') {
        const o = openParen(toks, j - 1);
        const before = toks[o - 1];
        if (!before) continue;
        if (before.t === 'word' && before.v === 'function') {
          name = '(function)';
          line = before.line;
        } else if (before.t === 'word' && !JS_CONTROL.has(before.v)) {
          // function name(...) {, a method name(...) {, get name() {
          name = before.v;
          line = before.line;
        } else if (before.t === '*' || before.t === ']') {
          // function* (...) {, or a computed method name [expr](...) {
          name = before.t === '*' ? '(generator)' : '(computed)';
          line = before.line;
        } else continue;
      } else continue;
    }
    const k = closeBrace(toks, j);
    if (k < 0) continue;
    out.push({ name, line, lines: toks[k].line - line + 1 });
  }
  if (lang === 'c') out.push(...cMacros(text));
  return out;
}

/** Every counted file below ROOT's DIRS, '/'-separated and relative to root. */
export function roomFiles(root = ROOT) {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile() && TEXT.test(e.name)) out.push(r);
    }
  };
  for (const d of DIRS) walk(d);
  return out.sort();
}

/**
 * The rooms listed under the EXEMPT_HEADING heading of docs/architecture.md, as
 * "path" (a whole file) or "path name" (one function) keys, each with its reason.
 * A list item names the file in backquotes, then optionally the function in
 * backquotes, then its reason after a colon:
 *   - `src/x.c`: reason             - `src/x.c` `f`: reason
 */
export function exemptions(markdown) {
  const out = new Map();
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#+\s/.test(l) && l.includes(EXEMPT_HEADING));
  if (start < 0) return out;
  const level = /^#+/.exec(lines[start])[0].length;
  for (let k = start + 1; k < lines.length; k++) {
    const h = /^(#+)\s/.exec(lines[k]);
    if (h && h[1].length <= level) break;
    const m = /^\s*[-*]\s+`([^`]+)`(?:\s+`([^`]+)`)?\s*:\s*(\S.*)$/.exec(lines[k]);
    if (m) out.set(m[2] ? `${m[1]} ${m[2]}` : m[1], m[3].trim());
  }
  return out;
}

/** The rooms over the limits: {key, file, name?, line?, lines, limit, reason?}, and the stale exemptions. */
export function checkRooms(root = ROOT) {
  const arch = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const exempt = exemptions(arch);
  const over = [];
  for (const file of roomFiles(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const n = lineCount(text);
    if (n > MAX_FILE_LINES) over.push({ key: file, file, lines: n, limit: MAX_FILE_LINES });
    const lang = C_LIKE.test(file) ? 'c' : JS_LIKE.test(file) ? 'js' : null;
    if (!lang) continue;
    for (const f of functionsOf(text, lang)) {
      if (f.lines > MAX_FUNCTION_LINES) {
        const fname = f.name.replace(/ \(macro\)$/, '');
        over.push({ key: `${file} ${fname}`, file, name: f.name, line: f.line, lines: f.lines, limit: MAX_FUNCTION_LINES });
      }
    }
  }
  for (const r of over) r.reason = exempt.get(r.key);
  const keys = new Set(over.map((r) => r.key));
  const stale = [...exempt.keys()].filter((k) => !keys.has(k));
  return { over, stale };
}

function main() {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1] ?? '.') : ROOT;
  const { over, stale } = checkRooms(root);
  const unlisted = over.filter((r) => r.reason === undefined);
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ over, stale }, null, 2)}\n`);
  } else {
    for (const r of over) {
      const what = r.name ? `${r.file}:${r.line} ${r.name}` : r.file;
      const status = r.reason === undefined ? 'NOT LISTED' : `listed: ${r.reason}`;
      console.log(`${what}: ${r.lines} lines (limit ${r.limit}) - ${status}`);
    }
    for (const k of stale) {
      console.log(`docs/architecture.md lists \`${k.replace(' ', '` `')}\` under "${EXEMPT_HEADING}", but it is within the limits: remove that line`);
    }
    if (unlisted.length === 0 && stale.length === 0) {
      console.log(`rooms: no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} lines in ${DIRS.join('/, ')}/ beyond the ${over.length} listed`);
    } else if (unlisted.length) {
      console.log(`rooms: ${unlisted.length} over the rule and not listed under "${EXEMPT_HEADING}" in docs/architecture.md: split them, or list them there with a reason`);
    }
  }
  process.exitCode = unlisted.length || stale.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

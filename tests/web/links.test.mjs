// Every reference in the documentation resolves, in the repository and in both packages.
//
// - Markdown links `[text](path#anchor)` in README.md, CHANGELOG.md and docs/**/*.md: the path
//   must exist (relative to the file), and the anchor must be a heading of the target
//   (GitHub's slugs) or an explicit `<a id>` / `<a name>`.
// - Bare repository paths (`docs/semantics.md`, `tests/oracle/exact.mjs`, `src/slabcast.h`, ...)
//   in those files and in src/*.h and web/*.d.ts must exist in the repository.
// - The npm tarball (`npm pack --dry-run --json`) and the CMake install (`cmake --install` into a
//   temporary prefix) must be self-contained: every Markdown link of a shipped .md file, and every
//   `docs/*.md` a shipped file names, resolves inside the package.
// - No tracked file may point at the texts slabcast's contract grew from, which are not part of
//   the repository (they live in a sibling directory that users never have).
// The checker itself is tested on fixtures with deliberately broken links, so it is known to bite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from './helpers/artifacts.mjs';

// --- the checker ----------------------------------------------------------------------------

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to '-'. */
export function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading keeps its text
    .replace(/<[^>]*>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown text defines: headings (with GitHub's -1, -2 for repeats) and <a id>. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (fence === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** Markdown without fenced code blocks and inline code spans (links there are not links). */
function proseOf(markdown) {
  let fence = null;
  const out = [];
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (fence === f[1]) fence = null;
      out.push('');
      continue;
    }
    out.push(fence === null ? line.replace(/`[^`]*`/g, '``') : '');
  }
  return out.join('\n');
}

const TOP_DIRS = ['docs', 'src', 'tests', 'web', 'tools', 'scripts', 'cmake'];
const BARE = new RegExp(`(?<![\\w./@-])((?:${TOP_DIRS.join('|')})/[\\w.@/*{}-]*[\\w/*}])`, 'g');

/**
 * Problems with the references in one file.
 * @param {string} file  path of the file, relative to the tree's root, '/'-separated
 * @param {string} text  its contents
 * @param {{exists: (p: string) => boolean, read: (p: string) => string,
 *          bare?: boolean | ((p: string) => boolean), mapBare?: (p: string) => string}} tree
 *   exists/read take root-relative paths; `bare` says which bare paths to check (default all);
 *   `mapBare` turns a repository path into a path of this tree (for installed layouts).
 * @returns {string[]}
 */
export function checkReferences(file, text, tree) {
  const problems = [];
  const dir = path.posix.dirname(file);
  if (file.endsWith('.md')) {
    const prose = proseOf(text);
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const hash = target.indexOf('#');
      const rel = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      if (rel.startsWith('/')) {
        problems.push(`${file}: link ${target} is absolute; use a relative path`);
        continue;
      }
      const resolved = rel === '' ? file : path.posix.normalize(path.posix.join(dir, decodeURI(rel)));
      if (resolved.startsWith('..')) {
        problems.push(`${file}: link ${target} leaves the tree`);
        continue;
      }
      if (!tree.exists(resolved)) {
        problems.push(`${file}: link ${target} does not resolve (${resolved} is missing)`);
        continue;
      }
      if (anchor !== null && resolved.endsWith('.md') && !anchorsOf(tree.read(resolved)).has(anchor)) {
        problems.push(`${file}: link ${target}: ${resolved} has no heading with anchor #${anchor}`);
      }
    }
  }
  const want = tree.bare ?? true;
  // Link targets were checked above as links (relative to their file), not as bare paths.
  const rest = file.endsWith('.md') ? text.replace(/\]\([^)]*\)/g, ']()') : text;
  for (const m of rest.matchAll(BARE)) {
    const p = m[1].replace(/[.]+$/, '');
    if (/[*{}<>]/.test(p)) continue; // a pattern, not a path
    if (!/\.\w+$|\/$/.test(p)) continue; // no extension: a word like "tests/s", not a path
    if (typeof want === 'function' ? !want(p) : !want) continue;
    // In the repository, a path whose directory does not exist here names another project's
    // file (three.js's src/math/Ray.js); a wrong file name in an existing directory is caught.
    if (want === true && !tree.exists(path.posix.dirname(p.replace(/\/$/, '')))) continue;
    const mapped = tree.mapBare ? tree.mapBare(p) : p;
    if (!tree.exists(mapped.replace(/\/$/, ''))) {
      problems.push(`${file}: names ${p}, which is missing${mapped === p ? '' : ` (looked for ${mapped})`}`);
    }
  }
  return problems;
}

// Names of the outside texts. Spelled in pieces so that this file does not match itself.
const OUTSIDE = [
  new RegExp(['shared', 'spec'].join('/')),
  new RegExp(['shared', 'seeds'].join('/')),
  new RegExp(`\\.\\./${'shared'}/`),
  new RegExp(['CASES', 'md'].join('\\.')),
  new RegExp(`\\b00[0-4]-[a-z0-9]+(?:-[a-z0-9]+)*\\.${'txt'}\\b`),
];

/** Lines of `text` that point at the texts outside the repository. */
export function outsideReferences(file, text) {
  const problems = [];
  text.split('\n').forEach((line, i) => {
    for (const re of OUTSIDE) {
      if (re.test(line)) {
        problems.push(`${file}:${i + 1}: points outside the repository: ${line.trim().slice(0, 120)}`);
        break;
      }
    }
  });
  return problems;
}

/** A tree rooted at a directory on disk. */
function diskTree(root, extra = {}) {
  return {
    exists: (p) => existsSync(path.join(root, p)),
    read: (p) => readFileSync(path.join(root, p), 'utf8'),
    ...extra,
  };
}

/** A tree of a file list (the npm tarball), read from the repository. */
function listTree(files, extra = {}) {
  const set = new Set(files);
  const dirs = new Set();
  for (const f of files) {
    for (let d = path.posix.dirname(f); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  }
  return {
    exists: (p) => set.has(p) || dirs.has(p),
    read: (p) => readFileSync(path.join(ROOT, p), 'utf8'),
    ...extra,
  };
}

function walk(dir, base = dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(full, base));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

const isDocRef = (p) => /^docs\/[\w.-]+\.md$/.test(p);

// --- the checker bites ----------------------------------------------------------------------

describe('the link checker itself', () => {
  const fixture = {
    'docs/a.md': '# Title\n\n## Case files\n\n## Numbers, rounding & -0\n\n### Numbers, rounding & -0\n',
    'src/x.h': '/* see docs/a.md */',
  };
  const tree = {
    exists: (p) => p in fixture || p === 'docs' || p === 'src',
    read: (p) => fixture[p],
  };

  test('GitHub slugs: punctuation dropped, spaces to dashes, repeats numbered', () => {
    expect([...anchorsOf(fixture['docs/a.md'])]).toEqual([
      'title', 'case-files', 'numbers-rounding---0', 'numbers-rounding---0-1',
    ]);
    expect(slug('Rays, segments, points')).toBe('rays-segments-points');
    expect(slug('`sc_status` and `SC_ERR_STALE`')).toBe('sc_status-and-sc_err_stale');
  });

  test('a good link and a good bare path pass', () => {
    expect(checkReferences('README.md', 'See [c](docs/a.md#case-files) and docs/a.md, src/x.h.', tree))
      .toEqual([]);
  });

  test('a missing file is flagged', () => {
    expect(checkReferences('README.md', 'See [x](docs/missing.md).', tree)).toEqual([
      'README.md: link docs/missing.md does not resolve (docs/missing.md is missing)',
    ]);
  });

  test('a missing anchor is flagged', () => {
    expect(checkReferences('docs/b.md', 'See [x](a.md#case-file).', tree)).toEqual([
      'docs/b.md: link a.md#case-file: docs/a.md has no heading with anchor #case-file',
    ]);
  });

  test('a link leaving the tree, an absolute link and a missing bare path are flagged', () => {
    expect(checkReferences('docs/b.md', '[s](../../outside/X.md) [t](/etc/passwd) src/nope.h', tree))
      .toEqual([
        'docs/b.md: link ../../outside/X.md leaves the tree',
        'docs/b.md: link /etc/passwd is absolute; use a relative path',
        'docs/b.md: names src/nope.h, which is missing',
      ]);
  });

  test('another project\'s path is not ours; a typo in one of our directories is flagged', () => {
    expect(checkReferences('docs/b.md', 'three.js `src/math/Ray.js`, box tests/s', tree)).toEqual([]);
    expect(checkReferences('docs/b.md', 'see `docs/semantic.md`', tree)).toEqual([
      'docs/b.md: names docs/semantic.md, which is missing',
    ]);
  });

  test('links in code are not links; URLs are not checked', () => {
    const md = '```\n[x](nope.md)\n```\nand `[y](nope2.md)` and [z](https://example.org/a.md)\n';
    expect(checkReferences('docs/b.md', md, tree)).toEqual([]);
  });

  test('an installed layout maps docs/X to its doc directory', () => {
    const installed = {
      exists: (p) => p === 'share/doc/slabcast/a.md' || p === 'include/x.h',
      read: () => '',
      bare: isDocRef,
      mapBare: (p) => p.replace(/^docs\//, 'share/doc/slabcast/'),
    };
    expect(checkReferences('include/x.h', '/* docs/a.md */', installed)).toEqual([]);
    expect(checkReferences('include/x.h', '/* docs/b.md */', installed)).toEqual([
      'include/x.h: names docs/b.md, which is missing (looked for share/doc/slabcast/b.md)',
    ]);
  });

  test('references to the outside texts are flagged', () => {
    const bad = [
      `see ../${'shared'}/spec/${'CASES'}.md`,
      `the ${'CASES'}.md example`,
      `seed ${'000'}-raycast-aabb-tutorial.${'txt'}`,
      `/work/${'shared'}/seeds`,
    ];
    for (const line of bad) expect(outsideReferences('f', line), line).toHaveLength(1);
    expect(outsideReferences('f', 'case seed000-unit-ray0 and docs/semantics.md')).toEqual([]);
  });
});

// --- the repository ---------------------------------------------------------------------------

function gitFiles() {
  const r = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').filter(Boolean);
}

describe('the repository', () => {
  const files = gitFiles();

  test('every link and path in README, CHANGELOG, docs, headers and .d.ts resolves', () => {
    const docs = files.filter((f) => f === 'README.md' || f === 'CHANGELOG.md'
      || (f.startsWith('docs/') && f.endsWith('.md'))
      || /^src\/[^/]+\.h$/.test(f) || /^web\/[^/]+\.d\.ts$/.test(f));
    expect(docs).toContain('docs/semantics.md');
    const tree = diskTree(ROOT);
    const problems = docs.flatMap((f) => checkReferences(f, readFileSync(path.join(ROOT, f), 'utf8'), tree));
    expect(problems).toEqual([]);
  });

  test('no tracked file points at the texts outside the repository', () => {
    const self = path.relative(ROOT, new URL(import.meta.url).pathname).split(path.sep).join('/');
    const problems = [];
    for (const f of files) {
      if (f === self) continue;
      const full = path.join(ROOT, f);
      let st;
      try { st = statSync(full); } catch { continue; } // deleted in the work tree
      if (!st.isFile() || st.size > 8 << 20) continue;
      const buf = readFileSync(full);
      if (buf.includes(0)) continue; // binary
      problems.push(...outsideReferences(f, buf.toString('utf8')));
    }
    expect(problems).toEqual([]);
  });
});

// --- the packages -----------------------------------------------------------------------------

describe('the npm package is self-contained', () => {
  test('every shipped link and docs/ reference resolves inside the tarball', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT, encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const shipped = JSON.parse(r.stdout)[0].files.map((f) => f.path);
    expect(shipped).toContain('docs/semantics.md');
    // Markdown links everywhere; bare paths only where they point at the docs (the shipped
    // pages also describe the repository, e.g. its tests, which a package does not carry).
    const tree = listTree(shipped, { bare: isDocRef });
    const text = shipped.filter((f) => /\.(md|d\.ts|js|mjs|h)$/.test(f));
    const problems = text.flatMap((f) => checkReferences(f, readFileSync(path.join(ROOT, f), 'utf8'), tree));
    expect(problems).toEqual([]);
  });
});

describe('the CMake install is self-contained', () => {
  let prefix;
  afterAll(() => { if (prefix) rmSync(prefix, { recursive: true, force: true }); });

  test('the installed header and docs resolve inside the prefix', () => {
    const build = path.join(ROOT, 'build/native');
    expect(existsSync(path.join(build, 'cmake_install.cmake')),
      'build/native is not configured: run `bash scripts/build.sh` first').toBe(true);
    prefix = mkdtempSync(path.join(tmpdir(), 'slabcast-links-'));
    const r = spawnSync('cmake', ['--install', build, '--prefix', prefix], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const installed = walk(prefix);
    expect(installed).toContain('share/doc/slabcast/semantics.md');
    expect(installed).toContain('include/slabcast.h');
    const tree = diskTree(prefix, {
      bare: isDocRef,
      mapBare: (p) => p.replace(/^docs\//, 'share/doc/slabcast/'),
    });
    const text = installed.filter((f) => /\.(md|h)$/.test(f));
    const problems = text.flatMap((f) => checkReferences(f, readFileSync(path.join(prefix, f), 'utf8'), tree));
    expect(problems).toEqual([]);
  });
});

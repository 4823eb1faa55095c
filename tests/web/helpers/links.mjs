// The link checker behind tests/web/links.test.mjs: every relative link and every repository
// path named in a document, header or type file must resolve inside the tree it ships in (the
// repository, the npm tarball, the CMake install), and nothing may point at the texts outside
// the repository that the contract grew from.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text (duplicates get -1, -2, ... as on GitHub). */
export function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Markdown links [text](target) outside code fences and code spans: [{ target, line }]. */
export function markdownLinks(markdown) {
  const out = [];
  let fence = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fence = !fence;
    if (fence) return;
    const text = line.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1], line: i + 1 });
  });
  return out;
}

// A repository path as prose, comments and code spans name it: a top-level directory of the
// project, then a file name with an extension.
const REPO_PATH = /(?<![\w./-])((?:docs|src|web|tests|tools|scripts|cmake)\/[\w./-]*\w\.(?:md|h|c|mjs|js|ts|json|sh|txt|in|cmake))(?![\w/-])/g;

/** Repository paths named in a text (prose, comments, code spans): [{ target, line }]. */
export function pathMentions(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(REPO_PATH)) out.push({ target: m[1].replace(/\.$/, ''), line: i + 1 });
  });
  return out;
}

// What must never be named: the texts the contract grew from live outside the repository.
const OUTSIDE = /(\.\.\/)+shared\/|\bshared\/(spec|seeds)\b|\bCASES\.md\b|\b00[0-4]-[a-z][\w-]*\.txt\b/;

/**
 * Checks files of a tree. tree: { has(relPath): boolean, read(relPath): string }.
 * files: relative paths to check. options.pathsIn(rel): whether to check bare repository paths
 * in that file (default: all); options.mapPath(target): where a repository path lives in this
 * tree (default: itself). Returns a list of problems, one string each ("file:line: why").
 */
export function checkTree(tree, files, options = {}) {
  const pathsIn = options.pathsIn ?? (() => true);
  const mapPath = options.mapPath ?? ((p) => p);
  const problems = [];
  const anchorCache = new Map();
  const anchorsOf = (rel) => {
    if (!anchorCache.has(rel)) anchorCache.set(rel, anchors(tree.read(rel)));
    return anchorCache.get(rel);
  };
  for (const rel of files) {
    const text = tree.read(rel);
    text.split('\n').forEach((line, i) => {
      if (OUTSIDE.test(line)) problems.push(`${rel}:${i + 1}: points outside the repository: ${line.trim().slice(0, 120)}`);
    });
    if (rel.endsWith('.md')) {
      for (const { target, line } of markdownLinks(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
        if (target.startsWith('//')) {
          problems.push(`${rel}:${line}: protocol-relative link ${target}`);
          continue;
        }
        const [file, anchor] = target.split('#');
        const dest = file === '' ? rel : path.posix.normalize(path.posix.join(path.posix.dirname(rel), decodeURI(file)));
        if (dest.startsWith('../') || !tree.has(dest)) {
          problems.push(`${rel}:${line}: link ${target} does not resolve (${dest})`);
          continue;
        }
        if (anchor !== undefined && dest.endsWith('.md') && !anchorsOf(dest).has(anchor)) {
          problems.push(`${rel}:${line}: link ${target}: no heading #${anchor} in ${dest}`);
        }
      }
    }
    if (pathsIn(rel)) {
      for (const { target, line } of pathMentions(text)) {
        const dest = mapPath(target);
        if (!tree.has(dest)) problems.push(`${rel}:${line}: names ${target}, which is not in this tree (${dest})`);
      }
    }
  }
  return problems;
}

/** A tree over a directory and a list of its files (relative, posix). */
export function dirTree(root, fileList) {
  const set = new Set(fileList);
  // A directory counts as present when some file lies below it.
  const has = (rel) => set.has(rel) || fileList.some((f) => f.startsWith(`${rel.replace(/\/$/, '')}/`));
  return { has, read: (rel) => readFileSync(path.join(root, rel), 'utf8') };
}

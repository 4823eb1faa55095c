// Every reference resolves: in the repository, in the npm tarball and in the CMake install, no
// relative link, anchor or repository path may point at something that is not there, and nothing
// may point at the texts outside the repository that the contract (docs/semantics.md) grew from.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchors, checkTree, dirTree, markdownLinks, pathMentions, slug } from './helpers/links.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
// The repository as a user's clone has it after a build (web/slabcast.wasm is built, not tracked).
const repo = {
  has: (rel) => existsSync(path.join(ROOT, rel)),
  read: dirTree(ROOT, tracked).read,
};
const isDoc = (f) => /^(README|CHANGELOG)\.md$/.test(f) || /^docs\/.*\.md$/.test(f) || /^tests\/.*README\.md$/.test(f);
const isHeader = (f) => /^src\/.*\.h$/.test(f) || /^web\/.*\.d\.ts$/.test(f);
const textFile = (f) => !/^tests\/fuzz\/corpus\//.test(f) && !/\.(wasm|png|jpg|gz|tgz)$/.test(f) && statSync(path.join(ROOT, f)).size < 4 << 20;

// Spelled in pieces so that this file does not itself name what it looks for.
const OUT_SPEC = ['..', 'shared', 'spec', 'CA' + 'SES.md'].join('/');
const OUT_SEED = ['shared', 'seeds', '000-raycast-aabb-tutorial' + '.txt'].join('/');

describe('the link checker', () => {
  const fixture = (files) => ({
    has: (rel) => Object.hasOwn(files, rel) || Object.keys(files).some((f) => f.startsWith(`${rel}/`)),
    read: (rel) => files[rel],
  });

  it('makes GitHub anchors from headings', () => {
    expect(slug('Extreme inputs')).toBe('extreme-inputs');
    expect(slug('Rays, segments, points')).toBe('rays-segments-points');
    expect(slug('three.js adapter (`slabcast/three`)')).toBe('threejs-adapter-slabcastthree');
    expect([...anchors('# A\n## B c\n```\n# not a heading\n```\n## B c\n')]).toEqual(['a', 'b-c', 'b-c-1']);
  });

  it('finds links and repository paths, not the ones inside code', () => {
    expect(markdownLinks('see [x](a.md#b) and `[y](c.md)` and [z](d.md "title")\n```\n[w](f.md)\n```')
      .map((l) => l.target)).toEqual(['a.md#b', 'd.md']);
    expect(pathMentions('// see docs/semantics.md, section X; src/slabcast.h.\nweb/x.d.ts').map((m) => m.target))
      .toEqual(['docs/semantics.md', 'src/slabcast.h', 'web/x.d.ts']);
  });

  it('flags a missing file, a missing anchor, a path that is not there and a pointer outside', () => {
    const files = {
      'README.md': '# Top\n[ok](docs/a.md#part-one) [bad](docs/nope.md) [anchor](docs/a.md#part-two)\n',
      'docs/a.md': '# A\n## Part one\n[up](../README.md#top) [out](../../x.md) `src/missing.h` `docs/a.md`\n',
      'src/x.h': `/* Semantics: ${OUT_SPEC} */\n`,
      'web/x.d.ts': `// see ${OUT_SEED}\n// ok: docs/a.md\n`,
    };
    const problems = checkTree(fixture(files), Object.keys(files));
    expect(problems).toEqual([
      'README.md:2: link docs/nope.md does not resolve (docs/nope.md)',
      'README.md:2: link docs/a.md#part-two: no heading #part-two in docs/a.md',
      'README.md:2: names docs/nope.md, which is not in this tree (docs/nope.md)',
      'docs/a.md:3: link ../../x.md does not resolve (../x.md)',
      'docs/a.md:3: names src/missing.h, which is not in this tree (src/missing.h)',
      expect.stringMatching(/^src\/x\.h:1: points outside the repository/),
      expect.stringMatching(/^web\/x\.d\.ts:1: points outside the repository/),
    ]);
    expect(checkTree(fixture({ 'docs/a.md': '# A\n[self](#a) [web](https://example.com/x)\n' }), ['docs/a.md'])).toEqual([]);
  });
});

describe('references resolve', () => {
  it('in the repository: docs, README, CHANGELOG, headers and type files', () => {
    const files = tracked.filter((f) => isDoc(f) || isHeader(f));
    expect(files).toContain('docs/semantics.md');
    expect(files).toContain('src/slabcast.h');
    expect(checkTree(repo, files)).toEqual([]);
  });

  it('nothing in the repository points outside it', () => {
    const files = tracked.filter(textFile);
    expect(files.length).toBeGreaterThan(50);
    const problems = checkTree(repo, files, { pathsIn: () => false });
    expect(problems).toEqual([]);
  });

  it('in the npm tarball: its docs link only to files it ships, its code names only files it ships', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const files = JSON.parse(r.stdout)[0].files.map((f) => f.path);
    expect(files).toContain('docs/semantics.md');
    const tarball = dirTree(ROOT, files);
    const problems = checkTree(tarball, files.filter((f) => /\.(md|js|mjs|d\.ts)$/.test(f)), {
      // Prose pages describe the repository too (its tests, its sources); the shipped code and
      // types must name only what ships.
      pathsIn: (f) => !f.endsWith('.md'),
    });
    expect(problems).toEqual([]);
  });

  describe('in the CMake install', () => {
    let prefix;
    afterAll(() => { if (prefix) rmSync(prefix, { recursive: true, force: true }); });

    it('ships the contract beside the header, and the header names it where it is installed', () => {
      expect(existsSync(path.join(ROOT, 'build/native/CMakeCache.txt')), 'build/native is configured by npm test').toBe(true);
      prefix = mkdtempSync(path.join(tmpdir(), 'slabcast-install-'));
      const r = spawnSync('cmake', ['--install', 'build/native', '--prefix', prefix], { cwd: ROOT, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const files = [];
      const walk = (dir) => {
        for (const e of readdirSync(path.join(prefix, dir), { withFileTypes: true })) {
          const rel = dir ? `${dir}/${e.name}` : e.name;
          if (e.isDirectory()) walk(rel); else files.push(rel);
        }
      };
      walk('');
      expect(files).toContain('include/slabcast.h');
      expect(files).toContain('share/doc/slabcast/semantics.md');
      const header = dirTree(prefix, files).read('include/slabcast.h');
      expect(header).toMatch(/share\/doc\/slabcast\/semantics\.md/);
      // The install puts docs/X at share/doc/slabcast/X.
      const problems = checkTree(dirTree(prefix, files), files.filter((f) => /\.(md|h)$/.test(f)), {
        mapPath: (p) => p.replace(/^docs\//, 'share/doc/slabcast/'),
        pathsIn: (f) => f.endsWith('.h'),
      });
      expect(problems).toEqual([]);
    });
  });
});

// .github/: the Pages workflow builds and publishes dist/site with actions pinned to commits;
// the bug report form asks for a link or a case file, the version, expected and observed;
// the README's playground link is package.json's homepage.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/artifacts.mjs';

const read = (f) => readFileSync(path.join(ROOT, f), 'utf8');

describe('.github', () => {
  it('pages.yml: builds the site, checks its size, publishes dist/site; every action pinned to a commit', () => {
    const wf = read('.github/workflows/pages.yml');
    const uses = [...wf.matchAll(/^\s*(?:-\s*)?uses:\s*(\S+)/gm)].map((m) => m[1]);
    expect(uses.map((u) => u.split('@')[0])).toEqual([
      'actions/checkout', 'actions/setup-node', 'actions/configure-pages', 'actions/upload-pages-artifact', 'actions/deploy-pages',
    ]);
    for (const u of uses) expect(u, u).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
    for (const step of ['bash scripts/setup.sh', 'bash scripts/build.sh', 'node scripts/build-site.mjs', 'node scripts/site-size.mjs']) {
      expect(wf).toContain(`run: ${step}`);
    }
    expect(wf).toMatch(/upload-pages-artifact@[0-9a-f]{40}[^\n]*\n\s+with:\n\s+path: dist\/site\n/);
    expect(wf).toMatch(/permissions:\n\s+contents: read\n\s+pages: write\n\s+id-token: write\n/);
    expect(wf).toMatch(/environment:\n\s+name: github-pages\n/);
  });

  it('the bug report form asks for a link or a case file, the version, expected and observed', () => {
    const form = read('.github/ISSUE_TEMPLATE/bug_report.yml');
    const ids = [...form.matchAll(/^\s+id: ([\w-]+)$/gm)].map((m) => m[1]);
    expect(ids).toEqual(['link', 'case-file', 'version', 'expected', 'observed', 'where']);
    expect(form).toMatch(/^name: /m);
    expect(form).toMatch(/^description: /m);
    expect(form).toContain('https://slabcast.github.io/slabcast/');
  });

  it('the README links the public playground, which is package.json\'s homepage', () => {
    const home = JSON.parse(read('package.json')).homepage;
    expect(home).toBe('https://slabcast.github.io/slabcast/');
    expect(read('README.md')).toContain(`[playground](${home})`);
  });
});

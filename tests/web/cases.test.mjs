// Replays every tests/cases/*.json through the JS API (web/slabcast.js on
// web/slabcast.wasm) with the check rules of docs/case-runner.md: one test per
// case file, failing with the ids (and FAIL lines) of the failed cases.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToUtf8 } from '../../web/case-json.mjs';
import { checkCases, parseCaseFile, readCaseFileBytes, runCases } from '../../web/cases.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const CASES_DIR = path.join(ROOT, 'tests/cases');
const caseFiles = readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')).sort();

describe('tests/cases through the JS API', () => {
  let api;
  const totals = { files: 0, passed: 0, failed: 0, skipped: 0 };

  beforeAll(async () => {
    requireBuilt(WASM);
    api = await loadSlabcast();
  });

  afterAll(() => {
    console.log(`tests/cases (wasm): ${totals.files} files, ${totals.passed} passed, `
      + `${totals.failed} failed, ${totals.skipped} skipped`);
  });

  it('there are case files', () => {
    expect(caseFiles.length).toBeGreaterThan(0);
  });

  for (const file of caseFiles) {
    const rel = `tests/cases/${file}`;
    it(rel, async () => {
      const cases = parseCaseFile(await readCaseFileBytes(path.join(CASES_DIR, file)), rel);
      const entries = runCases(api, cases);
      const result = checkCases(entries);
      totals.files++;
      totals.passed += result.passed;
      totals.failed += result.failed;
      totals.skipped += result.skipped;
      const summary = result.text.trimEnd().split('\n').pop();
      console.log(`${rel}: ${summary}`);
      expect(result.passed + result.failed + result.skipped).toBe(cases.length);
      const report = result.failedIds.length
        ? `failed ids: ${result.failedIds.map((id) => (id === null ? 'null' : bytesToUtf8(id))).join(', ')}\n`
          + bytesToUtf8(result.text)
        : '';
      expect(result.failedIds.map((id) => (id === null ? null : bytesToUtf8(id))), report).toEqual([]);
      expect(result.failed).toBe(0);
    });
  }
});

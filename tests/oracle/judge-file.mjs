#!/usr/bin/env node
// Judge a runner's results document against the exact oracle.
//
//   node tests/oracle/judge-file.mjs CASES.json RESULTS.json [--no-allowance]
//
// e.g.  build/native/slabcast-cases run tests/cases/generated-dyadic.json > /tmp/results.json
//       node tests/oracle/judge-file.mjs tests/cases/generated-dyadic.json /tmp/results.json
//
// Results are matched to cases by position (the runner prints them in the
// order of the cases) and their ids must agree. Every case is judged, with or
// without `expect` (the oracle is the reference, not the file's `expect`).
// A repeated id must give an error result (docs/case-runner.md).
// Prints "FAIL ID: PROBLEM" per problem, then "N passed, M failed".
// Exit status: 0 all passed, 1 some failed, 2 unreadable input.

import { readFileSync } from 'node:fs';
import { judgeCase } from './judge.mjs';

function die(msg) {
  process.stderr.write(`judge-file: ${msg}\n`);
  process.exit(2);
}

function readJson(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    die(`cannot read ${file}: ${e.message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    die(`${file} is not valid JSON`);
  }
}

const args = process.argv.slice(2);
const allowance = !args.includes('--no-allowance');
const files = args.filter((a) => !a.startsWith('--'));
if (files.length !== 2) die('usage: node tests/oracle/judge-file.mjs CASES.json RESULTS.json [--no-allowance]');

const casesDoc = readJson(files[0]);
const resultsDoc = readJson(files[1]);
if (!casesDoc || casesDoc.format !== 'slabcast-cases/1' || !Array.isArray(casesDoc.cases)) {
  die(`${files[0]} is not a slabcast-cases/1 file`);
}
if (!resultsDoc || resultsDoc.format !== 'slabcast-results/1' || !Array.isArray(resultsDoc.results)) {
  die(`${files[1]} is not a slabcast-results/1 document`);
}

const cases = casesDoc.cases;
const results = resultsDoc.results;
let passed = 0;
let failed = 0;
const seen = new Set();
const label = (c, i) => (c && typeof c === 'object' && typeof c.id === 'string' ? c.id : `#${i}`);

for (let i = 0; i < cases.length; i++) {
  const c = cases[i];
  const res = results[i];
  let problems;
  if (res === undefined) problems = ['no result'];
  else if (c && typeof c === 'object' && typeof c.id === 'string' && seen.has(c.id)) {
    problems = res && typeof res.error === 'string' ? [] : [`duplicate id: expected an error, got ${JSON.stringify(res)}`];
  } else {
    problems = judgeCase(c, res, { allowance });
  }
  if (c && typeof c === 'object' && typeof c.id === 'string') seen.add(c.id);
  if (problems.length === 0) passed++;
  else {
    failed++;
    for (const p of problems) process.stdout.write(`FAIL ${label(c, i)}: ${p}\n`);
  }
}
if (results.length > cases.length) {
  failed++;
  process.stdout.write(`FAIL (file): ${results.length - cases.length} more results than cases\n`);
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
// slabcast-cases (wasm runner): node web/bin/slabcast-cases.mjs run|check FILE
//
// Replays a case file through web/slabcast.js + web/slabcast.wasm and prints
// exactly what the native runner (build/native/slabcast-cases) prints for the
// same file: see docs/case-runner.md. Exit status: 0 ok, 1 check failures,
// 2 unreadable / invalid file or bad usage.

import { loadSlabcast } from '../slabcast.js';
import { USAGE, runCaseFile } from '../cases.mjs';

async function main(argv) {
  if (argv.length !== 2 || (argv[0] !== 'run' && argv[0] !== 'check')) {
    process.stderr.write(USAGE);
    return 2;
  }
  const [mode, path] = argv;
  let api;
  try {
    api = await loadSlabcast();
  } catch (e) {
    process.stderr.write(`slabcast-cases: ${e.message} (build it: npm run build)\n`);
    return 2;
  }
  const { stdout, stderr, code } = await runCaseFile(api, mode, path);
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(Buffer.from(stdout, 'latin1'));
  return code;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => {
    process.stderr.write(`slabcast-cases: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 2;
  },
);

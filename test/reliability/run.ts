// `npm run reliability`: runs the reliability tests (quick forms; long ones with
// ENGRAM_RELIABILITY_LONG=1), then writes RELIABILITY.md from the figures they recorded.
// `--report-only` rewrites RELIABILITY.md from the last recorded figures without running anything.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { readResults, reliabilityReport } from './report.js';
import { RESULTS_FOLDER } from './results.js';

const root = join(import.meta.dirname, '..', '..');

/** The test files whose figures RELIABILITY.md reports. */
const FILES = [
  'test/reliability/',
  'test/crash.int.test.ts',
  'test/server/tenancy.int.test.ts',
  'test/ui/',
  'test/postgres-multiprocess.int.test.ts',
  'test/sqlite-erase.test.ts',
];

const reportOnly = process.argv.includes('--report-only');
if (!reportOnly) {
  const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...FILES], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) {
    process.stderr.write('reliability: some tests failed; RELIABILITY.md is left as it was\n');
    process.exit(run.status ?? 1);
  }
}
const records = readResults(RESULTS_FOLDER);
if (records.length === 0) {
  process.stderr.write(`reliability: no figures under ${RESULTS_FOLDER}; run npm run reliability first\n`);
  process.exit(1);
}
writeFileSync(join(root, 'RELIABILITY.md'), reliabilityReport(records, root));
process.stdout.write(
  `RELIABILITY.md written from ${records.length} parts: ${records.map((record) => record.part).join(', ')}\n`,
);

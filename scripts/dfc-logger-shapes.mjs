#!/usr/bin/env node
// Runs the generative logger-format test (test/unit/dfc/dfc-logger-shapes.test.ts) with other seeds:
// every log of the read corpus halves and of test/fixtures/dfc/ behind PER_LOG formats drawn from
// each seed, printing the pairs whose reading changed and the totals. No environment needed.
//   node scripts/dfc-logger-shapes.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet] [--all]
import { runTsEntry, seedArgs } from './run-ts-entry.mjs';

const { first, last, perLog, flag } = seedArgs(
  process.argv.slice(2),
  '3',
  'node scripts/dfc-logger-shapes.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet] [--all]',
);

const entry = `
import { runShapes, shapeLogs, shapeable } from './test/helpers/loggerShapes';
const [first, last, perLog, quiet, all] = process.argv.slice(2);
// The test's logs (enough lines to show a template); --all adds the short ones, which the reader leaves alone on purpose.
const logs = shapeLogs().filter((l) => all === 'all' || shapeable(l));
let pairs = 0;
let differ = 0;
for (let seed = Number(first); seed <= Number(last); seed++) {
  const r = runShapes(logs, seed, Number(perLog));
  pairs += r.pairs;
  differ += r.differ.length;
  if (quiet !== 'quiet') for (const d of r.differ) console.log(d);
  console.log(\`seed \${seed}: \${r.differ.length}/\${r.pairs} format × log pairs read differently\`);
}
console.log(\`all: \${differ}/\${pairs} pairs read differently (\${logs.length} logs)\`);
process.exitCode = differ ? 1 : 0;
`;

process.exitCode = await runTsEntry('dfc-shapes', entry, [first, last, perLog, flag('--quiet') ? 'quiet' : '', flag('--all') ? 'all' : '']);

#!/usr/bin/env node
// Runs the generative excerpt test of the reader's stage inference (test/unit/dfc/dfc-excerpt-stages.test.ts) with
// other seeds: every read corpus log and reader fixture with a failed stage, cut into PER_LOG excerpts the way authors
// quote logs (test/helpers/dfcExcerpts.ts), printing the excerpts that read another failed stage and the totals.
//   node scripts/dfc-excerpt-stages.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet]
import { runTsEntry, seedArgs } from './run-ts-entry.mjs';

const { first, last, perLog, flag } = seedArgs(
  process.argv.slice(2),
  '12',
  'node scripts/dfc-excerpt-stages.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet]',
);

const entry = `
import { runExcerpts, stagedLogs } from './test/helpers/dfcExcerpts';
const [first, last, perLog, quiet] = process.argv.slice(2);
const logs = stagedLogs();
let excerpts = 0;
let asserted = 0;
let differ = 0;
let killedDiffer = 0;
for (let seed = Number(first); seed <= Number(last); seed++) {
  const r = runExcerpts(logs, seed, Number(perLog));
  excerpts += r.excerpts;
  asserted += r.asserted;
  differ += r.differ.length;
  killedDiffer += r.killedDiffer.length;
  if (quiet !== 'quiet') for (const d of [...r.differ, ...r.killedDiffer]) console.log(d);
  console.log(\`seed \${seed}: \${r.differ.length}/\${r.asserted} excerpts holding the stage's evidence read another failed stage, \${r.killedDiffer.length}/\${r.asserted} killed ones another stage or outcome (\${r.excerpts} drawn; only one kind of evidence: \${JSON.stringify(r.onlyKind)})\`);
}
console.log(\`all: \${differ}/\${asserted} asserted excerpts read another failed stage, \${killedDiffer}/\${asserted} killed (\${excerpts} drawn, \${logs.length} logs)\`);
process.exitCode = differ || killedDiffer ? 1 : 0;
`;

process.exitCode = await runTsEntry('dfc-excerpts', entry, [first, last, perLog, flag('--quiet') ? 'quiet' : '']);

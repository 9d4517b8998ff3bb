#!/usr/bin/env node
// Runs the generative quoting test (test/unit/dfc/dfc-quote-forms.test.ts) with other seeds: every log
// of the read corpus halves and of test/fixtures/dfc/ quoted in PER_LOG block forms and PER_LOG excerpt
// forms drawn from each seed (test/helpers/quoteForms.ts), printing the pairs whose reading changed on
// the fields their family requires, and the totals. No environment needed.
//   node scripts/dfc-quote-forms.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet] [--parts a,b]
import { runTsEntry, seedArgs } from './run-ts-entry.mjs';

const { first, last, perLog, opt, flag } = seedArgs(
  process.argv.slice(2),
  '4',
  'node scripts/dfc-quote-forms.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet] [--parts a,b]',
);
const parts = opt('--parts', '');
if (!/^[\w,]*$/.test(parts)) {
  console.error('usage: node scripts/dfc-quote-forms.mjs [--seeds FIRST[..LAST]] [--per-log K] [--quiet] [--parts a,b]');
  process.exit(2);
}

const entry = `
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runForms, shapeLogs } from './test/helpers/quoteForms';
import { corpusCases } from './test/helpers/dfcCorpus';
const [first, last, perLog, quiet, parts] = process.argv.slice(2);
// --parts names halves beyond the read ones (never the set-aside batch unless named).
const extra = parts ? parts.split(',').flatMap((p) => corpusCases(p as never)).map((dir) => ({
  name: dir.split('/').slice(-2).join('/'),
  lines: readFileSync(join(dir, 'run.log'), 'utf8').replace(/\\r\\n?/g, '\\n').replace(/\\n$/, '').split('\\n'),
})) : [];
const logs = parts ? extra : shapeLogs();
let pairs = 0;
let differ = 0;
const fam: Record<string, { pairs: number; differ: number }> = {};
for (let seed = Number(first); seed <= Number(last); seed++) {
  const r = runForms(logs, seed, Number(perLog));
  pairs += r.pairs;
  differ += r.differ.length;
  for (const [k, v] of Object.entries(r.byFamily)) {
    const f = (fam[k] ??= { pairs: 0, differ: 0 });
    f.pairs += v.pairs;
    f.differ += v.differ;
  }
  if (quiet !== 'quiet') for (const d of r.differ) console.log(d);
  console.log(\`seed \${seed}: \${r.differ.length}/\${r.pairs} form × log pairs read differently\`);
}
console.log(\`all: \${differ}/\${pairs} pairs read differently (\${logs.length} logs); \${Object.entries(fam).map(([k, v]) => \`\${k} \${v.differ}/\${v.pairs}\`).join(', ')}\`);
process.exitCode = differ ? 1 : 0;
`;

process.exitCode = await runTsEntry('dfc-forms', entry, [first, last, perLog, flag('--quiet') ? 'quiet' : '', parts]);

#!/usr/bin/env node
// Scores the DFC log reader on one half of users' published logs (test/fixtures/dfc-corpus/, issue 30)
// with the corpus test's own scoring (test/helpers/dfcCorpus.ts): one line per case (read right or
// not, and each field that failed), then the totals. This is how the set-aside half (unseen/) is
// scored, once, by someone who did not tune the reader — the corpus test never reads it.
//   node scripts/dfc-corpus-score.mjs <half> [--json]   (the halves: CORPUS_PARTS in test/helpers/dfcCorpus.ts)
import { runTsEntry } from './run-ts-entry.mjs';

const [half, ...rest] = process.argv.slice(2);
if (!half || rest.some((a) => a !== '--json')) {
  console.error('usage: node scripts/dfc-corpus-score.mjs <half> [--json]');
  process.exit(2);
}

const entry = `
import { CORPUS_PARTS, corpusCases, score, scoreCase } from './test/helpers/dfcCorpus';
const half = process.argv[2];
if (!(CORPUS_PARTS as readonly string[]).includes(half)) {
  console.error(\`usage: node scripts/dfc-corpus-score.mjs <\${CORPUS_PARTS.join('|')}> [--json]\`);
  process.exit(2);
}
const results = corpusCases(half).map(scoreCase);
const s = score(results);
if (process.argv[3] === '--json') console.log(JSON.stringify({ half, ...s, results }, null, 2));
else {
  for (const r of results)
    console.log(\`\${r.ok ? 'right' : 'WRONG'}  \${r.name}\${r.ok ? '' : '  ' + r.fields.filter((f) => !f.ok).map((f) => \`\${f.field} — \${f.detail}\`).join('; ')}\`);
  console.log(\`\${half}: \${s.right}/\${s.cases} logs read right, \${s.fieldsRight}/\${s.fields} fields right\`);
}
`;

process.exitCode = await runTsEntry('dfc-score', entry, [half, ...rest]);

#!/usr/bin/env node
// The fixed, content-blind split of a batch of users' DFC/HailoRT log excerpts (issue 30) into the half
// a reader is tuned on (tune2/) and the half set aside unread (unseen/). The rule is decided before
// the split is computed and looks at nothing a collector chooses for what a log says:
//   key(case) = sha256(`${expect.source}\n${folderName}`) as hex;
//   sort the batch by key; the first ceil(n/2) go to tune2/, the rest to unseen/.
// Ranking by a hash (instead of hash parity) keeps the halves equal whatever n is, so the rule never
// needs adjusting after its result is seen (test/fixtures/dfc-corpus/README.md).
//   node scripts/dfc-corpus-split.mjs <batch-dir>   move every <batch-dir>/NN-name/ into its half
//   node scripts/dfc-corpus-split.mjs --check       recompute from tune2/ + unseen/, exit 1 on a misplaced case
// --check reads only each case's `source` field, so it never shows a set-aside log.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const corpus = new URL('../test/fixtures/dfc-corpus/', import.meta.url).pathname;
const HALVES = ['tune2', 'unseen'];

function cases(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ name: d.name, dir: join(dir, d.name) }));
}

function keyOf(c) {
  const { source } = JSON.parse(readFileSync(join(c.dir, 'expect.json'), 'utf8'));
  if (typeof source !== 'string' || source.length === 0) throw new Error(`${c.name}: expect.json has no source`);
  return createHash('sha256').update(`${source}\n${c.name}`).digest('hex');
}

/** The rule: rank by key, the lower ceil(n/2) to tune2. */
export function assign(batch) {
  const ranked = batch.map((c) => ({ ...c, key: keyOf(c) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const cut = Math.ceil(ranked.length / 2);
  return ranked.map((c, i) => ({ ...c, half: i < cut ? 'tune2' : 'unseen' }));
}

function main(argv) {
  if (argv[0] === '--check') {
    const placed = HALVES.flatMap((half) => (existsSync(join(corpus, half)) ? cases(join(corpus, half)).map((c) => ({ ...c, was: half })) : []));
    const wrong = assign(placed).filter((c) => c.half !== c.was);
    for (const c of wrong) console.error(`${c.was}/${c.name} belongs in ${c.half}/`);
    console.log(`${placed.length} cases, ${placed.length - wrong.length} where the rule puts them`);
    return wrong.length === 0 ? 0 : 1;
  }
  if (argv.length !== 1) {
    console.error('usage: node scripts/dfc-corpus-split.mjs <batch-dir> | --check');
    return 2;
  }
  const result = assign(cases(argv[0]));
  for (const half of HALVES) mkdirSync(join(corpus, half), { recursive: true });
  for (const c of result) {
    const target = join(corpus, c.half, c.name);
    if (existsSync(target)) throw new Error(`${c.half}/${c.name} exists already; nothing moved`);
  }
  for (const c of result) {
    cpSync(c.dir, join(corpus, c.half, c.name), { recursive: true });
    rmSync(c.dir, { recursive: true });
  }
  for (const half of HALVES) console.log(`${half}: ${result.filter((c) => c.half === half).length}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));

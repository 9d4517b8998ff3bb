#!/usr/bin/env node
// What each read log leaves open at its end (issue 30: `incomplete` needs evidence of its own, state.ts openEnd): every corpus
// log and reader fixture whose expectation states `success` or `incomplete` is read whole by a tree's reader, and its expected
// outcome, its reading and the first open thing the reader names (or none) are counted — docs/research/dfc-unseen-misses.md,
// "What a log leaves open". A set-aside batch is skipped with `--skip unseenN`.
//   node scripts/dfc-open-ends.mjs [<tree>=.] [--skip unseenN]... [--list]
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadTreeReader } from './run-ts-entry.mjs';

const args = process.argv.slice(2);
const skip = [];
let list = false;
let tree = resolve('.');
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--skip') skip.push(args[++i]);
  else if (args[i] === '--list') list = true;
  else tree = resolve(args[i]);
}
const out = mkdtempSync(join(tmpdir(), 'dfc-open-ends-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
const { DfcLogReader } = await loadTreeReader(tree, out, 'reader');
const root = resolve('.');

/** Each case folder under `dir` with its expected outcome (expect.json's `expect.outcome`, a fixture's expected.json `outcome`). */
function cases(dir, found = []) {
  for (const e of readdirSync(dir)) {
    if (skip.includes(e)) continue;
    const p = join(dir, e);
    if (!statSync(p).isDirectory()) continue;
    const log = join(p, 'run.log');
    if (existsSync(log)) {
      const corpus = join(p, 'expect.json');
      const fixture = join(p, 'expected.json');
      const want = existsSync(corpus)
        ? JSON.parse(readFileSync(corpus, 'utf8')).expect?.outcome
        : existsSync(fixture)
          ? JSON.parse(readFileSync(fixture, 'utf8')).outcome
          : undefined;
      if (want === 'success' || want === 'incomplete') found.push({ name: relative(root, p), log, want });
    }
    cases(p, found);
  }
  return found;
}

const table = new Map();
for (const c of [...cases(join(root, 'test/fixtures/dfc')), ...cases(join(root, 'test/fixtures/dfc-corpus'))]) {
  const r = new DfcLogReader({ logPath: c.log });
  r.push(readFileSync(c.log, 'utf8'));
  const { report } = r.finish();
  if (report.outcome === 'failed' || report.outcome === 'killed') continue;
  // The reader's own account of what is open (state.ts openEnd), asked after the log's end.
  const open = (r.state.openEnd() ?? (r.state.run.lastProgram ? '(nothing open)' : '(nothing open; no program record)')).replace(
    /the (?:parse|optimize|compile) stage/,
    'a stage',
  );
  const row = table.get(open) ?? { incomplete: 0, success: 0, read: { incomplete: 0, success: 0 } };
  row[c.want]++;
  if (report.outcome === c.want) row.read[c.want]++;
  table.set(open, row);
  if (list) console.log(`${c.want.padEnd(10)} ${report.outcome.padEnd(10)} ${open.padEnd(60)} ${c.name}`);
}
console.log('expected incomplete (read so) | expected success (read so) | open at the end');
for (const [open, row] of [...table].sort((a, b) => b[1].incomplete + b[1].success - a[1].incomplete - a[1].success))
  console.log(`${`${row.incomplete} (${row.read.incomplete})`.padStart(12)} | ${`${row.success} (${row.read.success})`.padStart(12)} | ${open}`);

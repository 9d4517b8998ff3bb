// The DFC log reader of two trees, read side by side: a change meant to keep every reading (a speed-up)
// shows 0 differences. Each log under test/fixtures/dfc/ and test/fixtures/dfc-corpus/ (a batch set aside
// unread — `--skip unseenN`, repeatable — is never opened) is read by both readers whole, in 4 KiB chunks
// and in 61-character chunks (a chunk may split a line, a `\r\n`, an escape), and live (the compile
// session's mode); the whole report JSON and every event are compared. The bench's own log (bench/dfc.bench.ts)
// is read too, a few hundred KB of it.
// `--time`: then the CPU time of each reader on the same logs repeated to ~5 MB, best of 5 interleaved runs in one process.
// Usage: node scripts/dfc-reader-diff.mjs <old tree> [<new tree>=.] [--skip unseen13] [--time]
//   e.g. git worktree add --detach /tmp/old main && ln -s "$PWD/node_modules" /tmp/old/node_modules
//        node scripts/dfc-reader-diff.mjs /tmp/old --skip unseen13
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadTreeReader } from './run-ts-entry.mjs';
import { join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const skip = [];
let timed = false;
const trees = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--skip') skip.push(args[++i]);
  else if (args[i] === '--time') timed = true;
  else trees.push(resolve(args[i]));
}
if (trees.length < 1 || trees.length > 2) {
  console.error('usage: node scripts/dfc-reader-diff.mjs <old tree> [<new tree>] [--skip <batch>]...');
  process.exit(2);
}
const [oldTree, newTree = resolve('.')] = trees;
const out = mkdtempSync(join(tmpdir(), 'dfc-reader-diff-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

const load = (tree, name) => loadTreeReader(tree, out, name);
const readers = { old: await load(oldTree, 'old'), new: await load(newTree, 'new') };

function logs(dir) {
  const found = [];
  for (const e of readdirSync(dir)) {
    if (skip.includes(e)) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) found.push(...logs(p));
    else if (e.endsWith('.log')) found.push(p);
  }
  return found;
}

/** Everything a reader says of a text read one way: the events of every push, then finish's report and events. */
function reading(mod, text, context, chunk) {
  const r = new mod.DfcLogReader(context);
  const events = [];
  for (let i = 0; i < text.length; i += chunk) events.push(r.push(text.slice(i, i + chunk)));
  const done = r.finish();
  events.push(done.events);
  return JSON.stringify({ report: done.report, events });
}

const root = newTree;
const files = [...logs(join(root, 'test/fixtures/dfc')), ...logs(join(root, 'test/fixtures/dfc-corpus'))];
const texts = files.map((f) => ({ name: relative(root, f), text: readFileSync(f, 'utf8') }));
// The bench's log: a hailomz run with coloured levels, allocation grids, a redrawn bar, a traceback at the end.
const fx = (c) => readFileSync(join(root, 'test/fixtures/dfc', c, 'run.log'), 'utf8');
let frames = '';
for (let i = 0; i <= 64; i += 4)
  frames += `Calibration: ${Math.round((i / 64) * 100)}%|${'█'.repeat(i / 8)}${' '.repeat(8 - i / 8)}| ${i}/64 [00:0${i % 10}<00:10, 3.54entries/s]\r`;
const block = `${fx('success-dfc3-hailomz').replace(/^\[info\]/gm, '[\x1b[32minfo\x1b[0m]')}${fx('incomplete').split('\n').slice(8).join('\n').repeat(20)}${frames}\n`;
texts.push({ name: '(bench log)', text: block.repeat(20) + fx('parse-unsupported-ops') });

const ways = [
  { name: 'whole', chunk: Infinity, live: false },
  { name: '4 KiB chunks', chunk: 4096, live: false },
  { name: '61-char chunks', chunk: 61, live: false },
  { name: 'live', chunk: 4096, live: true },
];
let compared = 0;
const differ = [];
for (const { name, text } of texts) {
  for (const w of ways) {
    const context = { logPath: name, ...(w.live ? { live: true } : {}) };
    const a = reading(readers.old, text, context, w.chunk === Infinity ? text.length || 1 : w.chunk);
    const b = reading(readers.new, text, context, w.chunk === Infinity ? text.length || 1 : w.chunk);
    compared++;
    if (a !== b) {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      differ.push(`${name} (${w.name}): old …${a.slice(Math.max(0, i - 80), i + 120)}\n    new …${b.slice(Math.max(0, i - 80), i + 120)}`);
    }
  }
}
for (const d of differ) console.log(`DIFFERS ${d}`);
console.log(`${texts.length} logs × ${ways.length} ways = ${compared} readings compared (skipped: ${skip.join(', ') || 'none'}): ${differ.length} differences`);
if (timed) {
  // The corpus's and the fixtures' logs (not the bench's, which the bench times), each read whole, 5 MB of them.
  const logsOnly = texts.slice(0, -1);
  const round = [];
  let size = 0;
  while (size < 5e6) for (const t of logsOnly) (round.push(t.text), (size += t.text.length));
  const cpu = (mod) => {
    const c = process.cpuUsage();
    for (const text of round) mod.readDfcLog(text, { logPath: 'x' });
    const u = process.cpuUsage(c);
    return (u.user + u.system) / 1000;
  };
  const best = { old: Infinity, new: Infinity };
  for (let i = 0; i < 5; i++) for (const k of i % 2 ? ['new', 'old'] : ['old', 'new']) best[k] = Math.min(best[k], cpu(readers[k]));
  console.log(
    `CPU time on ${(size / 1e6).toFixed(1)} MB of ${logsOnly.length} logs, best of 5 interleaved: old ${best.old.toFixed(0)} ms, new ${best.new.toFixed(0)} ms — new/old ${(best.new / best.old).toFixed(2)}`,
  );
}
process.exit(differ.length ? 1 : 0);

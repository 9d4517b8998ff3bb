// Where the DFC log reader's time goes on the bench's log (bench/dfc.bench.ts's block: a hailomz run with coloured
// levels, allocation grids, a redrawn bar), per line — what a speed-up should be measured against first
// (docs/performance.md "DFC logs"). Prints:
//   1. each kind of line (digits folded): its time per line and its share of the block's time;
//   2. the pattern tests a line pays: regular expressions run and substring searches per line, and each
//      regular expression's own time on one block's calls, replayed alone (best of 5);
//   3. the bytes the reader allocates per byte read, and the functions that allocate most.
// Usage: node scripts/dfc-reader-costs.mjs [<tree>=.] [--top N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadTreeReader } from './run-ts-entry.mjs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 15;
const tree = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top') ?? '.');
const out = mkdtempSync(join(tmpdir(), 'dfc-reader-costs-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
const { DfcLogReader } = await loadTreeReader(tree, out, 'reader');

// The bench's block, built as bench/dfc.bench.ts builds it.
const fx = (c) => readFileSync(join(tree, 'test/fixtures/dfc', c, 'run.log'), 'utf8');
let frames = '';
for (let i = 0; i <= 64; i += 4)
  frames += `Calibration: ${Math.round((i / 64) * 100)}%|${'█'.repeat(i / 8)}${' '.repeat(8 - i / 8)}| ${i}/64 [00:0${i % 10}<00:10, 3.54entries/s]\r`;
const block = `${fx('success-dfc3-hailomz').replace(/^\[info\]/gm, '[\x1b[32minfo\x1b[0m]')}${fx('incomplete').split('\n').slice(8).join('\n').repeat(20)}${frames}\n`;
const linesPerBlock = block.split(/\r\n|\r|\n/).length - 1;
const stream = (reader, text) => {
  for (let i = 0; i < text.length; i += 65536) reader.push(text.slice(i, i + 65536));
};

// 1. Each line's whole reading, timed where the reader takes it off the stream (lines a step held are read later: their
// time lands on the line that released them). Medians: a collection or another process's turn lands on single lines.
const BLOCKS = 400;
const take = DfcLogReader.prototype.take;
const spent = new Map();
let timing = false;
DfcLogReader.prototype.take = function (raw, events) {
  if (!timing) return take.call(this, raw, events);
  const s = process.hrtime.bigint();
  take.call(this, raw, events);
  const ns = Number(process.hrtime.bigint() - s);
  const key = raw.text.replace(/\d+/g, 'N').slice(0, 80);
  if (!spent.has(key)) spent.set(key, []);
  spent.get(key).push(ns);
};
stream(new DfcLogReader({ logPath: 'bench.log' }), block.repeat(BLOCKS));
timing = true;
stream(new DfcLogReader({ logPath: 'bench.log' }), block.repeat(BLOCKS));
timing = false;
DfcLogReader.prototype.take = take;
const kinds = [...spent].map(([key, ns]) => {
  ns.sort((a, b) => a - b);
  return { key, median: ns[ns.length >> 1], perBlock: ns.length / BLOCKS };
});
let total = 0;
for (const k of kinds) total += k.median * k.perBlock;
console.log(
  `1. ${linesPerBlock} lines a block, ${(total / 1000).toFixed(0)} µs a block by each kind's median (${(Buffer.byteLength(block) / 1e6 / (total / 1e9)).toFixed(1)} MB/s with the timing's own cost)`,
);
console.log('   share   µs/line  lines/block  line (digits as N)');
for (const k of kinds.sort((a, b) => b.median * b.perBlock - a.median * a.perBlock).slice(0, top))
  console.log(
    `${((100 * k.median * k.perBlock) / total).toFixed(1).padStart(7)}% ${(k.median / 1000).toFixed(1).padStart(8)} ${String(k.perBlock).padStart(12)}  ${JSON.stringify(k.key)}`,
  );

// 2. The tests one block's lines pay (the reader warmed up on two blocks first).
const exec = RegExp.prototype.exec;
const searches = ['includes', 'indexOf', 'startsWith', 'endsWith'].map((name) => [name, String.prototype[name]]);
const calls = [];
let searched = 0;
const r = new DfcLogReader({ logPath: 'bench.log' });
stream(r, block.repeat(2));
RegExp.prototype.exec = function (s) {
  calls.push([this, String(s), this.lastIndex]);
  return exec.call(this, s);
};
for (const [name, f] of searches)
  String.prototype[name] = function (...a) {
    searched++;
    return f.apply(this, a);
  };
stream(r, block);
RegExp.prototype.exec = exec;
for (const [name, f] of searches) String.prototype[name] = f;
const byPattern = new Map();
for (const [re, s, last] of calls) {
  if (!byPattern.has(re)) byPattern.set(re, []);
  byPattern.get(re).push([s, last]);
}
const costs = [];
let regexNs = 0;
for (const [re, list] of byPattern) {
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    const s = process.hrtime.bigint();
    for (let j = 0; j < 20; j++)
      for (const [text, last] of list) {
        re.lastIndex = last;
        exec.call(re, text);
      }
    best = Math.min(best, Number(process.hrtime.bigint() - s) / 20);
  }
  costs.push({ re, n: list.length, ns: best });
  regexNs += best;
}
console.log(
  `\n2. per line: ${(calls.length / linesPerBlock).toFixed(0)} regular expressions run, ${(searched / linesPerBlock).toFixed(0)} substring searches; ` +
    `the regular expressions alone ${(regexNs / 1000).toFixed(0)} µs a block`,
);
console.log('   µs/block  calls  ns/call  pattern');
for (const c of costs.sort((a, b) => b.ns - a.ns).slice(0, top))
  console.log(
    `${(c.ns / 1000).toFixed(1).padStart(11)} ${String(c.n).padStart(6)} ${(c.ns / c.n).toFixed(0).padStart(8)}  /${c.re.source.slice(0, 90)}${c.re.source.length > 90 ? '…' : ''}/${c.re.flags}`,
  );

// 3. What the reader allocates per byte it reads (V8's sampling heap profiler, collected objects included: the young
// generation's churn, which sets how often it is scavenged and how large it grows — bench/dfc.bench.ts's memory figure),
// and the functions that allocate most (self, by name and line in the bundle).
{
  const { Session } = await import('node:inspector');
  const s = new Session();
  s.connect();
  const post = (m, p) => new Promise((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  const text = block.repeat(100);
  stream(new DfcLogReader({ logPath: 'bench.log' }), text);
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  stream(new DfcLogReader({ logPath: 'bench.log' }), text);
  const { profile } = await post('HeapProfiler.stopSampling');
  const self = new Map();
  let bytes = 0;
  const walk = (n) => {
    const k = `${n.callFrame.functionName || '(anonymous)'}:${n.callFrame.lineNumber + 1}`;
    self.set(k, (self.get(k) ?? 0) + n.selfSize);
    bytes += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(`\n3. ${(bytes / Buffer.byteLength(text)).toFixed(1)} bytes allocated per byte read`);
  console.log('   share  function:line (in the bundle)');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * v) / bytes).toFixed(1).padStart(7)}%  ${k}`);
}

// Parser-bisection figures on real models (pure: the search against a simulated parser, no docker).
// For every model of ../shared/corpus/onnx-thirdparty (and the repo's tower and ViT fixtures) and
// every position the refusing node could take, the search runs against an oracle that refuses each
// prefix containing that node. Baseline, in the same run: a linear scan (parse prefixes 1, 2, 3 …
// until one refuses — what cropping by hand amounts to), whose parses for position r are r + 1.
// Figures: the worst parse count against the bound 2·⌈log2 N⌉+4, the mean parse count as
// a ratio of the linear scan's, and how far unnamed nodes blur the answer (nodes the refusal lies
// among). The search was tuned on tower_packed.onnx and yolo_fastestv2.onnx; the other models are
// reported apart as held out.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { analyzeOnnx } from '../server/src/core/onnx/analysis';
import { readOnnxFile } from '../server/src/core/onnx/reader';
import { BisectSearch, bisectGraph, parseBudget } from '../server/src/core/onnx/bisect';
import { nowMs, report, rssMB } from './report';

const root = join(__dirname, '..', '..');
const corpus = join(root, '..', 'shared', 'corpus', 'onnx-thirdparty');
const TUNED = new Set(['tower_packed.onnx', 'yolo_fastestv2.onnx']);
const models = [
  join(root, 'examples', 'model', 'tower_packed.onnx'),
  join(root, 'test', 'fixtures', 'onnx', 'vit_b1_op17.onnx'),
  ...(existsSync(corpus)
    ? readdirSync(corpus)
        .filter((f) => f.endsWith('.onnx'))
        .map((f) => join(corpus, f))
    : []),
];
if (!existsSync(corpus)) process.stderr.write('NOTE: ../shared is absent; only the repo models are measured\n');

interface Row {
  model: string;
  n: number;
  worst: number;
  budget: number;
  meanParses: number;
  meanLinear: number;
  meanAmong: number;
  ms: number;
}

const rows: Row[] = [];
const load0 = loadavg()[0];
for (const file of models) {
  const a = analyzeOnnx(readOnnxFile(file));
  const g = bisectGraph(a);
  const n = g.order.length;
  const t0 = nowMs();
  let worst = 0;
  let sum = 0;
  let linear = 0;
  let among = 0;
  for (let r = 1; r <= n; r++) {
    const s = new BisectSearch(g);
    let parses = 0;
    for (let k = s.next(); k !== null; k = s.next()) {
      parses++;
      s.record(k, k >= r ? 'refused' : 'parsed');
    }
    worst = Math.max(worst, parses);
    sum += parses;
    linear += r + 1; // the whole model, then prefixes 1 … r
    among += s.refusing()?.length ?? n;
  }
  rows.push({
    model: file.split('/').pop()!,
    n,
    worst,
    budget: parseBudget(n),
    meanParses: sum / n,
    meanLinear: linear / n,
    meanAmong: among / n,
    ms: nowMs() - t0,
  });
}

for (const r of rows) {
  process.stderr.write(
    `${r.model.padEnd(34)} N=${String(r.n).padStart(5)}  worst ${String(r.worst).padStart(3)} / bound ${String(r.budget).padStart(3)}  mean ${r.meanParses.toFixed(1).padStart(5)} vs linear ${r.meanLinear.toFixed(1).padStart(7)}  among ${r.meanAmong.toFixed(1).padStart(6)}  ${r.ms.toFixed(0)} ms${TUNED.has(r.model) ? '  (tuned on)' : ''}\n`,
  );
}
for (const [label, set] of [
  ['tuned on', rows.filter((r) => TUNED.has(r.model))],
  ['held out', rows.filter((r) => !TUNED.has(r.model))],
] as const) {
  if (!set.length) continue;
  const worstRatio = Math.max(...set.map((r) => r.worst / r.budget));
  report({
    figure: `bisect parses, worst over every refusing position (${label}, ${set.length} models)`,
    target: '≤ 2·⌈log2 N⌉+4',
    measured: `${Math.max(...set.map((r) => r.worst))} parses at most (worst/bound ${worstRatio.toFixed(2)})`,
    ratio: 1 / worstRatio,
  });
  const mean = set.reduce((s, r) => s + r.meanParses / r.meanLinear, 0) / set.length;
  report({
    figure: `bisect parses vs a linear scan, mean over positions (${label})`,
    target: '≤ 0.5 of the linear scan',
    measured: `${mean.toFixed(3)} of the linear scan's parses`,
    ratio: 0.5 / mean,
  });
  const blurred = set.filter((r) => r.meanAmong > 1.05);
  report({
    figure: `bisect answers blurred by unnamed nodes (${label})`,
    target: 'for information',
    measured: blurred.length ? blurred.map((r) => `${r.model}: ${r.meanAmong.toFixed(1)} nodes`).join('; ') : 'none: one node per answer',
    ratio: 1,
    ok: true,
  });
}
report({
  figure: 'bisect bench memory and load',
  target: 'for information',
  measured: `${rssMB().toFixed(0)} MB RSS, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  ratio: 1,
  ok: true,
});

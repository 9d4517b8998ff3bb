// Issue 29: every walk over a graph a file describes is linear. Each test builds a file-shaped input
// at n and at 8n, times the real code path in the same run (CPU time, best of 5, see assertLinear)
// and asserts that t(8n)/t(n) is far below quadratic (see assertLinear) — far enough apart to hold
// on the 2-core CI machine under load 8–12. The inputs are the shapes that made
// the old code quadratic (the commit that fixed each says which); the ratios are printed as
// diagnostics.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeOnnx, type OnnxAnalysis } from '../../../server/src/core/onnx/analysis';
import { bisectGraph, frontier } from '../../../server/src/core/onnx/bisect';
import { preflight } from '../../../server/src/core/onnx/preflight';
import { transformerFindings } from '../../../server/src/core/onnx/transformerRules';
import { readOnnxBuffer } from '../../../server/src/core/onnx/reader';
import { renderGraphView } from '../../../server/src/core/onnx/graphView';
import { buildLayerIndex } from '../../../server/src/core/har/layers';
import { parseHn } from '../../../server/src/core/har/hn';
import type { HarArchive } from '../../../server/src/core/har/harReader';
import type { ModelLayerIndex } from '../../../server/src/core/common/modelLayers';
import { parseNmsConfig } from '../../../server/src/core/nms/config';
import { checkNms } from '../../../server/src/core/nms/checks';
import { nmsModelFromIndex } from '../../../server/src/core/nms/model';
import { networkGroupsOf } from '../../../server/src/core/hef/facts';
import type { Msg } from '../../../server/src/core/hef/protoDecode';
import type { HefProblem } from '../../../server/src/core/hef/problems';
import { analyze, checkDocument } from '../../../server/src/core/alls';
import { limit } from '../../../server/src/core/common/limits';
import { encodeModel, type NodeSpec, type ValueSpec } from '../../helpers/onnxBuilder';

/** CPU milliseconds (this process: user + system) per run of `fn` over `k` runs: load on the machine does not count. */
function cpuPerRun(fn: () => void, k: number): number {
  const t = process.cpuUsage();
  for (let i = 0; i < k; i++) fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000 / k;
}

/**
 * A linear pass over `names` (a map of them, then each looked up): what a linear walk over an input
 * of this size costs on this machine, cache misses, map growth and GC included — it grows more than
 * 8× from n to 8n here (the small input fits in the caches, the large one does not).
 */
function baselineOf(names: readonly string[]): () => void {
  return () => {
    const m = new Map<string, number>();
    for (let i = 0; i < names.length; i++) m.set(names[i], i);
    let s = 0;
    for (const k of names) s += m.get(k)!;
    if (s < 0) throw new Error('unreachable');
  };
}

interface Walk {
  run: () => void;
  /** The names of the input's elements (nodes, tensors, layers): the baseline's input. */
  names: readonly string[];
}

/**
 * Asserts that the walk `make(n)` returns (built outside the timing) is linear: t(8n)/t(n) below 32
 * (linear ≈ 8, quadratic ≈ 64), or, where the caches make a linear pass itself grow more than 8× on
 * this machine, t(8n)/t(n) over that pass's growth below 2 (linear ≈ 1, quadratic ≈ 8). Measured on
 * the 2-core VM under load 11: the fixed walks 7.8–21.5 raw and 0.5–1.3 over the baseline; the old
 * quadratic ones 52–224 raw and 2.9–28 over it. Times are CPU time, not wall time (the CI machine
 * runs other suites); the small size repeats so one measurement lasts at least 25 ms; the walks and
 * baselines are measured in turn, 5 times, the best of each kept.
 */
function assertLinear(t: TestContext, what: string, n: number, make: (n: number) => Walk): { raw: number; normalized: number } {
  const small = make(n);
  const large = make(8 * n);
  const bases = [baselineOf(small.names), baselineOf(large.names)];
  small.run(); // warm up the JIT on the small input
  bases[0]();
  let k = 1;
  while (k < 1 << 16 && cpuPerRun(small.run, k) * k < 25) k *= 2;
  let kb = 1;
  while (kb < 1 << 16 && cpuPerRun(bases[0], kb) * kb < 25) kb *= 2;
  const best = [Infinity, Infinity, Infinity, Infinity];
  for (let r = 0; r < 5; r++) {
    best[0] = Math.min(best[0], cpuPerRun(small.run, k));
    best[1] = Math.min(best[1], cpuPerRun(large.run, Math.max(1, Math.round(k / 8))));
    best[2] = Math.min(best[2], cpuPerRun(bases[0], kb));
    best[3] = Math.min(best[3], cpuPerRun(bases[1], Math.max(1, Math.round(kb / 8))));
    if (best[1] > 5000) break; // a quadratic walk at 8n takes seconds: one measurement is enough to fail
  }
  const raw = best[1] / best[0];
  const normalized = raw / (best[3] / best[2]);
  t.diagnostic(
    `${what}: n=${n} ${best[0].toFixed(2)} ms, 8n ${best[1].toFixed(2)} ms CPU: t(8n)/t(n) ${raw.toFixed(1)}, over the baseline's ${(best[3] / best[2]).toFixed(1)}: ${normalized.toFixed(2)} (linear ≈ 1, quadratic ≈ 8)`,
  );
  assert.ok(
    raw < 32 || normalized < 2,
    `${what}: 8× the input took ${raw.toFixed(1)}× the CPU time (${best[0].toFixed(2)} → ${best[1].toFixed(2)} ms), ${normalized.toFixed(2)}× a linear pass's growth (linear ≈ 1, quadratic ≈ 8)`,
  );
  return { raw, normalized };
}

const namesOf = (a: OnnxAnalysis) => a.model.graph.nodes.flatMap((x) => [x.name || `#${x.index}`, ...x.outputs]);

function analysisOf(nodes: NodeSpec[], inputs: ValueSpec[], outputs: ValueSpec[]): OnnxAnalysis {
  return analyzeOnnx(readOnnxBuffer(encodeModel({ graph: { name: 'g', nodes, inputs, outputs } })));
}

/** x → Relu → Relu → … (n nodes, named or not). */
function chain(n: number, named = (_i: number) => true): OnnxAnalysis {
  const nodes: NodeSpec[] = [];
  for (let i = 0; i < n; i++) nodes.push({ op: 'Relu', inputs: [i ? `t${i - 1}` : 'x'], outputs: [`t${i}`], ...(named(i) ? { name: `r${i}` } : {}) });
  return analysisOf(nodes, [{ name: 'x', dtype: 'float', dims: [1, 4] }], [{ name: `t${n - 1}`, dtype: 'float', dims: [1, 4] }]);
}

// ---- ONNX ------------------------------------------------------------------------------------------

test('bisect: which prefixes have a nameable frontier, for every prefix length, in linear time', (t) => {
  // one frontier per prefix length was rebuilt from scratch: quadratic in the data nodes
  assertLinear(t, 'bisectGraph (chain)', 1000, (n) => {
    const a = chain(n);
    return { run: () => void bisectGraph(a), names: namesOf(a) };
  });
});

test('bisect: the incremental nameable list equals the frontier of every prefix (random graphs with unnamed nodes, cycles, self-loops)', () => {
  let seed = 7;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
  for (let round = 0; round < 40; round++) {
    const n = 5 + rnd(40);
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < n; i++) {
      const inputs = ['x'];
      for (let k = rnd(3); k > 0; k--) inputs.push(`t${rnd(n)}`); // later tensors too: cycles and self-loops
      if (i > 0 && rnd(2)) inputs.push(`t${rnd(i)}`);
      nodes.push({ op: 'Sum', inputs, outputs: [`t${i}`, ...(rnd(4) === 0 ? [`u${i}`] : [])], ...(rnd(3) ? { name: `s${i}` } : {}) });
    }
    const a = analysisOf(nodes, [{ name: 'x', dtype: 'float', dims: [1, 4] }], [{ name: `t${n - 1}`, dtype: 'float', dims: [1, 4] }]);
    const g = bisectGraph(a);
    const expected = [true];
    for (let k = 1; k <= g.order.length; k++) expected.push(frontier(a, g.order, k).every((x) => !!x.name));
    assert.deepEqual(g.nameable, expected, `round ${round}`);
  }
});

test('pre-flight: rank-1 Concats sharing one wide ancestor (Shape-ancestor search) are linear', (t) => {
  // x → n/2 Neg → one Concat h → n/2 Concats of h: each rank-1 Concat searched h's n/2 producers afresh
  assertLinear(t, 'preflight (hub of Concats)', 1000, (n) => {
    const half = n / 2;
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < half; i++) nodes.push({ op: 'Neg', inputs: ['x'], outputs: [`l${i}`], name: `neg${i}` });
    nodes.push({ op: 'Concat', inputs: Array.from({ length: half }, (_, i) => `l${i}`), outputs: ['h'], attrs: { axis: 0 }, name: 'hub' });
    for (let j = 0; j < half; j++) nodes.push({ op: 'Concat', inputs: ['h', 'x'], outputs: [`c${j}`], attrs: { axis: 0 }, name: `cat${j}` });
    const a = analysisOf(nodes, [{ name: 'x', dtype: 'int64', dims: [1] }], [{ name: 'c0', dtype: 'int64', dims: [half + 1] }]);
    // the shape the walk exists for: every Concat is rank 1, so each one asks for a Shape ancestor
    assert.equal(a.shapes.facts.get('c0')?.shape?.length, 1);
    return { run: () => void preflight(a), names: namesOf(a) };
  });
});

test('pre-flight: a Concat with a Shape 13 producers up is shape plumbing, 14 up is not (the hop bound kept)', () => {
  const at = (hops: number) => {
    const nodes: NodeSpec[] = [{ op: 'Shape', inputs: ['x'], outputs: ['s0'], name: 'shape' }];
    for (let i = 1; i < hops; i++) nodes.push({ op: 'Identity', inputs: [`s${i - 1}`], outputs: [`s${i}`], name: `id${i}` });
    nodes.push({ op: 'Concat', inputs: [`s${hops - 1}`, `s${hops - 1}`], outputs: ['c'], attrs: { axis: 0 }, name: 'cat' });
    const a = analysisOf(nodes, [{ name: 'x', dtype: 'float', dims: [1, 'n'] }], [{ name: 'c', dtype: 'int64', dims: [4] }]);
    return a.findings.find((f) => f.code === 'onnx/shape-plumbing-concat' && f.node === 'cat')?.message ?? '';
  };
  assert.match(at(13), /\(Shape→…→Concat\)/);
  assert.doesNotMatch(at(14), /\(Shape→…→Concat\)/);
});

test('transformer rules: MatMuls of two activations (Q·Kᵀ exposed to the inputs) are linear, and the layer list is bounded', (t) => {
  const build = (n: number, chainLength = 0) => {
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < chainLength; i++) nodes.push({ op: 'Relu', inputs: [i ? `q${i - 1}` : 'q'], outputs: [`q${i}`], name: `relu${i}` });
    const q = chainLength ? `q${chainLength - 1}` : 'q';
    for (let j = 0; j < n; j++) nodes.push({ op: 'MatMul', inputs: [q, 'k'], outputs: [`m${j}`], name: `mm${j}` });
    return analysisOf(
      nodes,
      [
        { name: 'q', dtype: 'float', dims: [1, 4, 4] },
        { name: 'k', dtype: 'float', dims: [1, 4, 4] },
      ],
      [{ name: 'm0', dtype: 'float', dims: [1, 4, 4] }],
    );
  };
  // the fix of every finding listed every exposed MatMul, each found by indexOf: cubic
  assertLinear(t, 'transformerFindings (exposed MatMuls)', 100, (n) => {
    const a = build(n);
    return { run: () => void transformerFindings(a), names: namesOf(a) };
  });
  const many = transformerFindings(build(300)).filter((f) => f.code === 'onnx/matmul-two-activations');
  assert.equal(many.length, 300);
  assert.match(many[0].fix, /layers=\[matmul1, matmul2, .*matmul256, … \(44 more; `hailo-tools onnx --json` lists every finding\)\]/);
  // a 100,000-node chain between the input and the MatMul: no recursion as deep as the chain
  const long = transformerFindings(build(1, 100_000));
  assert.equal(long.filter((f) => f.code === 'onnx/matmul-two-activations').length, 1);
});

test('ONNX reader: one problem per distinct invalid dim, found by a map (n value infos with a negative dim)', (t) => {
  assertLinear(t, 'readOnnxBuffer (n invalid dims)', 2000, (n) => {
    const outputs: ValueSpec[] = Array.from({ length: n }, (_, i) => ({ name: `o${i}`, dtype: 'float', dims: [-1 - i] }));
    const bytes = encodeModel({ graph: { name: 'g', nodes: [], inputs: [{ name: 'x', dtype: 'float', dims: [1] }], outputs } });
    const m = readOnnxBuffer(bytes);
    assert.equal(m.problems.filter((p) => p.code === 'onnx/invalid-dim').length, n);
    return { run: () => void readOnnxBuffer(bytes), names: outputs.map((o) => o.name) };
  });
});

// ---- HN layer index ---------------------------------------------------------------------------------

test('HN layer index over an ONNX whose every node has a finding: linear', (t) => {
  assertLinear(t, 'buildLayerIndex (a finding per node)', 1000, (n) => {
    // Concat over axis 0 of a rank-2 tensor: a warning on every node (onnx/batch-axis-concat)
    const nodes: NodeSpec[] = [];
    for (let i = 0; i < n; i++) nodes.push({ op: 'Concat', inputs: ['x', 'x'], outputs: [`c${i}`], attrs: { axis: 0 }, name: `cat${i}` });
    const analysis = analysisOf(nodes, [{ name: 'x', dtype: 'float', dims: [2, 4] }], [{ name: 'c0', dtype: 'float', dims: [4, 4] }]);
    assert.ok(analysis.findings.filter((f) => f.severity !== 'info').length >= n);
    const onnx = { path: 'm.onnx', analysis, view: renderGraphView(analysis, 'm.onnx'), uri: 'hailo-onnx:/m.onnx' };
    const layers: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) layers[`net/concat${i}`] = { type: 'concat', input: [], output: [], original_names: [`cat${i}`], params: {} };
    const har = { path: 'm.har', members: [], hnMember: 'net.hn', hn: parseHn(JSON.stringify({ name: 'net', layers }), 'net.hn') } satisfies HarArchive;
    const index = buildLayerIndex(har, onnx);
    assert.match(index.layers.get('concat0')!.detail!, /⚠️ 1/);
    return { run: () => void buildLayerIndex(har, onnx), names: namesOf(analysis) };
  });
});

// ---- NMS config ↔ HN ------------------------------------------------------------------------------

test('NMS checks: n decoders, each with a finding, against the HN: linear', (t) => {
  // one regression head in the HN; every decoder names it and a class head the HN lacks (a finding
  // each), and regression_length disagrees with it: "once per file" was a scan of the findings per decoder
  const index: ModelLayerIndex = {
    source: 'm.har',
    networkName: 'net',
    layers: new Map([['conv1', { name: 'conv1', fullName: 'net/conv1', type: 'conv', originalNames: [], inputShapes: [], outputShapes: [[-1, 20, 20, 64]] }]]),
  };
  const model = nmsModelFromIndex(index);
  assertLinear(t, 'checkNms (a finding per decoder)', 4000, (n) => {
    const decoders = Array.from({ length: n }, (_, i) => ({ name: `net/bbox_decoder${i}`, stride: 32, reg_layer: 'net/conv1', cls_layer: `net/missing${i}` }));
    const text = JSON.stringify({ classes: 80, regression_length: 8, bbox_decoders: decoders });
    const config = { name: 'nms.json', doc: parseNmsConfig(text) };
    const findings = checkNms({ config, model });
    assert.equal(findings.filter((f) => f.code === 'nms/layer-not-in-hn').length, n);
    assert.equal(findings.filter((f) => f.code === 'nms/regression-length').length, 1);
    return { run: () => void checkNms({ config, model }), names: decoders.map((d) => d.cls_layer) };
  });
});

// ---- HEF --------------------------------------------------------------------------------------------

/** A decoded HEF body (plain objects, as protobufjs decodes them) with one group: `edges` defused NMS streams and `fused` fused layers. */
function defusedHef(edges: number, fused: number, original = (i: number) => `net/missing${i}`): Msg {
  const nms = (i: number) => ({ is_defused: true, defuse_info: { original_name: original(i) } });
  return {
    network_groups: [
      {
        network_group_metadata: { network_group_name: 'net' },
        networks_names: ['net/net'],
        fused_layers_metadata: {
          network_has_fused_layers: true,
          fused_layers: Array.from({ length: fused }, (_, i) => ({ layer_info: { name: `net/fused${i}`, edge_layer_base: { format: 6 } } })),
        },
        contexts: [
          {
            metadata: {
              edge_layers: Array.from({ length: edges }, (_, i) => ({
                direction: 1,
                edge_layer_type: 0,
                layer_info: { name: `net/nms${i}`, edge_layer_base: { format: 6, additional_info: { nms_info: nms(i) } } },
              })),
            },
          },
        ],
      },
    ],
  } as unknown as Msg;
}

test('HEF reader: a defused NMS stream finds its fused layer by a map — the cost of an edge layer does not grow with the fused layers', (t) => {
  const features = { netFlow: false, multiNetwork: false, multiContext: false, scaleByFeature: false, periphInHailort: true };
  // edge layers are bounded (LIMITS.hefStreamsPerGroup = 1,024) but fused layers are not: 1,024 edges
  // scanning F fused layers each grew with 1,024·F
  const fused = 50_000;
  const cost = (edges: number) => {
    const hef = defusedHef(edges, fused);
    const problems: HefProblem[] = [];
    networkGroupsOf(hef, -1, features, problems);
    assert.equal(problems.filter((p) => /Could not find the fused layer net\/missing/.test(p.message)).length, edges);
    return Math.min(
      cpuPerRun(() => void networkGroupsOf(hef, -1, features, []), 1),
      cpuPerRun(() => void networkGroupsOf(hef, -1, features, []), 1),
    );
  };
  const one = cost(8);
  const many = cost(1024);
  t.diagnostic(`networkGroupsOf, ${fused} fused layers: 8 edges ${one.toFixed(2)} ms, 1,024 edges ${many.toFixed(2)} ms CPU`);
  // a map: the fused layers are indexed once (most of the time), 1,016 more edges cost little; a scan per edge: 128×
  assert.ok(many / one < 8, `1,024 edge layers took ${(many / one).toFixed(1)}× the time of 8 (${one.toFixed(2)} → ${many.toFixed(2)} ms)`);
  // a defused stream whose fused layer exists still reads it (the first of its name)
  const hef = defusedHef(1, 3, () => 'net/fused2');
  const problems: HefProblem[] = [];
  const [g] = networkGroupsOf(hef, -1, features, problems);
  assert.deepEqual(
    problems.filter((p) => /Could not find the fused layer/.test(p.message)),
    [],
  );
  assert.equal(g.outputs.length, 1);
});

// ---- .alls against a model ----------------------------------------------------------------------------

test('.alls: unknown layer names against a large model — "did you mean" searches are bounded, the warnings stay', (t) => {
  const modelOf = (n: number): ModelLayerIndex => ({
    source: 'm.har',
    networkName: 'net',
    layers: new Map(
      Array.from({ length: n }, (_, i) => [
        `conv${i}`,
        { name: `conv${i}`, fullName: `net/conv${i}`, type: 'conv', originalNames: [], inputShapes: [], outputShapes: [] },
      ]),
    ),
  });
  const scriptOf = (n: number) => Array.from({ length: n }, (_, i) => `quantization_param(cnv${i}, precision_mode=a8_w8)\n`).join('');
  // each unknown name searched every layer of the model: n names × n layers
  assertLinear(t, 'checkDocument (n unknown layers, n-layer model)', 400, (n) => {
    const doc = analyze(scriptOf(n));
    const model = modelOf(n);
    return { run: () => void checkDocument(doc, { model }), names: [...model.layers.keys()] };
  });
  const n = limit('allsNameSearches') + 50;
  const unknown = checkDocument(analyze(scriptOf(n)), { model: modelOf(n) }).filter((d) => d.code === 'alls/unknown-layer');
  assert.equal(unknown.length, n);
  assert.match(unknown[0].message, /Did you mean `conv0`\?/);
  assert.match(unknown[limit('allsNameSearches') - 1].message, /Did you mean/);
  assert.doesNotMatch(unknown[n - 1].message, /Did you mean/);
});

test('.alls: n statements using a context defined only after n other definitions of its name — linear', (t) => {
  // `c.place(…)` n times, then `c = defuse(…)` n times, then `c = context([…])`: each use looked for a
  // later `context(...)` among every definition of `c` (a scan per statement: n uses × n definitions)
  const scriptOf = (n: number) =>
    `${'c.place(0, [conv1])\n'.repeat(n)}${Array.from({ length: n }, (_, i) => `c = defuse(conv${i}, 2)\n`).join('')}c = context([conv1])\n`;
  assertLinear(t, 'checkDocument (n uses before n definitions)', 4000, (n) => {
    const doc = analyze(scriptOf(n));
    return { run: () => void checkDocument(doc, {}), names: Array.from({ length: 2 * n }, (_, i) => `conv${i}`) };
  });
  const n = 50;
  const used = checkDocument(analyze(scriptOf(n)), {}).filter((d) => d.code === 'alls/undefined-context');
  assert.equal(used.length, n);
  // the first `c = context(...)` is on line 2n + 1, after the n uses and the n `defuse`s
  for (const d of used) assert.match(d.message, new RegExp(`^\`c\` is used before \`c = context\\(\\[\\.\\.\\.\\]\\)\` \\(line ${2 * n + 1}\\)`));
});

// Where the DFC's parser first refuses: the real driver (driver/hailo_bisect.py) in the fake docker,
// one container for every parse, against the fake DFC's parser (test/fakes/python/hailo_sdk_client/
// _parser.py), which walks the ancestors of end_node_names as the real parser does and refuses chosen
// nodes the way the Qwen3-VL logbook's parser did: `IndexError: list index out of range` raised in
// get_concat_info, no node named, no recommendation. Expected nodes come from the models' own graphs
// (the node the scenario refuses, or the data node that reads the refused shape plumbing), never
// from the search's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bisectParser, type BisectOutcome } from '../../../server/src/processes/bisect/bisectRun';
import { runBisect } from '../../../server/src/cli/bisect';
import { BisectSearch, bisectGraph, frontier, parseBudget } from '../../../server/src/core/onnx/bisect';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { renderGraphView } from '../../../server/src/core/onnx/graphView';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { DRIVER_DIR, FAKE_DOCKER, NEEDS_PYTHON, fakeDocker, scenario, type FakeDocker } from '../../fakes/fakeDocker';
import { repoRoot, sharedPath } from '../../helpers/shared';
import { ropeModel } from '../../helpers/transformerOnnx';

const TOWER = join(repoRoot, 'examples', 'model', 'tower_packed.onnx');
const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');
const launch = trustedLauncher(commandLineTrust('bisect tests'));
const settings = { dockerPath: FAKE_DOCKER, gpus: 'none' as const, extraRunArgs: [] };

async function inFolder(name: string, model: string | Uint8Array, run: (file: string, fd: FakeDocker, dir: string) => Promise<void>, file = 'model.onnx') {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-bisect-'));
  const fd = fakeDocker({ scenario: scenario(name) });
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    const target = join(dir, typeof model === 'string' ? basename(model) : file);
    if (typeof model === 'string') copyFileSync(model, target);
    else writeFileSync(target, model);
    await run(target, fd, dir);
  } finally {
    fd.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

const dockerRuns = (fd: FakeDocker) => fd.argv().filter((a) => a[0] === 'run');
const translations = (fd: FakeDocker) => fd.calls().filter((c) => c.method === 'translate_onnx_model');

/** The node(s) reading a tensor the model produces at `producer` — from the graph, not from the search. */
function consumersOf(model: string, producer: string): string[] {
  const g = readOnnxFile(model).graph;
  const outs = g.nodes.find((n) => n.name === producer)!.outputs;
  return g.nodes.filter((n) => n.inputs.some((i) => outs.includes(i))).map((n) => n.name);
}

test('bisect search: every refusing position among N nodes is found within 2·⌈log2 N⌉+4 parses', () => {
  for (const n of [1, 2, 3, 7, 64, 100, 1250]) {
    const g = { order: Array.from({ length: n }, (_, i) => ({ index: i }) as never), start: [], nameable: Array(n + 1).fill(true) as boolean[] };
    for (let r = 1; r <= n; r++) {
      const s = new BisectSearch(g);
      let parses = 0;
      for (let k = s.next(); k !== null; k = s.next()) {
        parses++;
        s.record(k, k >= r ? 'refused' : 'parsed');
      }
      const found = s.refusing()!;
      assert.equal(found.length, 1, `n=${n} r=${r}`);
      assert.equal(found[0], g.order[r - 1], `n=${n} r=${r}`);
      assert.ok(parses <= parseBudget(n), `n=${n} r=${r}: ${parses} parses > ${parseBudget(n)}`);
    }
  }
});

test('bisect cuts: the frontier of every prefix of the tower names nodes, and walking its ancestors gives back exactly the prefix', () => {
  const a = analyzeOnnx(readOnnxFile(TOWER));
  const g = bisectGraph(a);
  const data = new Set(g.order);
  for (let k = 1; k <= g.order.length; k++) {
    const ends = frontier(a, g.order, k);
    const seen = new Set<(typeof g.order)[number]>();
    const stack = [...ends];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n) || !data.has(n)) continue;
      seen.add(n);
      for (const i of n.inputs) {
        const p = a.shapes.producer.get(i);
        if (p) stack.push(p);
      }
    }
    assert.deepEqual(
      [...seen].map((n) => n.index).sort((x, y) => x - y),
      g.order
        .slice(0, k)
        .map((n) => n.index)
        .sort((x, y) => x - y),
      `prefix ${k}`,
    );
  }
  assert.ok(!g.order.some((n) => n.name === '/visual/blocks.0/attn/Concat'), 'constant shape plumbing is not a cut of its own');
});

test(
  'bisect: the tower — the node whose inclusion brings in the refused plumbing Concat, its shapes, the DFC message, few parses, one container, removed',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder('bisect-tower', TOWER, async (model, fd, dir) => {
      const progress: number[] = [];
      const out = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR, onProgress: (p) => p.outcome && progress.push(p.prefix) });
      assert.equal(out.status, 'ok', out.message);
      const f = out.firstRefusal!;
      // The refused Concat is shape plumbing (Shape→Gather→Unsqueeze→Concat); the data node that reads it:
      assert.deepEqual(consumersOf(model, '/visual/blocks.0/attn/Concat'), ['/visual/blocks.0/attn/Reshape']);
      assert.equal(f.node, '/visual/blocks.0/attn/Reshape');
      assert.equal(f.opType, 'Reshape');
      assert.ok(f.brings.some((b) => b.node === '/visual/blocks.0/attn/Concat' && b.opType === 'Concat'));
      assert.equal(f.message, 'IndexError: list index out of range');
      assert.equal(f.frames.at(-1), 'get_concat_info');
      assert.deepEqual(f.recommendedEndNodes, [], 'the parser recommended nothing');
      assert.deepEqual(
        f.facts.inputs.map((i) => [i.shape, i.rank]),
        [
          ['[17,96]', 2],
          ['[4]', 1],
        ],
      );
      assert.ok(
        f.known.some((k) => k.code === 'onnx/foldable-plumbing'),
        "what is known about the plumbing it brings (the DFC's onnxsim retry folds it)",
      );
      assert.equal(f.dfcCode, 'dfc/concat-format', "the DFC log reader's reading of the message");
      assert.equal(out.dfcVersion, '5.3.0');
      // where the editor selects it: the node's name in the graph view's text, as the language server renders it
      const view = renderGraphView(analyzeOnnx(readOnnxFile(model)), basename(model)).text.split('\n');
      assert.equal(view[f.place!.line - 1].slice(f.place!.column - 1, f.place!.endColumn - 1), '/visual/blocks.0/attn/Reshape');
      // confirmed: the prefix before it parsed, with it the parser refused
      const parsed = out.runs.filter((r) => r.outcome === 'parsed').map((r) => r.prefix);
      const refused = out.runs.filter((r) => r.outcome === 'refused').map((r) => r.prefix);
      assert.equal(Math.max(...parsed), Math.min(...refused) - 1);
      assert.deepEqual(f.lastParsed, out.runs.find((r) => r.prefix === Math.max(...parsed))!.cut);
      assert.ok(out.runs.length <= parseBudget(out.nodes), `${out.runs.length} parses for ${out.nodes} nodes`);
      assert.equal(out.runs[0].cut.end, null, 'the whole model first, as a user parses it');
      assert.deepEqual(
        progress,
        out.runs.map((r) => r.prefix),
      );
      // the DFC was asked what the search says, with node names as end_node_names
      const calls = translations(fd);
      assert.equal(calls.length, out.runs.length);
      assert.deepEqual(calls[1].kwargs.end_node_names, out.runs[1].cut.end);
      assert.equal(dockerRuns(fd).length, 1, 'one container for every parse');
      assert.ok(dockerRuns(fd)[0].includes('--interactive'));
      assert.deepEqual(fd.containers(), [], 'the container was removed');
      assert.deepEqual(out.container?.removed, true);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.startsWith('.')),
        [],
        'no staging folder or partial file left',
      );
    });
  },
);

const realModel = sharedPath('corpus', 'onnx-thirdparty', 'yolo_fastestv2.onnx');
test(
  'bisect: a real model (Yolo-FastestV2, 313 nodes) refused at a channel-shuffle Concat; folded end nodes count as parsed',
  { skip: NEEDS_PYTHON ?? (realModel ? false : 'no ../shared') },
  async () => {
    await inFolder('bisect-real', realModel!, async (model, fd) => {
      const out = await bisectParser({ model, hwArch: 'hailo8' }, settings, { launch, driverDir: DRIVER_DIR });
      assert.equal(out.status, 'ok', out.message);
      assert.equal(out.firstRefusal?.node, 'Concat_80');
      assert.equal(out.firstRefusal?.opType, 'Concat');
      assert.equal(out.firstRefusal?.message, 'IndexError: list index out of range');
      assert.ok(out.runs.length <= parseBudget(out.nodes), `${out.runs.length} parses for ${out.nodes} nodes`);
      // an end node folded away (InvalidHNError after the translation went through) counts as parsed
      const absorbed = out.runs.filter((r) => r.absorbed);
      assert.ok(absorbed.length > 0, 'the scenario folds a Reshape/Transpose end node');
      assert.ok(absorbed.every((r) => r.outcome === 'parsed' && /missing in the HN/.test(r.absorbed!)));
      assert.equal(fd.calls().find((c) => c.method === 'ClientRunner')?.kwargs.hw_arch, 'hailo8');
      assert.deepEqual(fd.containers(), []);
    });
  },
);

test('bisect: a model the parser takes whole — one parse, no refusal; the CLI exits 0 with firstRefusal null', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-parses', TINY, async (model, fd) => {
    const lines: string[] = [];
    const code = await runBisect(
      ['--json', '--docker', FAKE_DOCKER, model],
      { out: (t) => void lines.push(t), err: () => undefined },
      { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
    );
    assert.equal(code, 0);
    const doc = JSON.parse(lines.join('')) as { firstRefusal: unknown; runs: { outcome: string; cut: { end: unknown } }[] };
    assert.equal(doc.firstRefusal, null);
    assert.equal(doc.runs.length, 1);
    assert.equal(doc.runs[0].outcome, 'parsed');
    assert.equal(doc.runs[0].cut.end, null);
    assert.equal(translations(fd).length, 1);
    assert.deepEqual(fd.containers(), []);
  });
});

test(
  'hailo-tools bisect --json: firstRefusal {node, opType, message} and every run with its cut, outcome and time; exit 1',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder('bisect-tower', TOWER, async (model) => {
      const lines: string[] = [];
      const err: string[] = [];
      const code = await runBisect(
        ['--json', '--docker', FAKE_DOCKER, model],
        { out: (t) => void lines.push(t), err: (t) => void err.push(t) },
        { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
      );
      assert.equal(code, 1, err.join(''));
      const doc = JSON.parse(lines.join('')) as {
        firstRefusal: { node: string; opType: string; message: string };
        runs: { prefix: number; cut: { start: string[]; end: string[] | null }; outcome: string; seconds: number; cached: boolean }[];
        nodes: number;
        budget: number;
      };
      assert.equal(doc.firstRefusal.node, '/visual/blocks.0/attn/Reshape');
      assert.equal(doc.firstRefusal.opType, 'Reshape');
      assert.equal(doc.firstRefusal.message, 'IndexError: list index out of range');
      assert.ok(doc.runs.length >= 2 && doc.runs.length <= doc.budget);
      for (const r of doc.runs) {
        assert.ok(r.outcome === 'parsed' || r.outcome === 'refused');
        assert.equal(typeof r.seconds, 'number');
        assert.ok(r.cut.end === null || (Array.isArray(r.cut.end) && r.cut.end.length > 0));
      }
      assert.match(err.join(''), /hailo-tools bisect: parse 1\/\d+: \d+ of \d+ nodes refused/, 'progress in the terminal');
      // the text form
      const text: string[] = [];
      assert.equal(
        await runBisect(
          ['--docker', FAKE_DOCKER, model],
          { out: (t) => void text.push(t), err: () => undefined },
          { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
        ),
        1,
      );
      assert.match(
        text.join(''),
        /first refusal: \/visual\/blocks\.0\/attn\/Reshape \(Reshape\)\n {2}input {2}\/visual\/blocks\.0\/attn\/qkv\/Gemm_output_0: \[17,96\] \(rank 2\)/,
      );
      assert.match(text.join(''), /DFC: IndexError: list index out of range {2}\[in get_concat_info\]/);
    });
  },
);

test('bisect: a second run resumes from the sidecar — no container, no parse, the same answer', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-tower', TOWER, async (model, fd) => {
    const first = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(first.status, 'ok', first.message);
    assert.ok(existsSync(`${model}.bisect.json`));
    const parsesBefore = translations(fd).length;
    const runsBefore = dockerRuns(fd).length;
    const second = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(second.status, 'ok', second.message);
    assert.equal(translations(fd).length, parsesBefore, 'nothing parsed again');
    assert.equal(dockerRuns(fd).length, runsBefore, 'no container started');
    assert.ok(second.runs.every((r) => r.cached));
    assert.equal(second.firstRefusal?.node, first.firstRefusal?.node);
    assert.equal(second.firstRefusal?.message, first.firstRefusal?.message);
    // a changed model starts afresh
    writeFileSync(model, readFileSync(TINY));
    const other = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.ok(other.runs.every((r) => !r.cached));
  });
});

test('bisect: cancelled mid-parse — the container is gone, finished parses are kept, the next run resumes them', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-slow', TOWER, async (model, fd, dir) => {
    const controller = new AbortController();
    let done = 0;
    const out: BisectOutcome = await bisectParser({ model }, settings, {
      launch,
      driverDir: DRIVER_DIR,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.outcome) done++;
        // cancel while the second parse runs
        if (!p.outcome && p.run === 2) setTimeout(() => controller.abort(), 300);
      },
    });
    assert.equal(out.status, 'cancelled');
    assert.equal(done, 1);
    assert.deepEqual(fd.containers(), [], 'no container left');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.startsWith('.')),
      [],
    );
    const sidecar = JSON.parse(readFileSync(`${model}.bisect.json`, 'utf8')) as { parses: Record<string, unknown> };
    assert.equal(Object.keys(sidecar.parses).length, 1, 'the finished parse is kept');
    const again = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(again.status, 'ok');
    assert.equal(again.runs[0].cached, true);
    assert.ok(again.runs.slice(1).every((r) => !r.cached));
    assert.equal(again.firstRefusal?.node, '/visual/blocks.0/attn/Reshape');
  });
});

test('bisect: a RoPE rotate_half refused on DFC 5.4.0 — the Concat, and the rewrite the public probe used', { skip: NEEDS_PYTHON }, async () => {
  await inFolder(
    'bisect-rope',
    ropeModel(),
    async (model) => {
      const out = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
      assert.equal(out.status, 'ok', out.message);
      const f = out.firstRefusal!;
      assert.equal(f.node, 'rope/Concat');
      assert.equal(f.message, 'IndexError: list assignment index out of range');
      assert.equal(f.frames.at(-1), '_handle_neg_feature_shuffle');
      const known = f.known.find((k) => k.code === 'onnx/rotate-half')!;
      assert.equal(known.severity, 'warning', 'seen on the release in use (5.4.0)');
      assert.match(known.fix, /swap the halves .* constant sign vector/);
      assert.match(known.evidence, /PetalWild/);
    },
    'rope.onnx',
  );
});

test('bisect: refused input in one sentence before docker — a tensor name as --start-node-names, an unreadable model', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-tower', TOWER, async (model, fd) => {
    const out = await bisectParser({ model, startNodeNames: ['/visual/patch_embed/Div_output_0'] }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(out.status, 'refused-input');
    assert.equal(
      out.message,
      "'/visual/patch_embed/Div_output_0' is a tensor name; --start-node-names takes node names: the node producing it is '/visual/patch_embed/Div'",
    );
    writeFileSync(model, 'not onnx');
    const bad = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(bad.status, 'refused-input');
    assert.deepEqual(fd.argv(), [], 'docker was never called');
  });
});

test('bisect: --start-node-names — every parse starts there, the search covers only what follows', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-tower', TOWER, async (model, fd) => {
    const start = '/visual/blocks.0/norm1/LayerNormalization';
    const out = await bisectParser({ model, startNodeNames: [start] }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(out.status, 'ok', out.message);
    assert.equal(out.firstRefusal?.node, '/visual/blocks.0/attn/Reshape');
    const whole = bisectGraph(analyzeOnnx(readOnnxFile(model))).order.length;
    assert.ok(out.nodes < whole, `${out.nodes} of ${whole} nodes searched`);
    assert.ok(translations(fd).every((c) => JSON.stringify(c.kwargs.start_node_names) === JSON.stringify([start])));
  });
});

test('bisect: a sidecar that cannot be written — the search still answers, says it cannot resume, leaves nothing', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-tower', TOWER, async (model, fd, dir) => {
    mkdirSync(`${model}.bisect.json`); // a folder where the sidecar would go
    const out = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
    assert.equal(out.status, 'ok', out.message);
    assert.equal(out.firstRefusal?.node, '/visual/blocks.0/attn/Reshape');
    assert.equal(out.notes.length, 1);
    assert.match(out.notes[0], /could not be kept beside the model .* a second run starts afresh/);
    assert.deepEqual(fd.containers(), []);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.startsWith('.')),
      [],
      'no partial sidecar or staging folder left',
    );
  });
});

const unnamedModel = sharedPath('corpus', 'onnx-thirdparty', 'ultraface_RFB-320.onnx');
test(
  'bisect: a real export whose nodes have no names — no prefix can be cut; the answer says so instead of guessing',
  { skip: NEEDS_PYTHON ?? (unnamedModel ? false : 'no ../shared') },
  async () => {
    await inFolder('bisect-unnamed', unnamedModel!, async (model, fd) => {
      assert.ok(
        readOnnxFile(model).graph.nodes.every((n) => !n.name),
        'the export names no node',
      );
      const out = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
      assert.equal(out.status, 'ok', out.message);
      assert.equal(out.runs.length, 1, 'only the whole model can be parsed');
      assert.equal(out.firstRefusal?.among.length, out.nodes);
      assert.match(out.notes.join(' '), /have no name, and end_node_names takes node names/);
      assert.deepEqual(fd.containers(), []);
    });
  },
);

test(
  'bisect: a hostile sidecar (wrong types, a prototype key) is read field by field: no crash, the answer still from the DFC',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder('bisect-tower', TOWER, async (model) => {
      const first = await bisectParser({ model }, settings, { launch, driverDir: DRIVER_DIR });
      const side = JSON.parse(readFileSync(`${model}.bisect.json`, 'utf8')) as { parses: Record<string, Record<string, unknown>> };
      for (const p of Object.values(side.parses)) Object.assign(p, { seconds: 'slow', frames: 7, message: { html: '<b>' }, console: 12 });
      side.parses.__proto__ = { outcome: 'refused' };
      writeFileSync(`${model}.bisect.json`, JSON.stringify(side));
      const lines: string[] = [];
      const code = await runBisect(
        ['--docker', FAKE_DOCKER, model],
        { out: (t) => void lines.push(t), err: () => undefined },
        { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
      );
      assert.equal(code, 1);
      assert.match(lines.join(''), new RegExp(`first refusal: ${first.firstRefusal!.node.replace(/[/.]/g, '\\$&')} \\(Reshape\\)`));
      assert.match(lines.join(''), /DFC: IndexError\n/, 'a message that is not a string is dropped, not printed as an object');
    });
  },
);

test('hailo-tools bisect: docker down is one sentence and exit 3; nothing is written beside the model', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('bisect-tower', TOWER, async (model, fd, dir) => {
    fd.configure({ daemon: 'down', scenario: scenario('bisect-tower') });
    const err: string[] = [];
    const code = await runBisect(
      ['--docker', FAKE_DOCKER, model],
      { out: () => undefined, err: (t) => void err.push(t) },
      { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
    );
    assert.equal(code, 3);
    assert.match(err.join(''), /^hailo-tools bisect: .*docker daemon.*\n$/i);
    assert.deepEqual(readdirSync(dir), ['tower_packed.onnx']);
  });
});

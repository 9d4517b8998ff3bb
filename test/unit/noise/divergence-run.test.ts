// First divergent layer, run end to end: `hailo-tools diverge` feeds the first calibration frame to
// the float ONNX (onnxruntime-node in its worker, the script's normalization first) and to the real
// driver (driver/hailo_interlayer.py) in the fake docker, whose fake DFC replays per-layer outputs
// through get_keras_model(ctx)._model as Hailo's diagnostic tool reads them. The replays are the
// float model's own tensors (computed here with onnxruntime) in NHWC, ×1.5 from conv3 on: the
// answer must be conv3. The same model with its weights in an external data file (as onnx.save
// writes it) gives the same answer: the copy with extra outputs is loaded with that file's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDiverge } from '../../../server/src/cli/diverge';
import { layerTensors, withExtraOutputs } from '../../../server/src/core/noise/divergence';
import { readHar } from '../../../server/src/core/har/harReader';
import { dataflowOrder, harViewText, readHarView } from '../../../server/src/core/har/harView';
import { readDivergenceResults } from '../../../server/src/core/har/divergenceResults';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { readNpyFile, writeNpyFloat32 } from '../../../server/src/core/calib/npyRead';
import { withExternalData } from '../../helpers/onnxBuilder';
import { DRIVER_DIR, FAKE_DOCKER, NEEDS_PYTHON, fakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');

/** A folder with the example model, its script, calibration set and quantized HAR, and the fake DFC's replays. */
async function prepare(dir: string, fd: ReturnType<typeof fakeDocker>): Promise<void> {
  for (const f of ['tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy', 'tinycnn_quantized.har']) copyFileSync(join(MODEL, f), join(dir, f));
  // the float tensors of the first frame, computed here
  const har = await readHar(join(dir, 'tinycnn_quantized.har'));
  const layers = dataflowOrder(har.hn.layers);
  const mapping = layerTensors(layers, analyzeOnnx(readOnnxFile(join(dir, 'tinycnn.onnx'))));
  const ort = createRequire(join(repoRoot, 'package.json'))('onnxruntime-node') as typeof import('onnxruntime-node');
  const mapped = mapping.filter((m) => m.tensor);
  const s = await ort.InferenceSession.create(
    withExtraOutputs(
      readFileSync(join(dir, 'tinycnn.onnx')),
      mapped.map((m) => m.tensor!),
    ),
  );
  const calib = readNpyFile(join(dir, 'tinycnn_calib.npy'));
  const nchw = new Float32Array(3 * 64 * 64);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) for (let c = 0; c < 3; c++) nchw[c * 4096 + y * 64 + x] = calib.data[(y * 64 + x) * 3 + c] / 255;
  const out = await s.run({ input: new ort.Tensor('float32', nchw, [1, 3, 64, 64]) });
  const broken = new Set<string>();
  const mark = (n: string) => {
    if (broken.has(n)) return;
    broken.add(n);
    for (const l of layers) if (l.input.some((i) => i.endsWith(`/${n}`))) mark(l.name);
  };
  mark('conv3');
  const replay: Record<string, string> = {};
  for (const m of mapped) {
    const t = out[m.tensor!];
    const k = broken.has(m.layer) ? 1.5 : 1;
    const d = t.data as Float32Array;
    if (t.dims.length === 4) {
      const [n, c, h, w] = t.dims;
      const v = new Float32Array(d.length);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let q = 0; q < c; q++) v[(y * w + x) * c + q] = d[(q * h + y) * w + x] * k;
      writeNpyFloat32(join(dir, `${m.layer}.npy`), [n, h, w, c], v);
    } else
      writeNpyFloat32(
        join(dir, `${m.layer}.npy`),
        [1, 1, 1, d.length],
        Float32Array.from(d, (v) => v * k),
      );
    replay[m.layer] = `${m.layer}.npy`;
  }
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ interlayer: { SDK_QUANTIZED: replay } }));
  fd.configure({ scenario: join(dir, 'scenario.json') });
}

async function diverge(dir: string, onnx: string): Promise<{ code: number; text: string; err: string }> {
  const printed: string[] = [];
  const err: string[] = [];
  const code = await runDiverge(
    [
      '--onnx',
      join(dir, onnx),
      '--har',
      join(dir, 'tinycnn_quantized.har'),
      '--inputs',
      join(dir, 'tinycnn_calib.npy'),
      '--alls',
      join(dir, 'tinycnn.alls'),
      '--docker',
      FAKE_DOCKER,
    ],
    { out: (t) => void printed.push(t), err: (t) => void err.push(t) },
    { driverDir: DRIVER_DIR, ortWorker: join(repoRoot, 'dist', 'ortWorker.js') },
  );
  return { code, text: printed.join(''), err: err.join('') };
}

async function inFolder(run: (dir: string, fd: ReturnType<typeof fakeDocker>) => Promise<void>): Promise<void> {
  if (!existsSync(join(repoRoot, 'dist', 'ortWorker.js'))) throw new Error('run `npm run build` first (dist/ortWorker.js)');
  const dir = mkdtempSync(join(tmpdir(), 'hailo-diverge-test-'));
  const fd = fakeDocker();
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    await prepare(dir, fd);
    await run(dir, fd);
  } finally {
    fd.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('hailo-tools diverge: the float ONNX against the emulator layer by layer names the broken layer', { skip: NEEDS_PYTHON }, async () => {
  await inFolder(async (dir, fd) => {
    const { code, text, err } = await diverge(dir, 'tinycnn.onnx');
    assert.equal(code, 1, err);
    assert.match(text, /First divergent layer: conv3 \(relative error 50\.0 %, its inputs 0\.0 %\)\./);
    assert.match(text, /input_layer1 {2}\(input_layer layers are not compared\)/);
    const compile = fd.calls().find((c) => c.method === 'keras.compile')!;
    assert.ok((compile.kwargs.save_interlayer as string[]).includes('tinycnn/conv3'));
    assert.deepEqual((fd.calls().find((c) => c.method === 'keras.call')!.args[0] as { ndarray: number[] }).ndarray, [1, 64, 64, 3], 'the raw NHWC frame');
    assert.deepEqual(fd.containers(), []);
  });
});

test(
  'hailo-tools diverge: an ONNX whose weights are in an external data file gives the same answer; its data missing is one sentence',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder(async (dir) => {
      const single = await diverge(dir, 'tinycnn.onnx');
      const ext = withExternalData(readFileSync(join(dir, 'tinycnn.onnx')), 'tinycnn_ext.onnx.data');
      writeFileSync(join(dir, 'tinycnn_ext.onnx'), ext.model);
      writeFileSync(join(dir, 'tinycnn_ext.onnx.data'), ext.data);
      assert.ok(ext.data.length > 10_000 && ext.model.length < ext.data.length, 'the weights are in the data file');
      const r = await diverge(dir, 'tinycnn_ext.onnx');
      assert.equal(r.code, 1, r.err);
      assert.equal(r.text, single.text, 'the same figures for every layer');
      assert.match(r.text, /First divergent layer: conv3 /);
      // nothing written beside the model (the copy lives in a temp folder)
      assert.deepEqual(
        readdirSync(dir)
          .filter((f) => f.endsWith('.onnx'))
          .sort(),
        ['tinycnn.onnx', 'tinycnn_ext.onnx'],
      );
      rmSync(join(dir, 'tinycnn_ext.onnx.data'));
      const missing = await diverge(dir, 'tinycnn_ext.onnx');
      assert.equal(missing.code, 2);
      assert.equal(
        missing.err,
        "hailo-tools diverge: tinycnn_ext.onnx: external data file 'tinycnn_ext.onnx.data' is missing, so the float model cannot run.\n",
      );
    });
  },
);

test(
  'hailo-tools diverge --save: the results beside the HAR (one rename) are what the HAR view shows, with the inputs and their distribution',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder(async (dir) => {
      const printed: string[] = [];
      const code = await runDiverge(
        [
          '--json',
          '--save',
          '--onnx',
          join(dir, 'tinycnn.onnx'),
          '--har',
          join(dir, 'tinycnn_quantized.har'),
          '--inputs',
          join(dir, 'tinycnn_calib.npy'),
          '--alls',
          join(dir, 'tinycnn.alls'),
          '--docker',
          FAKE_DOCKER,
        ],
        { out: (t) => void printed.push(t), err: () => undefined },
        { driverDir: DRIVER_DIR, ortWorker: join(repoRoot, 'dist', 'ortWorker.js') },
      );
      assert.equal(code, 1);
      const out = JSON.parse(printed.join(''));
      assert.equal(out.status, 'ok', printed.join(''));
      assert.equal(out.saved, join(dir, 'tinycnn_quantized.diverge.json'));
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.includes('partial')),
        [],
        'no half-written file left',
      );
      const saved = readDivergenceResults(out.saved)!;
      assert.equal(saved.first?.layer, 'conv3');
      assert.equal(saved.inputs.count, 1);
      assert.equal(saved.inputs.of, readNpyFile(join(dir, 'tinycnn_calib.npy')).shape[0], 'the set size, from the file');
      assert.match(saved.inputs.distribution ?? '', /0.?255|integers/i);
      assert.deepEqual(
        saved.layers.map((l) => l.layer),
        out.layers.map((l: { layer: string }) => l.layer),
      );
      const view = await readHarView(join(dir, 'tinycnn_quantized.har'));
      assert.equal(view.divergence?.first?.layer, 'conv3');
      assert.match(
        harViewText(view),
        /first divergent layer \(.*tinycnn_quantized\.diverge\.json\): tinycnn\.onnx against the emulator, measured on the first entry of tinycnn_calib\.npy/,
      );
      // a file that is not ours is one note, never a crash
      writeFileSync(out.saved, '{"format":"something-else","layers":[]}');
      const foreign = await readHarView(join(dir, 'tinycnn_quantized.har'));
      assert.equal(foreign.divergence, undefined);
      assert.ok(foreign.notes.some((n) => /is not a hailo-tools first-divergent-layer result/.test(n)));
    });
  },
);

// `hailo-tools recipe` on detectors whose heads are built as their exporters write them
// (test/helpers/detectorOnnx.ts), compared value by value with the model zoo's own files for the
// same architecture: its NMS configs and scripts (../shared/corpus/nms-zoo, ../shared/corpus/alls)
// and its parser end nodes (quoted below from hailo_model_zoo's network YAMLs). Non-detectors get one
// sentence and no files; nothing existing is replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { analyze } from '../../../server/src/core/alls/analysis';
import { nmsCalls } from '../../../server/src/core/nms/script';
import { checkRecipe } from '../../../server/src/core/recipe/recipe';
import { parsePythonNames, ultralyticsFromYaml } from '../../../server/src/core/nms/ultralytics';
import { COCO_NAMES } from '../../helpers/detectorOnnx';
import { CUSTOM_NAMES, recipeFixtureFiles } from '../../helpers/recipeFixtures';
import { repoRoot, sharedPath, skipUnless } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const dir = mkdtempSync(join(tmpdir(), 'recipe-'));
const built = (async () => {
  for (const f of recipeFixtureFiles()) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), await f.bytes());
  }
})();
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

interface RecipeJson {
  family: string;
  metaArch: string | null;
  startNodes: string[];
  endNodes: string[];
  classes: number;
  regressionLength: number | null;
  strides: number[];
  imageDims: number[];
  sources: Record<string, string>;
  files: string[];
  labels?: string[];
  written?: string[];
}

async function recipe(...args: string[]) {
  await built;
  const io = captureIO();
  const code = await main(['recipe', ...args], io);
  return { code, out: io.outText, err: io.errText, json: () => JSON.parse(io.outText) as RecipeJson };
}

/** A fresh output folder; the recipe's files by name. */
async function written(model: string, ...extra: string[]) {
  const out = mkdtempSync(join(dir, 'out-'));
  const r = await recipe('--json', '--write', out, ...extra, join(dir, model));
  assert.equal(r.code, 0, r.err);
  const read = (name: string) => readFileSync(join(out, name), 'utf8');
  return { r: r.json(), out, read, names: readdirSync(out).sort() };
}

const zoo = (name: string) => sharedPath('corpus', 'nms-zoo', name);
const zooText = (name: string) => readFileSync(zoo(name)!, 'utf8');
const zooAlls = (name: string) => sharedPath('corpus', 'alls', 'alls', 'generic', name);
const hasZoo = skipUnless(zoo('yolov8n_nms_config.json') && zooAlls('yolov11n.alls'), '../shared/corpus/nms-zoo and alls');
const stripScope = (v: unknown): unknown => (typeof v === 'string' ? v.slice(v.lastIndexOf('/') + 1) : v);
const lines = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l));

/** The zoo's config and ours, key by key; layer and decoder names compared without the network scope (the zoo writes both forms). */
function sameConfig(ours: Record<string, unknown>, theirs: Record<string, unknown>) {
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
  for (const k of Object.keys(theirs)) {
    if (k !== 'bbox_decoders') assert.deepEqual(ours[k], theirs[k], k);
  }
  const norm = (ds: unknown) => (ds as Record<string, unknown>[]).map((d) => Object.fromEntries(Object.entries(d).map(([k, v]) => [k, stripScope(v)])));
  assert.deepEqual(norm(ours.bbox_decoders), norm(theirs.bbox_decoders));
}

test('YOLOv8n with its HAR: the zoo yolov8n NMS config value by value, its script lines, Ultralytics labels', { skip: hasZoo }, async () => {
  const { r, read, names } = await written('yolov8n-har/yolov8n.onnx');
  assert.deepEqual(names, ['yolov8n.alls', 'yolov8n.recipe.json', 'yolov8n_labels.json', 'yolov8n_nms_config.json']);
  const ours = JSON.parse(read('yolov8n_nms_config.json')) as Record<string, unknown>;
  const theirs = JSON.parse(zooText('yolov8n_nms_config.json')) as Record<string, unknown>;
  assert.deepEqual(ours, theirs, 'the zoo writes the scoped form for yolov8n: identical');
  assert.deepEqual([r.family, r.metaArch, r.classes, r.regressionLength, r.strides, r.imageDims], ['yolov8', 'yolov8', 80, 16, [8, 16, 32], [640, 640]]);
  const zooScript = zooText('yolov8n.alls');
  const script = read('yolov8n.alls');
  for (const re of [/^normalization1 =/, /^change_output_activation/]) assert.deepEqual(lines(script, re), lines(zooScript, re), String(re));
  const [ourCall] = nmsCalls(analyze(script));
  const [zooCall] = nmsCalls(analyze(zooScript));
  assert.deepEqual([ourCall.metaArch?.value, ourCall.engine?.value], [zooCall.metaArch?.value, zooCall.engine?.value]);
  assert.deepEqual((JSON.parse(read('yolov8n_labels.json')) as { labels: string[] }).labels, ['unlabeled', ...COCO_NAMES]);
  for (const k of ['family', 'endNodes', 'classes', 'regressionLength', 'strides', 'imageDims', 'metaArch', 'labels', 'layerNames'])
    assert.ok(r.sources[k], `source of ${k}`);
});

test('YOLOv5s with its HAR: the zoo yolov5s NMS config (anchors, strides, classes) and script', { skip: hasZoo }, async () => {
  const { r, read } = await written('yolov5s-har/yolov5s.onnx');
  sameConfig(JSON.parse(read('yolov5s_nms_config.json')) as Record<string, unknown>, JSON.parse(zooText('yolov5s_nms_config.json')) as Record<string, unknown>);
  assert.deepEqual([r.family, r.metaArch, r.classes, r.regressionLength], ['yolov5', 'yolov5', 80, null]);
  const zooScript = zooText('yolov5s.alls');
  const script = read('yolov5s.alls');
  for (const re of [/^normalization1 =/, /^change_output_activation/]) assert.deepEqual(lines(script, re), lines(zooScript, re), String(re));
  assert.equal(nmsCalls(analyze(script))[0].metaArch?.value, nmsCalls(analyze(zooScript))[0].metaArch?.value);
});

test('YOLOX-s with its HAR: the zoo config and the zoo parser end nodes', { skip: hasZoo }, async () => {
  const { r, read } = await written('yolox_s_leaky-har/yolox_s_leaky.onnx');
  sameConfig(
    JSON.parse(read('yolox_s_leaky_nms_config.json')) as Record<string, unknown>,
    JSON.parse(zooText('nms_config_yolox_s_leaky.json')) as Record<string, unknown>,
  );
  // hailo_model_zoo @ 0a82dc3e : hailo_model_zoo/cfg/networks/yolox_s_leaky.yaml parser.nodes[1]
  assert.deepEqual(r.endNodes, ['Conv_197', 'Sigmoid_199', 'Sigmoid_200', 'Conv_213', 'Sigmoid_215', 'Sigmoid_216', 'Conv_229', 'Sigmoid_231', 'Sigmoid_232']);
  assert.deepEqual(lines(read('yolox_s_leaky.alls'), /^input_conversion/), lines(zooText('yolox_s_leaky.alls'), /^input_conversion/));
  assert.equal(nmsCalls(analyze(read('yolox_s_leaky.alls')))[0].metaArch?.value, 'yolox');
});

test('YOLO11n and YOLOv10n: the zoo parser end nodes and meta_arch', { skip: hasZoo }, async () => {
  // hailo_model_zoo @ 2ff8ebb8 : cfg/networks/yolov11n.yaml; @ 08cf6ffc : cfg/networks/yolov10n.yaml (parser.nodes[1])
  const v11 = [
    '/model.23/cv2.0/cv2.0.2/Conv',
    '/model.23/cv3.0/cv3.0.2/Conv',
    '/model.23/cv2.1/cv2.1.2/Conv',
    '/model.23/cv3.1/cv3.1.2/Conv',
    '/model.23/cv2.2/cv2.2.2/Conv',
    '/model.23/cv3.2/cv3.2.2/Conv',
  ];
  const v10 = v11.map((n) => n.replace(/cv(\d)/g, 'one2one_cv$1'));
  for (const [model, family, nodes, zooScript] of [
    ['yolo11n/yolo11n.onnx', 'yolo11', v11, 'yolov11n.alls'],
    ['yolov10n/yolov10n.onnx', 'yolov10', v10, 'yolov10n.alls'],
  ] as const) {
    const r = await recipe('--json', join(dir, model));
    assert.equal(r.code, 0, r.err);
    const j = r.json();
    assert.deepEqual([j.family, j.endNodes, j.classes, j.regressionLength, j.strides, j.imageDims], [family, nodes, 80, 16, [8, 16, 32], [640, 640]]);
    assert.equal(j.metaArch, nmsCalls(analyze(readFileSync(zooAlls(zooScript)!, 'utf8')))[0].metaArch?.value);
  }
});

test('YOLO26n (NMS-free, reg_max 1): no nms_postprocess, no NMS config', async () => {
  const { r, read, names } = await written('yolo26n/yolo26n.onnx');
  assert.deepEqual([r.family, r.metaArch, r.regressionLength, r.classes], ['yolo26', null, 1, 80]);
  assert.deepEqual(names, ['yolo26n.alls', 'yolo26n.recipe.json']);
  assert.equal(nmsCalls(analyze(read('yolo26n.alls'))).length, 0);
});

test('a custom 3-class YOLOv8 without a HAR: classes from the head, names from its metadata, the DFC-generated config asked for', async () => {
  const { r, read, names } = await written('custom3/best.onnx');
  assert.deepEqual([r.family, r.classes, r.labels], ['yolov8', 3, CUSTOM_NAMES]);
  assert.deepEqual(names, ['best.alls', 'best.recipe.json', 'best_labels.json']);
  const call = nmsCalls(analyze(read('best.alls')))[0];
  assert.deepEqual([call.configPath, call.metaArch?.value, call.inline.get('classes')?.value], [undefined, 'yolov8', 3]);
  assert.deepEqual((JSON.parse(read('best_labels.json')) as { labels: string[] }).labels, ['unlabeled', ...CUSTOM_NAMES]);
});

test('a format="hailo" export folder: the names and size from the metadata.yaml beside it', async () => {
  const { r } = await written('hailo-export/best.onnx');
  assert.deepEqual(r.labels, CUSTOM_NAMES);
  assert.match(r.sources.labels, /metadata\.yaml/);
});

test('non-detectors: one sentence, exit 1, no files', async () => {
  const models = [
    join(dir, 'classifier/classifier.onnx'),
    join(repoRoot, 'test/fixtures/onnx/vit_b1_op17.onnx'),
    join(repoRoot, 'test/fixtures/onnx/cnn.onnx'),
  ];
  const resnet = sharedPath('corpus', 'onnx-thirdparty', 'light_resnet50.onnx');
  if (resnet) models.push(resnet);
  for (const m of models) {
    const out = mkdtempSync(join(dir, 'none-'));
    const r = await recipe('--write', out, m);
    assert.equal(r.code, 1, m);
    assert.equal(r.out, '');
    assert.match(r.err, /^hailo-tools recipe: \S+\.onnx has no recognised detector head: [^\n]+\.\n$/);
    assert.deepEqual(readdirSync(out), []);
  }
});

test('nothing existing is replaced: a second write, or a link in the way, writes nothing', async () => {
  const { out, read } = await written('custom3/best.onnx');
  writeFileSync(join(out, 'best.alls'), 'mine\n');
  const r = await recipe('--write', out, join(dir, 'custom3/best.onnx'));
  assert.equal(r.code, 2);
  assert.match(r.err, /best\.alls, best_labels\.json, best\.recipe\.json already exist .*nothing written/);
  assert.equal(read('best.alls'), 'mine\n');
  const fresh = mkdtempSync(join(dir, 'link-'));
  symlinkSync(join(dir, 'victim.txt'), join(fresh, 'best_labels.json'));
  const l = await recipe('--write', fresh, join(dir, 'custom3/best.onnx'));
  assert.equal(l.code, 2);
  assert.deepEqual(readdirSync(fresh), ['best_labels.json']);
  assert.ok(!existsSync(join(dir, 'victim.txt')));
});

test('a HAR not parsed from this head is refused in one sentence', async () => {
  await built;
  const r = await recipe('--har', join(dir, 'yolov5s-har/yolov5s.har'), join(dir, 'yolov8n/yolov8n.onnx'));
  assert.equal(r.code, 2);
  assert.match(r.err, /yolov5s\.har was not parsed from this model's head: no HN layer comes from \/model\.22\/cv2\.0\/cv2\.0\.2\/Conv/);
});

test("the recipe's gate: the project's checks catch a recipe file that disagrees", async () => {
  const { read } = await written('yolov8n-har/yolov8n.onnx');
  const cfg = read('yolov8n_nms_config.json').replace('"classes": 80', '"classes": 79');
  const files = [
    { name: 'yolov8n.alls', text: read('yolov8n.alls') },
    { name: 'yolov8n_nms_config.json', text: cfg },
  ];
  const { buildLayerIndex } = await import('../../../server/src/core/har/layers');
  const { readHar } = await import('../../../server/src/core/har/harReader');
  const hn = buildLayerIndex(await readHar(join(dir, 'yolov8n-har/yolov8n.har')));
  const head = { family: 'yolov8', metaArch: 'yolov8', input: { name: 'images', dims: [640, 640] }, scales: [], classes: 80, sources: {} } as never;
  const findings = checkRecipe(files, 'yolov8n.alls', 'yolov8n_nms_config.json', 'x_labels.json', {
    head,
    base: 'yolov8n',
    onnxName: 'yolov8n.onnx',
    hwArch: 'hailo8',
    hn,
  });
  assert.deepEqual(
    findings.map((f) => f.code),
    ['nms/classes'],
  );
});

test("Ultralytics' metadata forms: the ONNX's Python dict repr, metadata.yaml block and flow forms", () => {
  assert.deepEqual(parsePythonNames(`{0: 'person', 1: "dog's toy", 2: 'a\\'b'}`), ['person', "dog's toy", "a'b"]);
  const y = ultralyticsFromYaml("stride: 32\nimgsz:\n- 480\n- 640\nnames:\n  0: person\n  1: 'traffic light'\n", 'metadata.yaml')!;
  assert.deepEqual([y.names, y.imgsz, y.stride], [['person', 'traffic light'], [480, 640], 32]);
  assert.deepEqual(ultralyticsFromYaml('imgsz: [320, 320]\nnames: {0: cat}\n', 'm')!.imgsz, [320, 320]);
  assert.equal(ultralyticsFromYaml('foo: 1\n', 'm'), undefined);
});

test('a HAR merely beside the model that does not fit its head is left out with a note (a named one is refused)', async () => {
  await built;
  const d = mkdtempSync(join(dir, 'beside-'));
  writeFileSync(join(d, 'yolov8n.onnx'), readFileSync(join(dir, 'yolov8n/yolov8n.onnx')));
  writeFileSync(join(d, 'yolov8n.har'), readFileSync(join(dir, 'yolov5s-har/yolov5s.har')));
  const r = await recipe('--json', join(d, 'yolov8n.onnx'));
  assert.equal(r.code, 0, r.err);
  const j = r.json() as RecipeJson & { notes: string[] };
  assert.ok(!j.files.includes('yolov8n_nms_config.json'));
  assert.match(j.notes[0], /yolov8n\.har beside the model was not used: .*no HN layer comes from/);
});

test('the human output ends with the compile command that takes the recipe (cli/compile.ts options)', async () => {
  const m = join(dir, 'custom3/best.onnx');
  const r = await recipe('--hw-arch', 'hailo8l', m);
  assert.equal(r.code, 0, r.err);
  const last = r.out.trimEnd().split('\n').pop()!;
  assert.equal(
    last,
    `next: hailo-tools compile --hw-arch hailo8l --alls best.alls --start-nodes images --end-nodes ${['0', '1', '2'].flatMap((i) => [`/model.22/cv2.${i}/cv2.${i}.2/Conv`, `/model.22/cv3.${i}/cv3.${i}.2/Conv`]).join(',')} ${m}`,
  );
});

// Issue 14's fuzz suite: every reader (.alls, HEF, ONNX, HAR) and every LSP feature, fed seeded,
// structure-aware mutations that aim at the fault classes of the issue — deep nesting, huge counts
// and lengths, header fields at their extremes, varints past 2^53, hostile names, truncation, bit
// flips — plus the crash reproducers kept in test/fixtures/fuzz/. Each case must end in a result or
// the reader's own error (OnnxReadError, HarReadError…), within a time bound, with every range
// inside its document and every hover inert. A failing case is written to out/fuzz-failures/ with
// its seed; copy it into test/fixtures/fuzz/<reader>/ to keep it as a reproducer.
//
// CI runs a few thousand cases per reader; HAILO_FUZZ_LONG=1 runs 25× as many (minutes), and
// HAILO_FUZZ_SEED=n starts from another seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver/node';
import { createAllsService } from '../../server/src/lsp/allsService';
import { OnnxGraphService } from '../../server/src/lsp/onnxService';
import type { AttachableService, ServiceContext } from '../../server/src/lsp/service';
import { resolveSettings } from '../../server/src/core/common/settings';
import { timeBudget } from '../../server/src/core/common/budget';
import { bufferSource, checkMtmdSource, describeHef, hefJson, readHef } from '../../server/src/core/hef';
import { readOnnxBuffer, OnnxReadError } from '../../server/src/core/onnx/reader';
import { analyzeOnnx } from '../../server/src/core/onnx/analysis';
import { nodeHover, renderGraphView, tensorHover } from '../../server/src/core/onnx/graphView';
import { summarize, summaryText } from '../../server/src/core/onnx/summary';
import { graphUriForPath } from '../../server/src/core/onnx/viewUri';
import { readHar, HarReadError } from '../../server/src/core/har/harReader';
import { HnFormatError, parseHn } from '../../server/src/core/har/hn';
import { buildLayerIndex } from '../../server/src/core/har/layers';
import { layerMarkdown } from '../../server/src/core/alls/docs';
import { repoRoot } from '../helpers/shared';
import { prng } from '../helpers/random';
import { listFiles } from '../helpers/files';
import { assertInert } from '../helpers/markdown';
import { buildHef } from '../helpers/hefBuilder';
import { manyOutputsHefSpec } from '../helpers/inlineHefs';
import { deepSubgraphOnnx, EVIL, hostileHn, hostileOnnx, tarHeader, tarMember, TAR_END, tinyHn } from '../helpers/hostile';

const LONG = process.env.HAILO_FUZZ_LONG === '1';
const SCALE = LONG ? 25 : 1;
const SEED = Number(process.env.HAILO_FUZZ_SEED ?? 0x14_f022);
/** No single case may take longer (a hang or a quadratic blow-up shows here). */
const CASE_MS = 5000;
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'fuzz');
const FAILURES = join(repoRoot, 'out', 'fuzz-failures');

type Rnd = () => number;
const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)];

/** Runs one case with a deadline; on failure keeps the input and names the seed. */
async function runCase(reader: string, seed: number, i: number, input: Uint8Array | string, body: () => Promise<void> | void): Promise<number> {
  const t0 = performance.now();
  try {
    await body();
  } catch (err) {
    mkdirSync(FAILURES, { recursive: true });
    const file = join(FAILURES, `${reader}-${seed}-${i}${typeof input === 'string' ? '.txt' : '.bin'}`);
    writeFileSync(file, input);
    throw new Error(`${reader} case ${i} (seed ${seed}) failed; input kept in ${file}: ${(err as Error)?.stack ?? err}`);
  }
  const ms = performance.now() - t0;
  assert.ok(ms < CASE_MS, `${reader} case ${i} (seed ${seed}) took ${ms.toFixed(0)} ms`);
  return ms;
}

function fixtures(reader: string): { name: string; bytes: Buffer }[] {
  const dir = join(FIXTURES, reader);
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((name) => ({ name, bytes: readFileSync(join(dir, name)) }))
    : [];
}

// ---- bytes ------------------------------------------------------------------------------------

function varintBytes(v: bigint): number[] {
  const out: number[] = [];
  let x = BigInt.asUintN(64, v);
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return out;
}

const EXTREMES = [0n, 1n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 1n << 53n, (1n << 53n) + 1n, (1n << 63n) - 1n, -1n];

/** Generic byte mutations: flips, truncation, splices, extreme varints, repeated ranges. */
function mutateBytes(src: Uint8Array, rnd: Rnd): Uint8Array {
  let b = Uint8Array.from(src);
  for (let k = 1 + int(rnd, 3); k > 0; k--) {
    const at = int(rnd, b.length + 1);
    switch (int(rnd, 6)) {
      case 0:
        if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << int(rnd, 8);
        break;
      case 1:
        b = b.subarray(0, at);
        break;
      case 2: {
        const v = varintBytes(pick(rnd, EXTREMES));
        const out = new Uint8Array(b.length + v.length);
        out.set(b.subarray(0, at));
        out.set(v, at);
        out.set(b.subarray(at), at + v.length);
        b = out;
        break;
      }
      case 3: {
        // repeat a range many times (counts, nesting)
        const len = 1 + int(rnd, 32);
        const piece = b.subarray(at, at + len);
        const times = 1 + int(rnd, 2000);
        const out = new Uint8Array(b.length + piece.length * times);
        out.set(b.subarray(0, at));
        for (let t = 0; t < times; t++) out.set(piece, at + t * piece.length);
        out.set(b.subarray(at), at + piece.length * times);
        b = out;
        break;
      }
      case 4:
        if (b.length > 8) b.set(varintBytes(pick(rnd, EXTREMES)).slice(0, Math.min(10, b.length - at)), Math.min(at, b.length - 10 > 0 ? b.length - 10 : 0));
        break;
      default:
        b = Uint8Array.from([...b.subarray(at), ...b.subarray(0, at)]);
    }
  }
  return b;
}

// ---- .alls ------------------------------------------------------------------------------------

const ALLS_PIECES = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '=',
  ':',
  '#',
  '"',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\u001b[2J',
  '\u202e',
  '\uFFFD',
  '\uD800',
  'conv1',
  'context_0.place(',
  'quantization_param(',
  'x = ',
  'normalization(',
  '1e309',
  '99999999999999999999',
  '{conv*}',
  'a8_w8',
  '__proto__=',
  'constructor',
];

/** Hostile shapes of a script: the fault classes of the issue, at random sizes. */
function hostileScript(rnd: Rnd): string {
  const n = 1 + int(rnd, 3000);
  switch (int(rnd, 8)) {
    case 0:
      return 'normalization1 = normalization(' + pick(rnd, ['[', '{', '(']).repeat(n) + (rnd() < 0.5 ? ']'.repeat(n) : '') + ')\n';
    case 1:
      return 'quantization_param(' + ','.repeat(n * 50) + ')\n';
    case 2:
      return 'quantization_param(' + 'conv1,'.repeat(n * 5) + 'conv1)\n';
    case 3:
      return 'transpose()\n'.repeat(n * 5);
    case 4:
      return 'x = f(' + `k${int(rnd, 9)}=1,`.repeat(n) + ')\n';
    case 5:
      return Array.from({ length: n }, () => pick(rnd, ALLS_PIECES)).join('');
    case 6:
      return `quantization_param(${'a'.repeat(n * 100)}, precision_mode=${'b'.repeat(n)})\n`;
    default:
      return '{' + 'a: [b, c], '.repeat(n) + '} = defuse_block(x)\n';
  }
}

function mutateText(text: string, rnd: Rnd): string {
  let out = text;
  for (let k = 1 + int(rnd, 4); k > 0; k--) {
    const i = int(rnd, out.length + 1);
    switch (int(rnd, 5)) {
      case 0:
        out = out.slice(0, i) + pick(rnd, ALLS_PIECES).repeat(1 + int(rnd, rnd() < 0.1 ? 5000 : 3)) + out.slice(i);
        break;
      case 1:
        out = out.slice(0, i) + out.slice(Math.min(out.length, i + 1 + int(rnd, 40)));
        break;
      case 2:
        out = out.slice(0, i);
        break;
      case 3:
        out = out.slice(0, i) + String.fromCharCode(int(rnd, 0xffff)) + out.slice(i + 1);
        break;
      default: {
        const a = int(rnd, out.length + 1);
        out = out.slice(0, i) + out.slice(a, a + int(rnd, 80)).repeat(1 + int(rnd, 200)) + out.slice(i);
      }
    }
  }
  return out;
}

function inDoc(r: Range, doc: TextDocument, what: string): void {
  const lines = doc.lineCount;
  const ok = (p: Range['start']) => p.line >= 0 && p.line < lines && p.character >= 0;
  assert.ok(ok(r.start) && ok(r.end), `${what}: ${JSON.stringify(r)} outside the document (${lines} lines)`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed ${JSON.stringify(r)}`);
}

function context(model?: ServiceContext['modelLayers']): ServiceContext {
  return { settings: resolveSettings(undefined), modelLayers: model ?? (async () => undefined), budget: timeBudget(CASE_MS / 2) };
}

/** Every LSP feature of a service on one document version; ranges checked, hovers rendered. */
async function everyFeature(service: AttachableService, doc: TextDocument, rnd: Rnd, ctx: ServiceContext): Promise<void> {
  for (const d of (await service.validate?.(doc, ctx)) ?? []) inDoc(d.range, doc, `diagnostic ${d.code}`);
  const pos = doc.positionAt(int(rnd, doc.getText().length + 1));
  const h = await service.hover?.(doc, pos, ctx);
  if (h) {
    if (h.range) inDoc(h.range, doc, 'hover');
    const value = typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
    if (rnd() < 0.2) assertInert(value, 'hover');
  }
  for (const c of (await service.completion?.(doc, pos, ctx)) ?? []) if (c.textEdit && 'range' in c.textEdit) inDoc(c.textEdit.range, doc, 'completion');
  service.signatureHelp?.(doc, pos, ctx);
  const def = await service.definition?.(doc, pos, ctx);
  for (const l of Array.isArray(def) ? def : def ? [def] : []) if ('uri' in l && l.uri === doc.uri) inDoc(l.range, doc, 'definition');
  for (const l of service.references?.(doc, pos, ctx) ?? []) if (l.uri === doc.uri) inDoc(l.range, doc, 'references');
  const walk = (syms: ReturnType<NonNullable<AttachableService['documentSymbols']>>): void => {
    for (const s of syms) {
      inDoc(s.range, doc, 'symbol');
      walk(s.children ?? []);
    }
  };
  walk(service.documentSymbols?.(doc, ctx) ?? []);
  for (const f of service.foldingRanges?.(doc, ctx) ?? []) assert.ok(f.startLine <= f.endLine && f.endLine < doc.lineCount, `folding ${JSON.stringify(f)}`);
  const tokens = service.semanticTokens?.(doc, ctx);
  if (tokens) {
    assert.equal(tokens.data.length % 5, 0);
    for (let i = 0; i < tokens.data.length; i += 5) assert.ok(tokens.data[i] >= 0 && tokens.data[i + 2] > 0, 'semantic token deltas');
  }
  const whole = { start: { line: 0, character: 0 }, end: doc.positionAt(doc.getText().length) };
  for (const a of service.codeActions?.(doc, whole, { diagnostics: [] }, ctx) ?? [])
    for (const e of a.edit?.changes?.[doc.uri] ?? []) inDoc(e.range, doc, 'code action');
}

function allsSeeds(): string[] {
  const files = listFiles(join(repoRoot, 'examples'), '.alls');
  return [...files.map((f) => readFileSync(f, 'utf8')), ...fixtures('alls').map((f) => f.bytes.toString('utf8'))];
}

test(
  `fuzz .alls: ${2000 * SCALE} hostile and mutated scripts through every LSP feature, with edits re-analysed incrementally`,
  { timeout: 600_000 * SCALE },
  async () => {
    const seeds = allsSeeds();
    const rnd = prng(SEED);
    const model = async () => buildLayerIndex({ path: 'fuzz.har', members: [], hnMember: 'net.hn', hn: parseHn(JSON.stringify(hostileHn()), 'fuzz') });
    let slowest = 0;
    for (let i = 0; i < 2000 * SCALE; i++) {
      const text = rnd() < 0.4 ? hostileScript(rnd) : mutateText(pick(rnd, seeds), rnd);
      slowest = Math.max(
        slowest,
        await runCase('alls', SEED, i, text, async () => {
          const service = createAllsService();
          const ctx = context(i % 4 === 0 ? model : undefined);
          let doc = TextDocument.create(`file:///fuzz/${i}.alls`, 'alls', 1, text);
          await everyFeature(service, doc, rnd, ctx);
          // an edit: the service re-analyses incrementally; it must match a fresh service
          const edited = mutateText(text, rnd);
          doc = TextDocument.update(doc, [{ text: edited }], 2);
          const incremental = (await service.validate!(doc, ctx)).map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`);
          const fresh = (await createAllsService().validate!(TextDocument.create(doc.uri, 'alls', 2, edited), ctx)).map(
            (d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`,
          );
          if (JSON.stringify(incremental) !== JSON.stringify(fresh)) {
            mkdirSync(FAILURES, { recursive: true });
            writeFileSync(join(FAILURES, `alls-${SEED}-${i}.edited.txt`), edited);
            assert.deepEqual(incremental, fresh, 'incremental re-analysis differs from a fresh one (the edit is kept beside the input as .edited.txt)');
          }
          if (i % 10 === 0) await everyFeature(service, doc, rnd, ctx);
        }),
      );
    }
    process.stderr.write(`fuzz .alls: ${2000 * SCALE} cases, slowest ${slowest.toFixed(0)} ms\n`);
  },
);

// ---- HEF --------------------------------------------------------------------------------------

/** Header fields (offset, size) of every container version: where a crafted file changes numbers. */
const HEADER_FIELDS: [number, number][] = [
  [4, 4],
  [8, 4],
  [12, 4],
  [12, 8],
  [16, 8],
  [20, 8],
  [24, 4],
  [28, 4],
  [28, 8],
  [32, 8],
  [36, 8],
  [40, 8],
  [48, 8],
];

function mutateHef(src: Uint8Array, rnd: Rnd): Uint8Array {
  if (rnd() < 0.5) return mutateBytes(src, rnd);
  const b = Uint8Array.from(src);
  const view = new DataView(b.buffer);
  for (let k = 1 + int(rnd, 2); k > 0; k--) {
    const [off, size] = pick(rnd, HEADER_FIELDS);
    if (off + size > b.length) continue;
    const v = pick(rnd, [...EXTREMES, BigInt(b.length), BigInt(b.length - 56), BigInt(int(rnd, 8192))]);
    if (size === 4) view.setUint32(off, Number(BigInt.asUintN(32, v)), false);
    else view.setBigUint64(off, BigInt.asUintN(64, v), false);
  }
  return b;
}

async function hefSeeds(): Promise<Uint8Array[]> {
  const dir = join(repoRoot, 'test', 'fixtures', 'hef');
  const small = readdirSync(dir)
    .filter((f) => f.endsWith('.hef'))
    .sort()
    .slice(0, 8)
    .map((f) => new Uint8Array(readFileSync(join(dir, f))));
  const many = await buildHef(manyOutputsHefSpec());
  return [...small, many, ...fixtures('hef').map((f) => new Uint8Array(f.bytes))];
}

test(
  `fuzz HEF: ${2000 * SCALE} mutated containers and bodies — header fields at their extremes, truncation, flips, repeats`,
  { timeout: 600_000 * SCALE },
  async () => {
    const seeds = await hefSeeds();
    const rnd = prng(SEED + 1);
    for (let i = 0; i < 2000 * SCALE; i++) {
      const bytes = mutateHef(pick(rnd, seeds), rnd);
      await runCase('hef', SEED + 1, i, bytes, async () => {
        const src = bufferSource(bytes, 'fuzz.hef');
        const report = await readHef(src);
        const mtmd = await checkMtmdSource(src, report);
        const text = describeHef(report, mtmd, { streams: true });
        JSON.stringify(hefJson(report, mtmd));
        assert.ok(text.length < 64 * 1024 * 1024, `text output of ${text.length} characters`);
        if (report.integrity.ok) assert.ok(!report.problems.some((p) => p.area === 'integrity'), 'Integrity OK beside an integrity problem');
      });
    }
  },
);

// ---- ONNX -------------------------------------------------------------------------------------

function onnxSeeds(): Uint8Array[] {
  const dir = join(repoRoot, 'test', 'fixtures', 'onnx');
  const files = ['cnn.onnx', 'ops.onnx', 'rejected.onnx', 'vit_b1_op17.onnx', 'tower_packed.onnx', 'ext.onnx'].map(
    (f) => new Uint8Array(readFileSync(join(dir, f))),
  );
  return [...files, hostileOnnx(), deepSubgraphOnnx(40), ...fixtures('onnx').map((f) => new Uint8Array(f.bytes))];
}

test(
  `fuzz ONNX: ${2000 * SCALE} mutated models through the reader, inference, the graph view, its hovers and the CLI summary`,
  { timeout: 600_000 * SCALE },
  async () => {
    const seeds = onnxSeeds();
    const rnd = prng(SEED + 2);
    for (let i = 0; i < 2000 * SCALE; i++) {
      const bytes = mutateBytes(pick(rnd, seeds), rnd);
      await runCase('onnx', SEED + 2, i, bytes, () => {
        let model;
        try {
          model = readOnnxBuffer(bytes);
        } catch (err) {
          if (err instanceof OnnxReadError) return; // one sentence: what the user sees
          throw err;
        }
        const a = analyzeOnnx(model);
        const view = renderGraphView(a, 'fuzz.onnx');
        assert.ok(view.text.length <= 16 * 1024 * 1024, `view of ${view.text.length} characters`);
        assert.equal(view.text.split('\n').length, view.lines.length + 1, 'one text line per view line');
        summaryText(a, 'fuzz.onnx', true);
        JSON.stringify(summarize(a, true));
        for (const n of a.model.graph.nodes.slice(0, 3)) {
          const md = nodeHover(a, n);
          if (i % 10 === 0) assertInert(md, 'node hover');
          for (const t of n.outputs.slice(0, 2)) tensorHover(a, t);
        }
      });
    }
  },
);

test(
  `fuzz ONNX over the LSP service: ${300 * SCALE} mutated models as graph views (validate, hover, definition, references, symbols)`,
  { timeout: 600_000 * SCALE },
  async () => {
    const seeds = onnxSeeds();
    const rnd = prng(SEED + 3);
    const dir = mkdtempSync(join(tmpdir(), 'hailo-fuzz-onnx-'));
    try {
      for (let i = 0; i < 300 * SCALE; i++) {
        const bytes = mutateBytes(pick(rnd, seeds), rnd);
        const path = join(dir, `m${i}.onnx`);
        writeFileSync(path, bytes);
        await runCase('onnx-lsp', SEED + 3, i, bytes, async () => {
          const service = new OnnxGraphService();
          const uri = graphUriForPath(path);
          const { text } = service.viewText(uri);
          await everyFeature(service, TextDocument.create(uri, 'onnx-graph', 1, text), rnd, context());
        });
        rmSync(path);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

// ---- HAR --------------------------------------------------------------------------------------

/** HN text with structure-aware damage: wrong types, deep nesting, huge arrays, hostile names. */
function mutateHn(rnd: Rnd): string {
  const base = rnd() < 0.5 ? JSON.parse(tinyHn(['conv1', 'conv2'])) : hostileHn();
  const layers = base.layers as Record<string, Record<string, unknown>>;
  const l = layers[pick(rnd, Object.keys(layers))];
  const key = pick(rnd, ['type', 'input', 'output', 'input_shapes', 'output_shapes', 'original_names', 'params']);
  const n = 1 + int(rnd, 5000);
  const values: unknown[] = [
    null,
    0,
    -1,
    1e308,
    'x'.repeat(n),
    [],
    {},
    Array(n).fill(EVIL.image),
    Array(n).fill([1, 2, 3]),
    { [EVIL.command]: EVIL.html },
    [[[[null]]]],
    true,
  ];
  l[key] = pick(rnd, values);
  let text = JSON.stringify(base);
  if (rnd() < 0.15) text = text.replace('"params":', `"params":{"kernel_shape":${'['.repeat(n * 20)}1${']'.repeat(n * 20)}},"x":`);
  if (rnd() < 0.1) text = text.slice(0, int(rnd, text.length));
  return text;
}

function harOf(rnd: Rnd): Uint8Array {
  const hn = Buffer.from(mutateHn(rnd));
  let tar = Buffer.concat([
    tarMember('net.hn', hn),
    rnd() < 0.3 ? tarMember('net.metadata.json', Buffer.from(JSON.stringify({ hn: pick(rnd, ['net.hn', 'x.hn', 5]) }))) : Buffer.alloc(0),
    TAR_END,
  ]);
  switch (int(rnd, 5)) {
    case 0:
      tar = Buffer.concat([tarHeader(pick(rnd, ['a.hn', 'a.npz', 'x']), Number(pick(rnd, [0n, 1n, 0x7fffffffn, 8n ** 11n - 1n]))), tar]);
      break;
    case 1:
      return gzipSync(tar);
    case 2:
      return mutateBytes(tar, rnd);
    default:
  }
  return tar;
}

test(
  `fuzz HAR: ${1000 * SCALE} archives (tar headers at extremes, gzip, flips) and HN documents into the layer index and its hover`,
  { timeout: 600_000 * SCALE },
  async () => {
    const rnd = prng(SEED + 4);
    const dir = mkdtempSync(join(tmpdir(), 'hailo-fuzz-har-'));
    const fixed = fixtures('har');
    try {
      for (let i = 0; i < 1000 * SCALE + fixed.length; i++) {
        const bytes = i < fixed.length ? fixed[i].bytes : harOf(rnd);
        const path = join(dir, `h${i}.har`);
        writeFileSync(path, bytes);
        await runCase('har', SEED + 4, i, bytes, async () => {
          let har;
          try {
            har = await readHar(path);
          } catch (err) {
            if (err instanceof HarReadError || err instanceof HnFormatError) return;
            throw err;
          }
          const index = buildLayerIndex(har);
          for (const layer of [...index.layers.values()].slice(0, 3)) {
            const md = layerMarkdown(layer, index.source);
            if (i % 5 === 0) assertInert(md, 'layer hover');
          }
        });
        rmSync(path);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('the crash reproducers of test/fixtures/fuzz replay cleanly (each reader)', async () => {
  const all = ['alls', 'hef', 'onnx', 'har'].flatMap((r) => fixtures(r).map((f) => ({ reader: r, ...f })));
  assert.ok(all.length >= 6, `only ${all.length} reproducers in ${FIXTURES}`);
  const rnd = prng(SEED + 5);
  for (const f of all) {
    await runCase(`replay-${f.reader}`, 0, 0, f.bytes, async () => {
      if (f.reader === 'alls')
        await everyFeature(createAllsService(), TextDocument.create(`file:///replay/${f.name}`, 'alls', 1, f.bytes.toString('utf8')), rnd, context());
      else if (f.reader === 'hef') describeHef(await readHef(bufferSource(f.bytes)), undefined, { streams: true });
      else if (f.reader === 'onnx') {
        try {
          const a = analyzeOnnx(readOnnxBuffer(f.bytes));
          renderGraphView(a, f.name);
        } catch (err) {
          if (!(err instanceof OnnxReadError)) throw err;
        }
      }
    });
  }
});

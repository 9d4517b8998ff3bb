// Our verdict ("what HailoRT 5.1–5.2 does at Hef::create") against what a real libhailort 5.2.0
// answered: every corpus HEF and the 108 damaged copies of ../shared/corpus/hef/libhailort-5.2.0
// (mutants.tsv, made byte-exactly as its README says). Expected values are the real library's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { bufferSource, readHef } from '../../../server/src/core/hef';
import { RUNTIME_LINES, verdictAt, verdictFor } from '../../../server/src/core/hef/verdict';
import type { HefReport } from '../../../server/src/core/hef';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import { buildHef, type HefSpec } from '../../helpers/hefBuilder';
import { mutant, mutantRows } from '../../helpers/hefMutants';
import { yolov8nHefSpec } from '../../helpers/nmsDetectors';
import { projectRoot } from '../../helpers/projectRoot';

const dir = sharedPath('corpus', 'hef');
const real = sharedPath('corpus', 'hef', 'libhailort-5.2.0');
const skip = dir && real ? false : SKIP_NO_SHARED;
const LINE_5_2 = RUNTIME_LINES.find((l) => l.id === '5.1-5.2')!;
const CORPUS = [
  'arcface_mobilefacenet',
  'darrr05__New1V2',
  'mnist_model_v_0cd51b2',
  'seeed10h__face_landmarks_lite',
  'seeed10h__lightface_slim',
  'seeed10h__mspn_regnetx_800mf',
];

const status52 = (r: HefReport) => {
  const v = verdictFor(r, LINE_5_2);
  return v.outcome === 'loads' ? 0 : v.outcome === 'crashes' ? -1 : v.status!;
};

test('verdict: the corpus HEFs get the status the real libhailort 5.2.0 gave', { skip }, async () => {
  for (const name of CORPUS) {
    const facts = JSON.parse(readFileSync(join(real!, `${name}.json`), 'utf8')) as { ok: boolean; status?: string };
    const expected = facts.ok ? 0 : Number(String(facts.status).split(' ')[0]);
    const report = await readHef(bufferSource(readFileSync(join(dir!, `${name}.hef`)), name));
    assert.equal(status52(report), expected, `${name}: ${verdictFor(report, LINE_5_2).reason}`);
  }
});

test('verdict: all 108 damaged copies get the status the real libhailort 5.2.0 gave', { skip }, async () => {
  const rows = mutantRows(join(real!, 'mutants.tsv'));
  assert.equal(rows.length, 108);
  const sources = new Map<string, Buffer>();
  const wrong: string[] = [];
  for (const row of rows) {
    if (!sources.has(row.source)) sources.set(row.source, readFileSync(join(dir!, row.source)));
    const bytes = mutant(sources.get(row.source)!, row.mutation, row.parameter);
    const report = await readHef(bufferSource(bytes, `${row.source}~${row.mutation}`));
    const got = status52(report);
    if (got !== row.status)
      wrong.push(`${row.source} ${row.mutation} ${row.parameter}: real ${row.status}, ours ${got} (${verdictFor(report, LINE_5_2).reason})`);
  }
  assert.deepEqual(wrong, []);
});

// The same against a running 4.x library: what the real libhailort 4.23.0 said about the corpus, its
// 108 damaged copies and the project's own committed HEFs (../shared/corpus/hef/libhailort-4.23.0).
const real423 = sharedPath('corpus', 'hef', 'libhailort-4.23.0');
const skip423 = dir && real423 ? false : SKIP_NO_SHARED;
/** A real-library answer as we compare it: 0 opens, -1 the process died, else the status. */
const realStatus = (facts: { ok: boolean; status?: string; crashed?: boolean }) =>
  facts.ok ? 0 : facts.crashed ? -1 : Number(String(facts.status).split(' ')[0]);
const status423 = (r: HefReport) => {
  const v = verdictAt(r, '4.23.0');
  return v.outcome === 'loads' ? 0 : v.outcome === 'crashes' ? -1 : v.status!;
};

test('verdict: the corpus HEFs and every committed HEF get what the real libhailort 4.23.0 did (two crash it)', { skip: skip423 }, async () => {
  const wrong: string[] = [];
  const judge = async (file: string, factsPath: string) => {
    const expected = realStatus(JSON.parse(readFileSync(factsPath, 'utf8')) as { ok: boolean; status?: string; crashed?: boolean });
    const report = await readHef(bufferSource(readFileSync(file), basename(file)));
    const got = status423(report);
    if (got !== expected) wrong.push(`${basename(file)}: real ${expected}, ours ${got} (${verdictAt(report, '4.23.0').reason})`);
    return expected;
  };
  const crashed: string[] = [];
  for (const name of CORPUS) if ((await judge(join(dir!, `${name}.hef`), join(real423!, `${name}.json`))) === -1) crashed.push(name);
  const committed = execFileSync('git', ['ls-files', '*.hef'], { cwd: projectRoot, encoding: 'utf8' }).trim().split('\n');
  let seen = 0;
  for (const rel of committed) {
    const facts = join(real423!, 'fixtures', basename(rel).replace(/\.hef$/, '.json'));
    if (!existsSync(facts)) continue; // a HEF committed after the run (main 9b9c7b2)
    seen++;
    if ((await judge(join(projectRoot, rel), facts)) === -1) crashed.push(basename(rel, '.hef'));
  }
  assert.equal(seen, 30);
  assert.deepEqual(wrong, []);
  // The README's two: V3 files with per-feature scales whose input layer has empty qp_zps/qp_scales.
  assert.deepEqual(crashed.sort(), ['netflow-yolov8-nms', 'seeed10h__lightface_slim']);
});

test('verdict: all 108 damaged copies get the status the real libhailort 4.23.0 gave', { skip: skip423 }, async () => {
  const rows = mutantRows(join(real423!, 'mutants.tsv'));
  assert.equal(rows.length, 108);
  const sources = new Map<string, Buffer>();
  const wrong: string[] = [];
  for (const row of rows) {
    if (!sources.has(row.source)) sources.set(row.source, readFileSync(join(dir!, row.source)));
    const report = await readHef(bufferSource(mutant(sources.get(row.source)!, row.mutation, row.parameter), `${row.source}~${row.mutation}`));
    const got = status423(report);
    if (got !== row.status)
      wrong.push(`${row.source} ${row.mutation} ${row.parameter}: real ${row.status}, ours ${got} (${verdictAt(report, '4.23.0').reason})`);
  }
  assert.deepEqual(wrong, []);
});

// Structural faults, built with the test builder's fault switches. Statuses from hef.cpp
// (parse_trigger_action, parse_action, fill_layer_info) and answered the same by the real
// libhailort 5.2.0 (native/README.md records the run).
const tiny = (faults: HefSpec['faults'] = {}): HefSpec => ({
  version: 3,
  hwArch: 103,
  ccwsSize: 256,
  networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: [{ name: 'n/out', shape: [4, 4, 8] }] }],
  faults,
});

async function verdicts(spec: HefSpec) {
  const report = await readHef(bufferSource(await buildHef(spec), 'built.hef'));
  return { report, v: RUNTIME_LINES.map((l) => verdictFor(report, l)) };
}

// The lines, oldest first: 4.18–4.19, 4.20, 4.21–4.23, 5.0, 5.1–5.2. A V3 file (what tiny() builds) is
// unreadable before 4.21: 4.18–4.19 read it as V1 and validate_hef_header answers 8 ("HEF version
// does not match"), 4.20's switch has no case 3 ("Unsupported hef version", 26) — hef.cpp of the tags.
const V3_BEFORE_4_21 = [
  ['refuses', 8],
  ['refuses', 26],
];

test('verdict: a built HEF loads in every line that reads V3; a context operation without a trigger is 26 everywhere', async () => {
  const ok = await verdicts(tiny());
  assert.deepEqual(
    ok.v.map((x) => [x.outcome, x.status]),
    [...V3_BEFORE_4_21, ['loads', undefined], ['loads', undefined], ['loads', undefined]],
    ok.v.map((x) => x.reason).join('; '),
  );
  assert.match(ok.v[0].reason, /^HEF version does not match\. Should be 1 but detected 3/);
  assert.match(ok.v[1].reason, /^Unsupported hef version 3/);
  const noTrigger = await verdicts({ ...tiny({ noTrigger: true }), version: 1 });
  for (const x of noTrigger.v) {
    assert.equal(x.status, 26, x.label);
    assert.match(x.reason, /^Unsupported trigger given 0: network group 'n': preliminary config, operation 0 has no trigger/);
  }
  assert.equal(noTrigger.report.problems.find((p) => p.code === 'hef/no-trigger')?.severity, 'error');
});

test('verdict: an action without a case is 8; boundary edge layers without buffer_indices crash libhailort', async () => {
  const empty = await verdicts({ ...tiny({ emptyAction: true }), version: 1 });
  assert.deepEqual(
    empty.v.map((x) => [x.outcome, x.status]),
    RUNTIME_LINES.map(() => ['refuses', 8]),
  );
  assert.match(empty.v[4].reason, /^Action 0 not implemented/);
  const crash = await verdicts({ ...tiny({ noBufferIndices: true }), version: 1 });
  assert.deepEqual(
    crash.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'crashes'),
  );
  assert.match(crash.v[4].reason, /boundary edge layer 'n\/in' has no buffer_indices.*SIGSEGV/);
});

// SUPPORTED_EXTENSIONS of hef_internal.hpp per tag: 4.21.0 adds 30-32, 5.0.0 adds 35, 5.0.1 adds 33-34;
// before 4.21 the refusal is 26 (91/92/93 came with 4.21.0, hailort.h). V1 files, which every line reads.
test('verdict: extensions per release — EXTERNAL_RESOURCES (31) is unknown before 4.21 (26), CSM_CRC (33) before 5.0.1', async () => {
  const r = await verdicts({ ...tiny(), version: 1, extensions: [0, 3, 12, 26, 31] });
  assert.deepEqual(
    r.v.map((x) => [x.line, x.status ?? 0]),
    [
      ['4.18-4.19', 26],
      ['4.20', 26],
      ['4.21-4.23', 0],
      ['5.0', 0],
      ['5.1-5.2', 0],
    ],
  );
  assert.match(r.v[1].reason, /unsupported extensions: EXTERNAL_RESOURCES/);
  const csm = await verdicts({ ...tiny(), version: 1, extensions: [0, 3, 12, 26, 33] });
  assert.deepEqual(
    csm.v.map((x) => x.status ?? 0),
    [26, 26, 92, 0, 0],
  );
  // The 5.0 line is judged at 5.0.1, which knows CSM_CRC; 5.0.0 does not, and the verdict names it.
  assert.deepEqual(
    csm.v[3].others?.map((o) => [o.version, o.status]),
    [['5.0.0', 92]],
  );
  // The outdated-HEF refusal (no PERIPH_CALCULATION_IN_HAILORT) exists from 4.21.0 only.
  const outdated = await verdicts({ ...tiny(), version: 1, extensions: [0, 3, 12] });
  assert.deepEqual(
    outdated.v.map((x) => x.status ?? 0),
    [0, 0, 92, 92, 92],
  );
  for (const x of outdated.v.slice(2)) assert.match(x.reason, /periph_calculation_in_hailort feature disabled/);
});

test('verdict: a row wider than 65,535 bytes in one buffer is 26 (HailoRT keeps core_bytes_per_buffer in 16 bits); split, it opens', async () => {
  const wide = (faults: HefSpec['faults']): HefSpec => ({
    ...tiny(faults),
    networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: [{ name: 'n/out', shape: [16, 16, 4096] }] }],
  });
  const unsplit = await verdicts({ ...wide({ unsplitRows: true }), version: 1 });
  for (const x of unsplit.v) assert.equal(x.status, 26, x.label);
  assert.match(unsplit.v[4].reason, /^core_bytes_per_buffer is too big: .*'n\/out' has 65536/);
  const split = await verdicts({ ...wide({}), version: 1 });
  assert.deepEqual(
    split.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'loads'),
  );
});

// Multi-layout architectures (hef.cpp is_multi_layout: HAILO8L, HAILO15M) keep their contexts in
// partial core ops. The real libhailort 5.2.0 crashed (SIGSEGV) in Hef::create on every hailo8l HEF
// written without them, and loads the builder's files with them (native/README.md records the run).
test('verdict: a Hailo-8L HEF without partial core ops crashes every release; with them it loads', async () => {
  const h8l = (faults: HefSpec['faults'] = {}): HefSpec => ({ ...tiny(faults), version: 1, hwArch: 3 });
  const ok = await verdicts(h8l());
  assert.deepEqual(
    ok.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'loads'),
    ok.v.map((x) => x.reason).join('; '),
  );
  const bare = await verdicts(h8l({ noPartialCoreOps: true }));
  assert.deepEqual(
    bare.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'crashes'),
  );
  assert.match(bare.v[4].reason, /Hailo-8L HEF has no partial_network_groups.*SIGSEGV\) in Hef::create/);
  assert.equal(bare.report.problems.find((p) => p.code === 'hef/no-partial-core-ops')?.severity, 'error');
  // Net-flow: partial core ops but no partial_network_groups — Hef::create returns, the first lookup by name crashes.
  const netFlow = (faults: HefSpec['faults']): HefSpec => ({ ...yolov8nHefSpec(), version: 1, hwArch: 3, faults });
  const late = await verdicts(netFlow({ noPartialNetworkGroups: true }));
  assert.deepEqual(
    late.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'crashes'),
  );
  assert.match(late.v[4].reason, /has no partial_network_groups: Hef::create succeeds, but every lookup/);
  const netFlowOk = await verdicts(netFlow({}));
  assert.equal(netFlowOk.v[4].outcome, 'loads', netFlowOk.v[4].reason);
});

// create_yolov8_config looks each bbox decoder's reg/cls pad up among the core op's output streams
// (pad_index_to_streams_info.at, an uncaught std::out_of_range): the NMS fixtures that named the op's
// input pads instead made the real libhailort 5.2.0 abort (SIGABRT) — native/README.md.
test('verdict: a bbox decoder naming a pad no core output has aborts libhailort', async () => {
  const spec: HefSpec = { ...yolov8nHefSpec(), version: 1 };
  const nms = spec.networkGroups[0].ops![0].nms!;
  const good = await verdicts(spec);
  assert.equal(good.v[4].outcome, 'loads', good.v[4].reason);
  nms.decoders = nms.decoders!.map((d, i) => ({ ...d, reg: 9 + 2 * i, cls: 10 + 2 * i }));
  const bad = await verdicts(spec);
  assert.deepEqual(
    bad.v.map((x) => x.outcome),
    RUNTIME_LINES.map(() => 'crashes'),
  );
  assert.match(bad.v[4].reason, /bbox decoder 0 .* names pad 9 \(reg_pad_index\), which no core output stream has .*SIGABRT/);
});

test('verdict: an edge layer whose sys_index does not fit 8 bits is 26 in every line that reads the file (real 5.2.0: "Invalid sys_index: 256")', async () => {
  const outputs = Array.from({ length: 300 }, (_, i) => ({ name: `n/out${i}`, shape: [1, 1, 8] as [number, number, number] }));
  const many = await verdicts({ ...tiny(), networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs }] });
  assert.deepEqual(
    many.v.map((x) => [x.outcome, x.status]),
    [...V3_BEFORE_4_21, ['refuses', 26], ['refuses', 26], ['refuses', 26]],
  );
  assert.match(many.v[4].reason, /^Failed to parse HEF\. Invalid sys_index: 256 \(.*'n\/out256'/);
  // 255 is the last index that fits: 256 outputs (sys_index 0-255) open — real 5.2.0 too (native/README.md).
  const fits = await verdicts({ ...tiny(), networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: outputs.slice(0, 256) }] });
  assert.equal(fits.v[4].outcome, 'loads', fits.v[4].reason);
});

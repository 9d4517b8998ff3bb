// Our verdict ("what HailoRT 5.1–5.2 does at Hef::create") against what a real libhailort 5.2.0
// answered: every corpus HEF and the 108 damaged copies of ../shared/corpus/hef/libhailort-5.2.0
// (mutants.tsv, made byte-exactly as its README says). Expected values are the real library's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bufferSource, readHef } from '../../server/src/hef';
import { RUNTIME_LINES, verdictFor } from '../../server/src/hef/verdict';
import type { HefReport } from '../../server/src/hef';
import { sharedPath, SKIP_NO_SHARED } from '../helpers/shared';
import { buildHef, type HefSpec } from '../helpers/hefBuilder';
import { mutant, mutantRows } from '../helpers/hefMutants';

const dir = sharedPath('corpus', 'hef');
const real = sharedPath('corpus', 'hef', 'libhailort-5.2.0');
const skip = dir && real ? false : SKIP_NO_SHARED;
const LINE_5_2 = RUNTIME_LINES.find((l) => l.id === '5.1-5.2')!;

const status52 = (r: HefReport) => {
  const v = verdictFor(r, LINE_5_2);
  return v.outcome === 'loads' ? 0 : v.outcome === 'crashes' ? -1 : v.status!;
};

test('verdict: the corpus HEFs get the status the real libhailort 5.2.0 gave', { skip }, async () => {
  for (const name of [
    'arcface_mobilefacenet',
    'darrr05__New1V2',
    'mnist_model_v_0cd51b2',
    'seeed10h__face_landmarks_lite',
    'seeed10h__lightface_slim',
    'seeed10h__mspn_regnetx_800mf',
  ]) {
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

test('verdict: a built HEF loads in every line; a context operation without a trigger is 26 everywhere', async () => {
  const ok = await verdicts(tiny());
  assert.deepEqual(
    ok.v.map((x) => x.outcome),
    ['loads', 'loads', 'loads', 'loads'],
    ok.v.map((x) => x.reason).join('; '),
  );
  const noTrigger = await verdicts(tiny({ noTrigger: true }));
  for (const x of noTrigger.v) {
    assert.equal(x.status, 26, x.label);
    assert.match(x.reason, /^Unsupported trigger given 0: network group 'n': preliminary config, operation 0 has no trigger/);
  }
  assert.equal(noTrigger.report.problems.find((p) => p.code === 'hef/no-trigger')?.severity, 'error');
});

test('verdict: an action without a case is 8; boundary edge layers without buffer_indices crash libhailort', async () => {
  const empty = await verdicts(tiny({ emptyAction: true }));
  assert.deepEqual(
    empty.v.map((x) => [x.outcome, x.status]),
    RUNTIME_LINES.map(() => ['refuses', 8]),
  );
  assert.match(empty.v[3].reason, /^Action 0 not implemented/);
  const crash = await verdicts(tiny({ noBufferIndices: true }));
  assert.deepEqual(
    crash.v.map((x) => x.outcome),
    ['crashes', 'crashes', 'crashes', 'crashes'],
  );
  assert.match(crash.v[3].reason, /boundary edge layer 'n\/in' has no buffer_indices.*SIGSEGV/);
});

test('verdict: extensions per line — EXTERNAL_RESOURCES (31) is unknown to 4.20, CSM_CRC (33) to everything before 5.1', async () => {
  const r = await verdicts({ ...tiny(), extensions: [0, 3, 12, 26, 31] });
  assert.deepEqual(
    r.v.map((x) => [x.line, x.status ?? 0]),
    [
      ['4.20', 92],
      ['4.21-4.23', 0],
      ['5.0', 0],
      ['5.1-5.2', 0],
    ],
  );
  const csm = await verdicts({ ...tiny(), extensions: [0, 3, 12, 26, 33] });
  assert.deepEqual(
    csm.v.map((x) => x.status ?? 0),
    [92, 92, 92, 0],
  );
  const outdated = await verdicts({ ...tiny(), extensions: [0, 3, 12] });
  for (const x of outdated.v) assert.match(x.reason, /periph_calculation_in_hailort feature disabled/);
});

test('verdict: a row wider than 65,535 bytes in one buffer is 26 (HailoRT keeps core_bytes_per_buffer in 16 bits); split, it opens', async () => {
  const wide = (faults: HefSpec['faults']): HefSpec => ({
    ...tiny(faults),
    networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: [{ name: 'n/out', shape: [16, 16, 4096] }] }],
  });
  const unsplit = await verdicts(wide({ unsplitRows: true }));
  for (const x of unsplit.v) assert.equal(x.status, 26, x.label);
  assert.match(unsplit.v[3].reason, /^core_bytes_per_buffer is too big: .*'n\/out' has 65536/);
  const split = await verdicts(wide({}));
  assert.deepEqual(
    split.v.map((x) => x.outcome),
    ['loads', 'loads', 'loads', 'loads'],
  );
});

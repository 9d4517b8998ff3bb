// `hailo-tools hef --hailort-version X.Y.Z`: the exit code and the headline verdict follow the
// release given (default: the line the file's architecture targets); every line's verdict stays
// in the text and the JSON; any release is judged (one past the rules read here by the nearest, saying so).
// Expected verdicts: the real libhailort 5.2.0 (../shared/corpus/hef/libhailort-5.2.0: mspn loads)
// and hef.cpp of the tags (4.21–5.0 check the whole length: 91; the outdated-HEF check exists from
// v4.21.0, absent from v4.20.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { main } from '../../../server/src/cli/main';
import { readHef, bufferSource } from '../../../server/src/core/hef';
import { buildHef, type HefSpec } from '../../helpers/hefBuilder';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

async function run(...args: string[]) {
  const io = captureIO();
  const code = await main(['hef', ...args], io);
  return { code, out: io.outText, err: io.errText };
}

type V = { line: string; outcome: string; status?: number; version: string };
const lines = (j: { runtime: { verdicts: V[] } }) => j.runtime.verdicts.map((v) => [v.line, v.outcome, v.status]);

const corpus = sharedPath('corpus', 'hef');

test(
  'cli hef --hailort-version: mspn (cut in its CCWs) exits 0 by its target 5.1–5.2 and 5.2.0, 2 at 4.23.0 and 5.0.1 (91); every line kept',
  { skip: corpus ? false : SKIP_NO_SHARED },
  async () => {
    const file = join(corpus!, 'seeed10h__mspn_regnetx_800mf.hef');
    const every = [
      ['4.18-4.19', 'refuses', 8],
      ['4.20', 'refuses', 26],
      ['4.21-4.23', 'refuses', 91],
      ['5.0', 'refuses', 91],
      ['5.1-5.2', 'loads', undefined],
    ];
    const byTarget = await run('--json', file);
    assert.equal(byTarget.code, 0);
    assert.equal(JSON.parse(byTarget.out).runtime.chosen, undefined);

    for (const [version, code, outcome, status] of [
      ['5.2.0', 0, 'loads', undefined],
      ['4.23.0', 2, 'refuses', 91],
      ['5.0.1', 2, 'refuses', 91],
    ] as const) {
      const r = await run('--json', '--hailort-version', version, file);
      assert.equal(r.code, code, `${version}: ${r.out.slice(0, 300)}`);
      const j = JSON.parse(r.out);
      assert.deepEqual([j.runtime.chosen.version, j.runtime.chosen.outcome, j.runtime.chosen.status], [version, outcome, status]);
      assert.equal(j.runtime.target, '5.1-5.2');
      assert.deepEqual(lines(j), every);
      // The cut is an error where the chosen release refuses it, a warning where it loads it.
      const cut = j.problems.find((p: { code: string }) => p.code === 'hef/truncated');
      assert.equal(cut.severity, outcome === 'loads' ? 'warning' : 'error', version);
    }

    const text = await run('--hailort-version=4.23.0', file);
    assert.equal(text.code, 2);
    assert.match(text.out, /^HailoRT 4\.23\.0 \(chosen; the verdict that counts\): refuses with 91 HAILO_HEF_FILE_CORRUPTED — HEF file length does not match/m);
    assert.match(text.out, /^ {4}HailoRT 5\.1–5\.2 \(target\): loads/m);
    assert.equal(text.out.match(/^ {4}HailoRT \d/gm)?.length, 5);
  },
);

// A Hailo-8 HEF (V1) without extension 26: its target 4.21–4.23 refuses it as outdated (92);
// 4.20.1 has no such check and loads it.
const outdatedHailo8: HefSpec = {
  version: 1,
  hwArch: 1,
  ccwsSize: 256,
  extensions: [0, 3, 12],
  networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: [{ name: 'n/out', shape: [4, 4, 8] }] }],
};

test('cli hef --hailort-version: an outdated Hailo-8 HEF exits 2 by its target (92), 0 at 4.20.1 with the finding a warning', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hef-release-'));
  try {
    const file = join(dir, 'outdated.hef');
    writeFileSync(file, await buildHef(outdatedHailo8));
    const byTarget = await run('--json', file);
    assert.equal(byTarget.code, 2);
    const jt = JSON.parse(byTarget.out);
    assert.equal(jt.runtime.target, '4.21-4.23');
    assert.deepEqual(
      jt.runtime.verdicts.map((v: V) => v.status ?? 0),
      [0, 0, 92, 92, 92],
    );
    assert.equal(jt.problems.find((p: { code: string }) => p.code === 'hef/outdated').severity, 'error');

    const old = await run('--json', '--hailort-version', '4.20.1', file);
    assert.equal(old.code, 0, old.out.slice(0, 400));
    const jo = JSON.parse(old.out);
    assert.deepEqual([jo.runtime.chosen.version, jo.runtime.chosen.outcome], ['4.20.1', 'loads']);
    const outdated = jo.problems.find((p: { code: string }) => p.code === 'hef/outdated');
    assert.equal(outdated.severity, 'warning');
    assert.match(outdated.message, /HailoRT 4\.21\.0 on only; the chosen HailoRT 4\.20\.1 does not refuse it for this\.$/);
    assert.equal((await run('--hailort-version', '4.21.0', file)).code, 2);
    assert.equal((await run('--hailort-version', '4.18.0', file)).code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 36: a release is never refused for being new (or old); only a string that is no version is.
test('cli hef --hailort-version: any release is judged (4.17.1, 4.24.0, 5.3.2, 5.5.0, 6.0.0, 5.2, 5.2.0-rc1); only a non-version is refused in one sentence', async () => {
  for (const any of ['4.17.1', '4.24.0', '5.3.0', '5.3.2', '5.5.0', '6.0.0', '5.2', '5.2.0-rc1', '5.2.7']) {
    const r = await run('--json', '--hailort-version', any, '/nonexistent/model.hef');
    assert.equal(r.code, 2, any);
    // The file is then read: here it is missing, and that is the only complaint.
    assert.match(r.out, /cannot open/, any);
    assert.doesNotMatch(r.out + r.err, /--hailort-version/, any);
  }
  for (const bad of ['latest', '5', 'five.three', '5.3.x']) {
    const r = await run('--hailort-version', bad, '/nonexistent/model.hef');
    assert.equal(r.code, 2, bad);
    assert.equal(r.err, `hailo-tools hef: --hailort-version: '${bad}' is not a HailoRT version: give it as X.Y.Z, e.g. 4.23.0 or 5.3.2.\n`);
  }
  const missing = await run('--hailort-version');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^hailo-tools hef: --hailort-version: it needs a release X\.Y\.Z/);
});

test("cli hef --hailort-version 5.3.2: judged by 5.2.0's Hef::create plus what 5.3 is known to change, and the text says so", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hef-release-'));
  try {
    const file = join(dir, 'v3.hef');
    writeFileSync(file, await buildHef({ ...outdatedHailo8, version: 3, hwArch: 103, extensions: [0, 3, 12, 26] }));
    const r = await run('--hailort-version', '5.3.2', file);
    assert.equal(r.code, 0, r.out.slice(0, 600));
    assert.match(r.out, /^HailoRT 5\.3\.2 \(chosen; the verdict that counts\): loads$/m);
    assert.match(r.out, /^ {4}HailoRT 5\.3\.2: judged by 5\.2's rules plus what 5\.3 is known to change: HEFs from 5\.2 load\.$/m);
    const j = JSON.parse((await run('--json', '--hailort-version', '5.5.0', file)).out);
    assert.match(
      j.runtime.chosen.judgedBy,
      /^HailoRT 5\.5\.0: judged by 5\.2's rules plus what 5\.3 is known to change: .*nothing newer than 5\.4 is on record/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// HEFs from DFC 3.34 need HailoRT 4.24 (a user's deploy note: 4.23 answered HAILO_INVALID_HEF; another:
// "DFC 3.34.0 HEFs load fine on HailoRT 4.24.0" — ../shared/docs/hailo-users-2026.md §1 row 4).
test('cli hef: a Hailo-8 HEF from DFC 3.34 is judged by 4.24 (loads, exit 0); --hailort-version 4.23.0 refuses it naming 4.24; DFC 3.33 loads on 4.23', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hef-release-'));
  try {
    const h8 = { ...outdatedHailo8, extensions: [0, 3, 12, 26] };
    const file = join(dir, 'dfc334.hef');
    writeFileSync(file, await buildHef({ ...h8, sdk: [3, 34, 0] }));
    const byFile = await run('--json', file);
    assert.equal(byFile.code, 0, byFile.out.slice(0, 600));
    const j = JSON.parse(byFile.out);
    assert.deepEqual([j.runtime.chosen.version, j.runtime.chosen.outcome], ['4.24.0', 'loads']);
    assert.match(j.runtime.chosenFor, /DFC 3\.34\.0/);
    const old = await run('--hailort-version', '4.23.0', file);
    assert.equal(old.code, 2);
    assert.match(old.out, /HailoRT 4\.23\.0 \(chosen; the verdict that counts\): refuses with 26 HAILO_INVALID_HEF — .*need HailoRT 4\.24 or newer/);
    assert.equal((await run('--hailort-version', '4.24.1', file)).code, 0);
    const older = join(dir, 'dfc333.hef');
    writeFileSync(older, await buildHef({ ...h8, sdk: [3, 33, 0] }));
    assert.equal((await run('--hailort-version', '4.23.0', older)).code, 0);
    assert.equal(JSON.parse((await run('--json', older)).out).runtime.chosen, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the reader without a release (inspector, Problems) judges by the target line and sets no chosen verdict', async () => {
  const report = await readHef(bufferSource(await buildHef(outdatedHailo8), 'outdated.hef'));
  assert.equal(report.runtime?.chosen, undefined);
  assert.equal(report.runtime?.verdicts.length, 5);
  assert.equal(report.problems.find((p) => p.code === 'hef/outdated')?.severity, 'error');
});

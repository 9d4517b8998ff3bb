// `hailo-tools hef`: the JSON document's shape (issue 3) and the exit codes
// (0 read fine / contract passes, 1 contract fails, 2 not a readable intact HEF).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { main } from '../../../server/src/cli/main';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const fx = (name: string) => join(repoRoot, 'test', 'fixtures', 'hef', name);

async function run(...args: string[]) {
  const io = captureIO();
  const code = await main(['hef', ...args], io);
  return { code, out: io.outText, err: io.errText };
}

test('cli hef --json: the document has the shape of issue 3', async () => {
  const { code, out } = await run('--json', '--mtmd', fx('mtmd-pass.hef'));
  assert.equal(code, 0);
  const j = JSON.parse(out);
  assert.deepEqual(Object.keys(j).slice(0, 6), ['container', 'hwArch', 'sdkVersion', 'networkGroups', 'externalResources', 'mtmd']);
  assert.deepEqual({ version: j.container.version, headerSize: j.container.headerSize }, { version: 3, headerSize: 56 });
  assert.equal(typeof j.container.protoSize, 'number');
  assert.deepEqual(Object.keys(j.container.integrity).slice(0, 3), ['ok', 'check', 'detail']);
  assert.equal(j.container.integrity.ok, true);
  assert.equal(j.container.integrity.check, 'xxh3');
  assert.deepEqual(j.hwArch, { id: 103, name: 'HAILO1XH', compatibleDevices: ['HAILO15H', 'HAILO10H'] });
  assert.equal(j.sdkVersion, '5.4.0');
  const ng = j.networkGroups[0];
  assert.equal(ng.name, 'qwen3vl_vit');
  assert.deepEqual(ng.networks, ['qwen3vl_vit/qwen3vl_vit']);
  assert.deepEqual(
    { name: ng.inputs[0].name, shape: ng.inputs[0].shape, order: ng.inputs[0].order, type: ng.inputs[0].type, quant: ng.inputs[0].quant },
    { name: 'qwen3vl_vit/input_layer1', shape: [512, 512, 3], order: 'NHWC', type: 'UINT8', quant: { zp: 0, scale: 1, limvals: [0, 255] } },
  );
  assert.equal(ng.outputs.length, 4);
  assert.deepEqual(ng.outputs[0].quant, { zp: 120, scale: 0.02, limvals: [-2.4, 2.7] });
  assert.deepEqual(
    j.externalResources.map((r: { name: string; size: number; checksumOk: boolean }) => [r.name, typeof r.size, r.checksumOk]),
    [['hailo-config.json', 'number', true]],
  );
  assert.equal(j.mtmd.pass, true);
  for (const r of j.mtmd.rules) {
    assert.deepEqual(Object.keys(r).slice(0, 3), ['id', 'pass', 'detail']);
    assert.equal(r.pass, true, r.id);
  }
});

test('cli hef: exit 0 for an intact HEF without --mtmd, 1 with --mtmd when the contract fails', async () => {
  assert.equal((await run('--json', fx('mtmd-fail-four-outputs.hef'))).code, 0);
  const failing = await run('--json', '--mtmd', fx('mtmd-fail-four-outputs.hef'));
  assert.equal(failing.code, 1);
  const j = JSON.parse(failing.out);
  assert.equal(j.mtmd.pass, false);
  const rule = j.mtmd.rules.find((r: { id: string }) => r.id === 'four-outputs');
  assert.equal(rule.pass, false);
  assert.equal(rule.llamaError, 'HEF must have exactly 4 outputs, but got 3');
});

test('cli hef: exit 2 for a damaged HEF, and the JSON still carries what was read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hef-cli-'));
  try {
    const bytes = readFileSync(fx('mtmd-pass.hef'));
    const cut = join(dir, 'cut.hef');
    writeFileSync(cut, bytes.subarray(0, 3000)); // inside the padding: body intact, CCWs gone
    const r = await run('--json', '--mtmd', cut);
    assert.equal(r.code, 2);
    const j = JSON.parse(r.out);
    assert.equal(j.container.integrity.ok, false);
    assert.equal(j.networkGroups[0].outputs.length, 4, 'the intact body was still read');
    assert.ok(j.problems.some((p: { code: string }) => p.code === 'hef/truncated'));
    assert.ok(j.mtmd, 'the contract is still reported');

    const flipped = join(dir, 'flipped.hef');
    const b = Buffer.from(bytes);
    b[b.length - 100] ^= 0x01; // inside the additional info: full XXH3 fails
    writeFileSync(flipped, b);
    assert.equal((await run('--json', flipped)).code, 2);

    const notHef = join(dir, 'x.hef');
    writeFileSync(notHef, 'hello world, not a hef');
    const n = await run('--json', notHef);
    assert.equal(n.code, 2);
    const nj = JSON.parse(n.out);
    assert.equal(nj.container, null);
    assert.equal(nj.problems[0].code, 'hef/bad-magic');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cli hef: a bad resource checksum makes the HEF not intact (exit 2)', async () => {
  const r = await run('--json', '--mtmd', fx('resource-bad-checksum.hef'));
  assert.equal(r.code, 2);
  const j = JSON.parse(r.out);
  assert.equal(j.externalResources[0].checksumOk, false);
  assert.equal(j.mtmd.rules.find((x: { id: string }) => x.id === 'config-embedded').llamaError, "Resource 'hailo-config.json' checksum does not match");
});

test('cli hef: usage errors exit 2 with a message', async () => {
  assert.equal((await run()).code, 2);
  assert.match((await run('--bogus', 'x.hef')).err, /unknown option '--bogus'/);
  assert.match((await run('a.hef', 'b.hef')).err, /expected exactly one FILE, got 2/);
  const missing = await run('/nonexistent/dir/x.hef');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot open/);
  assert.match((await run('--help')).out, /usage: hailo-tools hef/);
});

test('cli hef: text output reads like hailortcli parse-hef plus integrity and the contract table', async () => {
  const { code, out } = await run('--mtmd', '--text-model-width', '10240', fx('mtmd-pass.hef'));
  assert.equal(code, 0);
  assert.match(out, /^HEF Compatible for: HAILO15H, HAILO10H$/m);
  assert.match(out, /^HEF Compiler Version: 5\.4\.0$/m);
  assert.match(out, /^Network group name: qwen3vl_vit, Single Context$/m);
  assert.match(out, /^ {4}Network name: qwen3vl_vit\/qwen3vl_vit$/m);
  assert.match(out, /^ {12}Input {2}qwen3vl_vit\/input_layer1 UINT8, NHWC\(512x512x3\)$/m);
  assert.match(out, /^ {12}Output qwen3vl_vit\/image_embeddings UINT8, NHWC\(16x16x2560\)$/m);
  assert.match(out, /^Integrity: OK \(xxh3\)/m);
  assert.match(out, /PASS {2}text-model-width/);
  assert.match(out, /=> meets the mtmd contract/);
  const wrong = await run('--mtmd', '--text-model-width', '4096', fx('mtmd-pass.hef'));
  assert.equal(wrong.code, 1);
  assert.match(wrong.out, /mismatch between text model \(n_embd_inp = 4096\) and HEF \(n_embd_inp = 10240\)\./);
});

test(
  'cli hef: the exit code follows what the targeted HailoRT does (real libhailort 5.2.0: New1V2 91, mspn loads)',
  { skip: sharedPath('corpus', 'hef') ? false : SKIP_NO_SHARED },
  async () => {
    const dir = sharedPath('corpus', 'hef')!;
    type V = { line: string; outcome: string; status?: number };
    // darrr05__New1V2 (V2, hailo8l): body cut off — 4.21 on refuse it with 91 (real 5.2.0: 91), 4.20
    // with 26 (no 91 before 4.21), 4.18–4.19 read no V2 (validate_hef_header: 8) — hef.cpp of the tags.
    const cut = await run('--json', join(dir, 'darrr05__New1V2.hef'));
    assert.equal(cut.code, 2);
    const jc = JSON.parse(cut.out);
    assert.equal(jc.container.integrity.ok, false);
    assert.ok(jc.problems.some((p: { code: string; severity: string }) => p.code === 'hef/truncated' && p.severity === 'error'));
    assert.deepEqual(
      jc.runtime.verdicts.map((v: V) => [v.line, v.outcome, v.status]),
      [['4.18-4.19', 'refuses', 8], ['4.20', 'refuses', 26], ...['4.21-4.23', '5.0', '5.1-5.2'].map((l) => [l, 'refuses', 91])],
    );
    // mspn_regnetx_800mf (V3): cut inside its CCWs, body intact — 5.2.0 loads it (real), 4.21–5.0
    // refuse it with 91 (full length check, read in their source), 4.20 and older cannot read V3
    // (26, 8): exit 0, the cut is a warning.
    const mspn = await run('--json', join(dir, 'seeed10h__mspn_regnetx_800mf.hef'));
    assert.equal(mspn.code, 0, mspn.out.slice(0, 400));
    const jm = JSON.parse(mspn.out);
    assert.equal(jm.runtime.target, '5.1-5.2');
    assert.deepEqual(
      jm.runtime.verdicts.map((v: V) => [v.line, v.outcome, v.status]),
      [
        ['4.18-4.19', 'refuses', 8],
        ['4.20', 'refuses', 26],
        ['4.21-4.23', 'refuses', 91],
        ['5.0', 'refuses', 91],
        ['5.1-5.2', 'loads', undefined],
      ],
    );
    const truncated = jm.problems.find((p: { code: string }) => p.code === 'hef/truncated');
    assert.equal(truncated.severity, 'warning');
    assert.match(truncated.message, /HailoRT 5\.1–5\.2 opens it anyway.*computes garbage.*HailoRT 4\.21–4\.23 refuses it with 91 HAILO_HEF_FILE_CORRUPTED/);
    assert.equal((await run('--json', join(dir, 'arcface_mobilefacenet.hef'))).code, 0);
  },
);

test('cli hef: an outdated HEF (no extension 26) exits 2 with status 92 named, as HailoRT refuses it', async () => {
  const r = await run(fx('mtmd-fail-hef-opens.hef'));
  assert.equal(r.code, 2);
  assert.match(r.out, /HailoRT 5\.1–5\.2 \(target\): refuses with 92 HAILO_HEF_NOT_SUPPORTED — Hef has periph_calculation_in_hailort feature disabled/);
  assert.doesNotMatch(r.out, /status 91/);
});

test('cli hef --streams: boundary streams with device order and the op that consumes them', async () => {
  const { code, out } = await run('--streams', fx('netflow-yolov8-nms.hef'));
  assert.equal(code, 0);
  assert.match(out, /^ {8}Stream infos:$/m);
  assert.match(out, /^ {12}Input {2}yolov8n\/input_layer1 UINT8, NHCW\(640x640x3\)$/m);
  assert.match(out, /^ {12}Output yolov8n\/conv41 UINT8, NHCW\(80x80x64\)$/m);
  assert.match(out, /consumes yolov8n\/conv41, yolov8n\/conv42/);
  assert.match(
    out,
    /Output yolov8n\/yolov8_nms_postprocess FLOAT32, HAILO NMS BY CLASS\(number of classes: 80, maximum bounding boxes per class: 100, maximum frame size: 160320\)/,
  );
});

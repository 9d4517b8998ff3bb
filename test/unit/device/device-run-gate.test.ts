// The pre-run gate (server/src/core/device/runGate.ts) against answers it was not derived from: what
// the real libhailort 5.2.0 and 4.23.0 said about the corpus HEFs, their 108 damaged copies and the
// committed fixtures (../shared/corpus/hef/libhailort-*/: Hef::create's status, a crash, and
// get_compatible_device_archs), HailoRT's compatibility table (DeviceBase::
// hef_arch_to_device_compatible_archs, docs/research/hef-format.md) and 4.x's is_hef_compatible as
// quoted below, HailoRT's refusal of the other device family (pcie_device.cpp,
// docs/research/hailort5-api.md#versions-and-devices), and its order (its C example
// vstreams_example.c: the scan, the Hef created without a device, the VDevice, then configure). The agreement of the extension,
// the CLI and the worker is test/device/run-gate-agreement.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bufferSource, readHef, readHefFile, type HefReport } from '../../../server/src/core/hef';
import { DEVICE_ARCHITECTURES } from '../../../server/src/core/device/names';
import { gateBeforeRun, runGate, type GateInput, type GateVerdict } from '../../../server/src/core/device/runGate';
import { hostFrameBytes } from '../../../server/src/core/device/frameBytes';
import type { DeviceInfo } from '../../../server/src/core/device/protocol';
import { buildHef, type HefSpec } from '../../helpers/hefBuilder';
import { mutant, mutantRows } from '../../helpers/hefMutants';
import { ARCH_HEF_IDS, archHefSpec, classifierV2Spec, largeFrameHefSpec } from '../../helpers/inlineHefs';
import { projectRoot } from '../../helpers/projectRoot';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const device = (architecture: string, firmware = '5.2.0 (release,app)'): DeviceInfo => ({
  id: `0000:0${DEVICE_ARCHITECTURES.indexOf(architecture)}:00.0`,
  architecture,
  architectureId: DEVICE_ARCHITECTURES.indexOf(architecture),
  firmware,
  serial: '',
  boardName: '',
  partNumber: '',
  productName: '',
});
const H10 = device('HAILO10H');
const scan = (hailortVersion: string, devices: DeviceInfo[], driver: 'loaded' | 'missing' = 'loaded'): GateInput['scan'] => ({
  runtime: { hailortVersion, shimPath: '', libraryPath: '', fake: false },
  devices,
  driver,
});
const gate = (report: HefReport, title: string, version: string, devices: DeviceInfo[]) => runGate({ title, report, scan: scan(version, devices) });
const hef = (name: string) => join(repoRoot, 'test', 'fixtures', 'hef', name);
const refusal = (v: GateVerdict) => (v.action === 'refuse' ? v.error : undefined);

// ---- the real libraries' answers ----

const dir = sharedPath('corpus', 'hef');
const real52 = sharedPath('corpus', 'hef', 'libhailort-5.2.0');
const real423 = sharedPath('corpus', 'hef', 'libhailort-4.23.0');
const CORPUS = [
  'arcface_mobilefacenet',
  'darrr05__New1V2',
  'mnist_model_v_0cd51b2',
  'seeed10h__face_landmarks_lite',
  'seeed10h__lightface_slim',
  'seeed10h__mspn_regnetx_800mf',
];
/** Every device family a HEF might meet. */
const DEVICES = ['HAILO8', 'HAILO8L', 'HAILO10H', 'HAILO15H', 'HAILO15L', 'HAILO15M', 'HAILO12L'];
const HAILO8_FAMILY = new Set(['HAILO8', 'HAILO8L', 'HAILO8_A0']);

interface RealAnswer {
  ok: boolean;
  status?: string;
  crashed?: boolean;
  archs?: string[];
}
const answer = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RealAnswer;

/** What the gate must say about a file the real library refused or crashed on (any device). */
function expectRefusal(v: GateVerdict, real: { status: number; crashed?: boolean }, fileSize: number): string | undefined {
  // A file with no bytes is our reader's to say (rule 2); HailoRT's answer to it is 14.
  const rule = fileSize === 0 ? 'hef-unreadable' : real.crashed ? 'hailort-crashes' : 'hailort-refuses';
  if (v.rule !== rule) return `rule ${v.rule}, expected ${rule}`;
  if (rule === 'hailort-refuses' && refusal(v)?.status !== real.status) return `status ${refusal(v)?.status}, real ${real.status}`;
  return undefined;
}

test(
  'gate, libhailort 5.2.0: the corpus HEFs run exactly on the devices it lists, are refused with its status, and the other family is refused',
  { skip: dir && real52 ? false : SKIP_NO_SHARED },
  async () => {
    const wrong: string[] = [];
    for (const name of CORPUS) {
      const facts = answer(join(real52!, `${name}.json`));
      const report = await readHefFile(join(dir!, `${name}.hef`));
      for (const d of DEVICES) {
        const v = gate(report, `${name}.hef`, '5.2.0', [device(d)]);
        let why: string | undefined;
        if (!facts.ok) why = expectRefusal(v, { status: Number(String(facts.status).split(' ')[0]) }, report.fileSize);
        // SOURCES.md: mspn was truncated upstream (its config words cut); 5.2.0 opens it, the gate keeps it home.
        else if (name === 'seeed10h__mspn_regnetx_800mf') why = v.rule === 'config-damaged' ? undefined : `rule ${v.rule}, expected config-damaged`;
        else {
          const expected = HAILO8_FAMILY.has(d) ? 'runtime-refuses-device' : facts.archs!.includes(d) ? 'runs' : 'arch-mismatch';
          if (v.rule !== expected) why = `rule ${v.rule}, expected ${expected} (real archs ${facts.archs!.join(', ')})`;
        }
        if (why) wrong.push(`${name} on ${d}: ${why}`);
      }
    }
    assert.deepEqual(wrong, []);
  },
);

test(
  'gate, libhailort 5.2.0: the 108 damaged copies — refused with its status, or (opened) kept home when their config words changed',
  { skip: dir && real52 ? false : SKIP_NO_SHARED },
  async () => {
    const rows = mutantRows(join(real52!, 'mutants.tsv'));
    assert.equal(rows.length, 108);
    const wrong: string[] = [];
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const bytes = mutant(readFileSync(join(dir!, row.source)), row.mutation, row.parameter);
      const report = await readHef(bufferSource(bytes, row.source));
      const d = answer(join(real52!, row.source.replace(/\.hef$/, '.json'))).archs?.[0] ?? 'HAILO8';
      const v = gate(report, row.source, '5.2.0', [device(d)]);
      counts[v.rule] = (counts[v.rule] ?? 0) + 1;
      let why: string | undefined;
      if (row.status !== 0) why = expectRefusal(v, { status: row.status }, bytes.length);
      else {
        // The README's accepted V3 kinds: a cut inside the CCWs and a flipped byte 100 from the end
        // change config words; an appended byte or a wrong magic change nothing HailoRT reads — but
        // mspn was cut upstream (SOURCES.md), so every copy of it stays cut.
        const changesConfig = row.mutation === 'truncate' || row.mutation === 'xor-ff' || row.source === 'seeed10h__mspn_regnetx_800mf.hef';
        const expected = changesConfig ? 'config-damaged' : 'runs';
        if (v.rule !== expected) why = `rule ${v.rule}, expected ${expected}`;
      }
      if (why) wrong.push(`${row.source} ${row.mutation} ${row.parameter}: ${why}`);
    }
    assert.deepEqual(wrong, []);
    // 93 refused, 15 opened (README summary); each opened copy is either run or kept home.
    assert.equal((counts['hailort-refuses'] ?? 0) + (counts['hef-unreadable'] ?? 0), 93);
    assert.equal((counts.runs ?? 0) + (counts['config-damaged'] ?? 0), 15);
  },
);

test(
  'gate, libhailort 4.23.0: crashes are never opened, refusals carry its status, Hailo-1X files meet its refusal of that family',
  { skip: dir && real423 ? false : SKIP_NO_SHARED },
  async () => {
    const wrong: string[] = [];
    const judge = async (name: string, bytes: Buffer, facts: RealAnswer) => {
      const report = await readHef(bufferSource(bytes, name));
      const d = facts.archs?.[0] ?? 'HAILO8';
      const v = gate(report, name, '4.23.0', [device(d, '4.23.0 (release)')]);
      let why: string | undefined;
      if (!facts.ok) why = expectRefusal(v, { status: Number(String(facts.status).split(' ')[0]), crashed: facts.crashed }, bytes.length);
      else {
        // 4.23 answers a Hailo-1X device with HAILO_NOT_SUPPORTED (pcie_device.cpp; docs/research/hailort5-api.md).
        const expected = HAILO8_FAMILY.has(d) ? 'runs' : 'runtime-refuses-device';
        if (v.rule !== expected) why = `rule ${v.rule} on ${d}, expected ${expected}`;
      }
      if (why) wrong.push(`${name}: ${why}`);
      return v.rule;
    };
    const crashed: string[] = [];
    for (const name of CORPUS) {
      if ((await judge(name, readFileSync(join(dir!, `${name}.hef`)), answer(join(real423!, `${name}.json`)))) === 'hailort-crashes') crashed.push(name);
    }
    const committed = execFileSync('git', ['ls-files', '*.hef'], { cwd: projectRoot, encoding: 'utf8' }).trim().split('\n');
    for (const rel of committed) {
      const facts = join(real423!, 'fixtures', basename(rel).replace(/\.hef$/, '.json'));
      if (!existsSync(facts)) continue; // committed after the run
      if ((await judge(basename(rel), readFileSync(join(projectRoot, rel)), answer(facts))) === 'hailort-crashes') crashed.push(basename(rel, '.hef'));
    }
    for (const row of mutantRows(join(real423!, 'mutants.tsv'))) {
      const bytes = mutant(readFileSync(join(dir!, row.source)), row.mutation, row.parameter);
      const name = `${row.source} ${row.mutation} ${row.parameter}`;
      await judge(
        name,
        bytes,
        row.status === 0 ? { ok: true, archs: answer(join(real423!, row.source.replace(/\.hef$/, '.json'))).archs } : { ok: false, status: String(row.status) },
      );
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual(crashed.sort(), ['netflow-yolov8-nms', 'seeed10h__lightface_slim']);
  },
);

// ---- HailoRT's source, as the shared docs quote it ----

test('gate, 5.x: a HEF runs on the devices of hef_arch_to_device_compatible_archs (docs/research/hef-format.md), and on no other', async () => {
  // HailoRT src/device_common/device_internal.cpp 736-763 (as ../shared/docs/hef-format.md tabulates it), for the ids the catalogue builds.
  const TABLE: Record<number, string[]> = {
    0: ['HAILO8'],
    1: ['HAILO8'],
    2: ['HAILO8'],
    3: ['HAILO8L', 'HAILO8'],
    4: ['HAILO15M', 'HAILO15H', 'HAILO10H'],
    6: ['HAILO15L'],
    103: ['HAILO15H', 'HAILO10H'],
  };
  const wrong: string[] = [];
  for (const id of ARCH_HEF_IDS) {
    const report = await readHef(bufferSource(await buildHef(archHefSpec(id)), `arch-${id}.hef`));
    for (const d of DEVICES) {
      const v = gate(report, `arch-${id}.hef`, '5.2.0', [device(d)]);
      // pcie_device.cpp (docs/research/hailort5-api.md#versions-and-devices): 5.x answers a Hailo-8-family device with 79 before any HEF is judged.
      const expected = HAILO8_FAMILY.has(d) ? 'runtime-refuses-device' : TABLE[id].includes(d) ? 'runs' : 'arch-mismatch';
      if (v.rule !== expected) wrong.push(`hw_arch ${id} on ${d}: ${v.rule}, expected ${expected}`);
    }
  }
  assert.deepEqual(wrong, []);
});

// HailoRT 4.x's DeviceBase::is_hef_compatible (device_common/device_internal.cpp, v4.18.0-v4.23.0):
//   case HAILO_ARCH_HAILO8:  return (hef_arch == HAILO8P) || (hef_arch == HAILO8R) || (hef_arch == HAILO8L);
//   case HAILO_ARCH_HAILO8L: return (hef_arch == HAILO8L);
// and its warning "HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will
// result in lower performance." — the Raspberry Pi AI Kit (Hailo-8L) vs AI HAT+ 26 TOPS (Hailo-8).
test("gate, HailoRT 4.x: is_hef_compatible's table, its warning for a Hailo-8L HEF on a Hailo-8, and 5.x's different answer for hw_arch 0", async () => {
  const H8 = device('HAILO8', '4.20.0 (release)');
  const H8L = device('HAILO8L', '4.20.0 (release)');
  const v2 = async (id: number) => readHef(bufferSource(await buildHef(classifierV2Spec(id)), `arch-${id}.hef`));
  const runsOn: Record<string, number[]> = { HAILO8: [1, 2, 3], HAILO8L: [3] };
  for (const id of [0, 1, 2, 3]) {
    const report = await v2(id);
    for (const d of [H8, H8L]) {
      const v = gate(report, 'yolov8s.hef', '4.20.0', [d]);
      const ok = runsOn[d.architecture].includes(id);
      assert.equal(v.action !== 'refuse', ok, `hw_arch ${id} on ${d.architecture}: ${v.rule}`);
      assert.equal(v.action === 'warn', id === 3 && d === H8, `hw_arch ${id} on ${d.architecture}: ${v.action}`);
      if (v.action === 'warn') assert.match(v.warnings[0], /lower performance/);
    }
  }
  const refused = gate(await v2(1), 'yolov8s.hef', '4.20.0', [H8L]);
  assert.equal(
    refusal(refused)?.sentence,
    'yolov8s.hef was compiled for hailo8; HailoRT 4.20.0 runs only hailo8l HEFs on a HAILO8L: recompile it with the Dataflow Compiler (--hw-arch hailo8l).',
  );
  assert.equal(refusal(refused)?.gate, 'arch-mismatch');
  // HW_ARCH__HAILO8 (0) is not in 4.x's Hailo-8 list (the DFC writes HAILO8P, 1); 5.x maps it to HAILO8 — and refuses the device.
  assert.equal(gate(await v2(0), 'legacy.hef', '4.23.0', [H8]).rule, 'arch-mismatch');
  assert.equal(gate(await v2(0), 'legacy.hef', '5.2.0', [H8]).rule, 'runtime-refuses-device');
});

// ---- the device HailoRT would take ----

test('gate: no device, no driver, a device HailoRT could not identify — each said before any architecture verdict', async () => {
  const report = await readHefFile(hef('mtmd-pass.hef'));
  assert.equal(runGate({ title: 'x.hef', report, scan: scan('5.2.0', [], 'loaded') }).rule, 'no-device');
  const noDriver = runGate({ title: 'x.hef', report, scan: scan('5.2.0', [], 'missing') });
  assert.equal(noDriver.rule, 'driver-missing');
  assert.equal(refusal(noDriver)?.kind, 'driver-missing');
  const { errorFromStatus } = await import('../../../server/src/core/device/errors');
  const unidentified: DeviceInfo = {
    ...H10,
    architecture: 'unknown',
    architectureId: -1,
    identifyError: errorFromStatus(86, 'Device::create on 0000:01:00.0', { during: 'create-vdevice', system: { hailortVersion: '5.1.1' } }),
  };
  const r = gate(report, 'mtmd-pass.hef', '5.1.1', [unidentified]);
  assert.equal(r.rule, 'device-unidentified');
  assert.equal(refusal(r)?.kind, 'driver-mismatch');
  assert.doesNotMatch(refusal(r)?.sentence ?? '', /architecture|recompile/i);
  // An identified device after one that is not: that one is judged.
  assert.equal(gate(report, 'mtmd-pass.hef', '5.2.0', [unidentified, H10]).rule, 'runs');
  // VDevice without device ids takes the first device of the scan (hailo_vdevice_params_t defaults: no device ids; docs/research/hailort5-api.md#busy-devices-and-sharing), so
  // that is the one judged — not any device the HEF would run on.
  const first = gate(report, 'mtmd-pass.hef', '5.2.0', [device('HAILO15L'), H10]);
  assert.equal(first.rule, 'arch-mismatch');
  assert.equal(first.arch?.device, 'HAILO15L');
});

test("gate: the file is judged before the device (HailoRT's vstreams_example.c creates the Hef before any device)", async () => {
  const report = await readHefFile(hef('mtmd-fail-hef-opens.hef'));
  assert.equal(runGate({ title: 'old.hef', report, scan: scan('5.2.0', [], 'missing') }).rule, 'hailort-refuses');
  // A missing file is said without asking the device at all.
  let scanned = false;
  const missing = await gateBeforeRun('nope.hef', await readHefFile(join(tmpdir(), 'hailo-no-such-dir', 'nope.hef')), () => {
    scanned = true;
    return scan('5.2.0', [H10]);
  });
  assert.equal(missing.rule, 'hef-unreadable');
  assert.equal(refusal(missing)?.kind, 'hef-missing');
  assert.match(refusal(missing)?.sentence ?? '', /^The HEF was not read: cannot open '.*nope\.hef': no such file; check the path\.$/);
  assert.equal(scanned, false);
});

test('gate: a Hailo-1X HEF on a Hailo-10H runs and records both sides; a Hailo-8 one is refused in one sentence', async () => {
  const r = gate(await readHefFile(hef('mtmd-pass.hef')), 'mtmd-pass.hef', '5.2.0', [H10]);
  assert.equal(r.action, 'allow');
  if (r.action === 'allow') assert.deepEqual(r.arch, { hefArch: 'HAILO1XH', compatible: ['HAILO15H', 'HAILO10H'], device: 'HAILO10H', ok: true });
  const bad = gate(await readHefFile(hef('mtmd-fail-arch.hef')), 'mtmd-fail-arch.hef', '5.2.0', [H10]);
  assert.equal(refusal(bad)?.kind, 'arch-mismatch');
  assert.equal(
    refusal(bad)?.sentence,
    'mtmd-fail-arch.hef was compiled for hailo8 (runs on HAILO8), but the device is a HAILO10H: recompile it with the Dataflow Compiler (--hw-arch hailo10h).',
  );
});

test('gate: what the installed HailoRT refuses is refused first, with its real status; cut config words are not sent to the device', async () => {
  // A resource checksum is not checked by Hef::create (nor by an InferModel run): it runs.
  assert.equal(gate(await readHefFile(hef('resource-bad-checksum.hef')), 'resource-bad-checksum.hef', '5.2.0', [H10]).action, 'allow');
  // The outdated fixture (no extension 26): HailoRT 4.21 on refuses it with 92; the installed release (5.2.0) is named.
  const old = refusal(gate(await readHefFile(hef('mtmd-fail-hef-opens.hef')), 'old.hef', '5.2.0', [H10]));
  assert.equal(old?.kind, 'hef-not-supported');
  assert.equal(old?.status, 92);
  assert.match(
    old?.sentence ?? '',
    /^old\.hef was not opened: read before HailoRT, it is a file HailoRT 5\.2\.0 refuses with HAILO_HEF_NOT_SUPPORTED \(Hef has periph_calculation_in_hailort/,
  );
  const tmp = mkdtempSync(join(tmpdir(), 'hailo-gate-'));
  try {
    const bytes = readFileSync(hef('mtmd-pass.hef'));
    // Cut inside the header: HailoRT's file reader fails (14).
    writeFileSync(join(tmp, 'cut.hef'), bytes.subarray(0, 40));
    const cut = refusal(gate(await readHefFile(join(tmp, 'cut.hef')), 'cut.hef', '5.2.0', [H10]));
    assert.equal(cut?.kind, 'hef-unreadable');
    assert.equal(cut?.status, 14);
    // Cut inside the CCWs: 5.2 would open it (real libhailort 5.2.0 opens such copies), 5.0 refuses it with 91.
    writeFileSync(join(tmp, 'half.hef'), bytes.subarray(0, bytes.length >> 1));
    const half52 = gate(await readHefFile(join(tmp, 'half.hef')), 'half.hef', '5.2.0', [H10]);
    assert.equal(half52.rule, 'config-damaged');
    assert.equal(refusal(half52)?.status, null);
    assert.match(refusal(half52)?.sentence ?? '', /^half\.hef was not run: HailoRT 5\.2\.0 would open it .*cut inside its config words/);
    assert.equal(refusal(gate(await readHefFile(join(tmp, 'half.hef')), 'half.hef', '5.0.1', [H10]))?.status, 91);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// ---- the frames HailoRT would allocate ----

// hts_open (native/hailo_shim.cpp) allocates (slots + 1) frames of every stream, zero-filled, before
// the worker sees HailoRT's sizes; so the gate bounds the frames by our reader first. The expected
// sizes are the shapes' own arithmetic: a uint8 NHWC frame is height × width × features bytes
// (HailoRT's get_frame_size for the HEF's default format).
test('gate: an input or output frame over LIMITS.deviceFrameBytes (128 MiB, all streams of it) is refused before the device is scanned; one at the limit runs', async () => {
  const read = async (direction: 'input' | 'output', extra: number) =>
    readHef(bufferSource(await buildHef(largeFrameHefSpec(direction, extra)), `${direction}-${extra}.hef`));
  let scans = 0;
  const scanned = () => (scans++, scan('5.2.0', [H10]));
  for (const direction of ['input', 'output'] as const) {
    const before = scans;
    const over = await gateBeforeRun('big.hef', await read(direction, 10), scanned);
    assert.equal(over.rule, 'frame-too-large', direction);
    assert.equal(refusal(over)?.gate, 'frame-too-large');
    assert.equal(
      refusal(over)?.sentence,
      `big.hef's ${direction} frame (134,217,738 bytes; 'n/${direction === 'input' ? 'in' : 'out'}' 4096x4096x8) is over the limit of 128 MiB: the HEF is not opened, or is closed before any frame is made (one sentence); nothing runs.`,
    );
    assert.equal(scans, before, 'refused from the file alone, before the scan');
    // the whole gate (the scan given) says the same
    assert.equal(gate(await read(direction, 10), 'big.hef', '5.2.0', [H10]).rule, 'frame-too-large');
    // 4096 × 4096 × 8 bytes is the limit itself: it runs
    assert.equal((await gateBeforeRun('at.hef', await read(direction, 0), scanned)).rule, 'runs', direction);
  }
  assert.equal(scans, 2);
  // a normal classifier runs
  assert.equal(gate(await readHef(bufferSource(await buildHef(archHefSpec(103)), 'n.hef')), 'n.hef', '5.2.0', [H10]).rule, 'runs');
});

// A float32 open (hailo-tools run --format float32, Run on Device's format) sets FLOAT32 on every
// stream, and HailoRT's frame is then the element count × 4 bytes (InferStream::get_frame_size,
// docs/research/hailort5-api.md) — a uint8 frame of 32 MiB + 1 byte is 134,217,732 bytes as
// float32, past the limit, though the HEF's own format is far below it. The expected sizes are the
// shapes' arithmetic: (2048 × 4096 × 4 + 1) elements × 4 bytes.
test('gate: the frame bound is on the bytes of the format the model is opened with — a uint8 frame that is over the limit as float32 is refused for a float32 run, runs as uint8', async () => {
  const spec = (extra: number): HefSpec => ({
    version: 3,
    hwArch: 103,
    networkGroups: [
      {
        name: 'n',
        inputs: [
          { name: 'n/in', shape: [2048, 4096, 4] as [number, number, number] },
          ...(extra ? [{ name: 'n/in_extra', shape: [1, 1, extra] as [number, number, number] }] : []),
        ],
        outputs: [{ name: 'n/out', shape: [8, 8, 3] as [number, number, number] }],
      },
    ],
  });
  const over = await readHef(bufferSource(await buildHef(spec(1)), 'big.hef'));
  const at = await readHef(bufferSource(await buildHef(spec(0)), 'at.hef'));
  let scans = 0;
  const scanned = () => (scans++, scan('5.2.0', [H10]));
  const refused = await gateBeforeRun('big.hef', over, scanned, 'float32');
  assert.equal(refused.rule, 'frame-too-large');
  assert.equal(
    refusal(refused)?.sentence,
    "big.hef's float32 input frame (134,217,732 bytes; 'n/in' 2048x4096x4) is over the limit of 128 MiB: the HEF is not opened, or is closed before any frame is made (one sentence); nothing runs.",
  );
  assert.equal(scans, 0, 'refused from the file alone, before the scan');
  assert.equal(runGate({ title: 'big.hef', report: over, scan: scan('5.2.0', [H10]), format: 'float32' }).rule, 'frame-too-large');
  // the same file as uint8 (33,554,433 bytes), and 2048 × 4096 × 4 × 4 bytes (the limit itself) as float32, run
  assert.equal((await gateBeforeRun('big.hef', over, scanned)).rule, 'runs');
  assert.equal((await gateBeforeRun('at.hef', at, scanned, 'float32')).rule, 'runs');
  // the rule per stream: an element is 4 bytes as float32 (a uint16 frame doubles); an NMS output's
  // frame, classes × (1 + 5 · boxes) floats, is float32 already and does not grow
  const nms = { name: 'n/nms', frameSize: 80 * (1 + 5 * 100) * 4, type: 'FLOAT32', order: 'HAILO_NMS_BY_CLASS', shape: [80, 5, 100] };
  assert.equal(hostFrameBytes(nms, 'float32'), 160_320);
  assert.equal(hostFrameBytes({ name: 'u16', frameSize: 2 * 100, type: 'UINT16', order: 'NHWC', shape: [10, 10, 1] }, 'float32'), 400);
  assert.equal(hostFrameBytes({ name: 'u16', frameSize: 2 * 100, type: 'UINT16', order: 'NHWC', shape: [10, 10, 1] }, 'uint8'), 200);
});

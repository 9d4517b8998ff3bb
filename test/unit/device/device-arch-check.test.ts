// Before the device is touched, our HEF reader checks the file and its architecture against what
// the scan found (client/src/device/archCheck.ts): real fixture HEFs — a Hailo-1X HEF on a
// Hailo-10H passes; a Hailo-8 one (hw_arch 1, HAILO8P) is refused in one sentence; a file the
// installed HailoRT refuses is refused with that status (verdict.ts), and cut config words stay home.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkHefForDevice } from '../../../client/src/device/archCheck';
import { readHefFile } from '../../../server/src/core/hef';
import type { DeviceInfo } from '../../../server/src/core/device/protocol';
import { repoRoot } from '../../helpers/shared';

const H10: DeviceInfo = {
  id: '0000:3c:00.0',
  architecture: 'HAILO10H',
  architectureId: 6,
  firmware: '5.2.0 (release,app)',
  serial: '',
  boardName: '',
  partNumber: '',
  productName: '',
};
const hef = (name: string) => join(repoRoot, 'test', 'fixtures', 'hef', name);

test('arch check: a HAILO1XH HEF runs on the Hailo-10H; the check records both sides', async () => {
  const r = checkHefForDevice(await readHefFile(hef('mtmd-pass.hef')), [H10], 'mtmd-pass.hef');
  assert.equal(r.ok, true);
  if (r.ok) assert.deepEqual(r.arch, { hefArch: 'HAILO1XH', compatible: ['HAILO15H', 'HAILO10H'], device: 'HAILO10H', ok: true });
});

test('arch check: a Hailo-8 HEF on a Hailo-10H is refused before anything is opened', async () => {
  const r = checkHefForDevice(await readHefFile(hef('mtmd-fail-arch.hef')), [H10], 'mtmd-fail-arch.hef');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.kind, 'arch-mismatch');
    assert.equal(
      r.error.sentence,
      'mtmd-fail-arch.hef was compiled for hailo8 (runs on HAILO8), but the device is a HAILO10H: recompile it with the Dataflow Compiler (--hw-arch hailo10h).',
    );
  }
  const none = checkHefForDevice(await readHefFile(hef('mtmd-pass.hef')), [], 'x.hef');
  assert.equal(!none.ok && none.error.kind, 'no-device');
});

test('arch check: what the installed HailoRT refuses is refused first, with its real status; cut config words are not sent to the device', async () => {
  // A resource checksum is not checked by Hef::create (nor by an InferModel run): it runs.
  const res = checkHefForDevice(await readHefFile(hef('resource-bad-checksum.hef')), [H10], 'resource-bad-checksum.hef', '5.2.0');
  assert.equal(res.ok, true);
  // The outdated fixture (no extension 26): HailoRT 4.21 on refuses it with 92; the installed release (5.2.0) is named.
  const old = checkHefForDevice(await readHefFile(hef('mtmd-fail-hef-opens.hef')), [H10], 'old.hef', '5.2.0');
  assert.equal(!old.ok && old.error.kind, 'hef-not-supported');
  if (!old.ok) {
    assert.equal(old.error.status, 92);
    assert.match(
      old.error.sentence,
      /^old\.hef was not opened: read before HailoRT, it is a file HailoRT 5\.2\.0 refuses with HAILO_HEF_NOT_SUPPORTED \(Hef has periph_calculation_in_hailort/,
    );
    assert.doesNotMatch(old.error.sentence, /91/);
  }
  const dir = mkdtempSync(join(tmpdir(), 'hailo-arch-'));
  try {
    const bytes = readFileSync(hef('mtmd-pass.hef'));
    // Cut inside the header: HailoRT's file reader fails (14).
    writeFileSync(join(dir, 'cut.hef'), bytes.subarray(0, 40));
    const cut = checkHefForDevice(await readHefFile(join(dir, 'cut.hef')), [H10], 'cut.hef', '5.2.0');
    assert.equal(!cut.ok && cut.error.kind, 'hef-unreadable');
    assert.equal(!cut.ok && cut.error.status, 14);
    // Cut inside the CCWs: 5.2 would open it (real libhailort 5.2.0 opens such copies), 5.0 refuses it with 91.
    writeFileSync(join(dir, 'half.hef'), bytes.subarray(0, bytes.length >> 1));
    const half52 = checkHefForDevice(await readHefFile(join(dir, 'half.hef')), [H10], 'half.hef', '5.2.0');
    assert.equal(!half52.ok && half52.error.kind, 'hef-corrupted');
    assert.equal(!half52.ok && half52.error.status, null);
    if (!half52.ok) assert.match(half52.error.sentence, /^half\.hef was not run: HailoRT 5\.2\.0 would open it .*cut inside its config words/);
    const half50 = checkHefForDevice(await readHefFile(join(dir, 'half.hef')), [H10], 'half.hef', '5.0.1');
    assert.equal(!half50.ok && half50.error.status, 91);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// HailoRT 4.x's DeviceBase::is_hef_compatible (device_common/device_internal.cpp, v4.18.0-v4.23.0):
//   case HAILO_ARCH_HAILO8:  return (hef_arch == HAILO8P) || (hef_arch == HAILO8R) || (hef_arch == HAILO8L);
//   case HAILO_ARCH_HAILO8L: return (hef_arch == HAILO8L);
// and its warning "HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will
// result in lower performance." — the Raspberry Pi AI Kit (Hailo-8L) vs AI HAT+ 26 TOPS (Hailo-8).
const device = (architecture: string, architectureId: number): DeviceInfo => ({ ...H10, architecture, architectureId, firmware: '4.20.0 (release)' });
const H8 = device('HAILO8', 1);
const H8L = device('HAILO8L', 2);

async function classifier(dir: string, hwArch: number): Promise<string> {
  const { buildHef } = await import('../../helpers/hefBuilder');
  const { classifierV2Spec } = await import('../../helpers/inlineHefs');
  const file = join(dir, `arch-${hwArch}.hef`);
  writeFileSync(file, await buildHef(classifierV2Spec(hwArch)));
  return file;
}

test("arch check, HailoRT 4.x: a Hailo-8 HEF is refused on a Hailo-8L; a Hailo-8L HEF runs on a Hailo-8 with HailoRT's warning", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-arch4-'));
  try {
    const hailo8 = await readHefFile(await classifier(dir, 1));
    const hailo8l = await readHefFile(await classifier(dir, 3));
    const refused = checkHefForDevice(hailo8, [H8L], 'yolov8s.hef', '4.20.0');
    assert.equal(refused.ok, false);
    if (!refused.ok) {
      assert.equal(refused.error.kind, 'arch-mismatch');
      assert.equal(
        refused.error.sentence,
        'yolov8s.hef was compiled for hailo8; HailoRT 4.20.0 runs only hailo8l HEFs on a HAILO8L: recompile it with the Dataflow Compiler (--hw-arch hailo8l).',
      );
    }
    const slower = checkHefForDevice(hailo8l, [H8], 'yolov8s_h8l.hef', '4.20.0');
    assert.equal(slower.ok, true);
    if (slower.ok) assert.match(slower.warning ?? '', /lower performance/);
    const same = checkHefForDevice(hailo8l, [H8L], 'yolov8s_h8l.hef', '4.20.0');
    assert.equal(same.ok && same.warning, undefined);
    // HW_ARCH__HAILO8 (0) is not in 4.x's Hailo-8 list (the DFC writes HAILO8P, 1); 5.x maps it to HAILO8.
    const legacy = await readHefFile(await classifier(dir, 0));
    assert.equal(checkHefForDevice(legacy, [H8], 'legacy.hef', '4.23.0').ok, false);
    assert.equal(checkHefForDevice(legacy, [H8], 'legacy.hef', '5.2.0').ok, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('arch check: a device HailoRT could not identify gets its identify failure, never an architecture verdict', async () => {
  const { errorFromStatus } = await import('../../../server/src/core/device/errors');
  const unidentified: DeviceInfo = {
    ...H10,
    architecture: 'unknown',
    architectureId: -1,
    identifyError: errorFromStatus(86, 'Device::create on 0000:01:00.0', { during: 'create-vdevice', system: { hailortVersion: '5.1.1' } }),
  };
  const r = checkHefForDevice(await readHefFile(hef('mtmd-pass.hef')), [unidentified], 'mtmd-pass.hef', '5.1.1');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.kind, 'driver-mismatch');
    assert.doesNotMatch(r.error.sentence, /architecture|recompile/i);
  }
});

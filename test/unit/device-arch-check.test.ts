// Before the device is touched, our HEF reader checks the file and its architecture against what
// the scan found (client/src/device/archCheck.ts): real fixture HEFs — a Hailo-1X HEF on a
// Hailo-10H passes; a Hailo-8 one (hw_arch 1, HAILO8P) is refused in one sentence; a damaged file
// is refused before HailoRT would answer 91; a truncated one is not a readable HEF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkHefForDevice } from '../../client/src/device/archCheck';
import { readHefFile } from '../../server/src/hef';
import type { DeviceInfo } from '../../server/src/device/protocol';
import { repoRoot } from '../helpers/shared';

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
      'mtmd-fail-arch.hef was compiled for HAILO8P, which HailoRT runs on HAILO8; the attached device is HAILO10H. Recompile it for the device with the Dataflow Compiler (--hw-arch).',
    );
  }
  const none = checkHefForDevice(await readHefFile(hef('mtmd-pass.hef')), [], 'x.hef');
  assert.equal(!none.ok && none.error.kind, 'no-device');
});

test('arch check: a damaged or truncated HEF is refused with what our reader found', async () => {
  const bad = checkHefForDevice(await readHefFile(hef('resource-bad-checksum.hef')), [H10], 'resource-bad-checksum.hef');
  assert.equal(!bad.ok && bad.error.kind, 'hef-corrupted');
  if (!bad.ok) assert.match(bad.error.sentence, /^resource-bad-checksum\.hef is damaged \(.+\); HailoRT would refuse it as corrupted \(status 91\)/);
  const dir = mkdtempSync(join(tmpdir(), 'hailo-arch-'));
  try {
    const bytes = readFileSync(hef('mtmd-pass.hef'));
    writeFileSync(join(dir, 'cut.hef'), bytes.subarray(0, 40));
    const cut = checkHefForDevice(await readHefFile(join(dir, 'cut.hef')), [H10], 'cut.hef');
    assert.equal(!cut.ok && cut.error.kind, 'hef-unreadable');
    writeFileSync(join(dir, 'half.hef'), bytes.subarray(0, bytes.length >> 1));
    const half = checkHefForDevice(await readHefFile(join(dir, 'half.hef')), [H10], 'half.hef');
    assert.equal(half.ok, false, 'half a HEF never reaches the device');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

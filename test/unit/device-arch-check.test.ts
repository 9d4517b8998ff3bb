// Before the device is touched, our HEF reader checks the file and its architecture against what
// the scan found (client/src/device/archCheck.ts): real fixture HEFs — a Hailo-1X HEF on a
// Hailo-10H passes; a Hailo-8 one (hw_arch 1, HAILO8P) is refused in one sentence; a file the
// installed HailoRT refuses is refused with that status (verdict.ts), and cut config words stay home.
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

test('arch check: what the installed HailoRT refuses is refused first, with its real status; cut config words are not sent to the device', async () => {
  // A resource checksum is not checked by Hef::create (nor by an InferModel run): it runs.
  const res = checkHefForDevice(await readHefFile(hef('resource-bad-checksum.hef')), [H10], 'resource-bad-checksum.hef', '5.2.0');
  assert.equal(res.ok, true);
  // The outdated fixture (no extension 26): every HailoRT refuses it with 92.
  const old = checkHefForDevice(await readHefFile(hef('mtmd-fail-hef-opens.hef')), [H10], 'old.hef', '5.2.0');
  assert.equal(!old.ok && old.error.kind, 'hef-not-supported');
  if (!old.ok) {
    assert.equal(old.error.status, 92);
    assert.match(
      old.error.sentence,
      /^old\.hef was not opened: read before HailoRT, it is a file HailoRT 5\.1–5\.2 refuses with HAILO_HEF_NOT_SUPPORTED \(Hef has periph_calculation_in_hailort/,
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
    if (!half52.ok) assert.match(half52.error.sentence, /^half\.hef was not run: HailoRT 5\.1–5\.2 would open it .*cut inside its config words/);
    const half50 = checkHefForDevice(await readHefFile(join(dir, 'half.hef')), [H10], 'half.hef', '5.0.1');
    assert.equal(!half50.ok && half50.error.status, 91);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 29: the doctor's roots are a value each run hands to its readers (DoctorFiles), not module
// state. A run with `--root B` once left B's roots behind, and the next reader of another system
// (a test's fake root) read nothing: every path of it was "outside" B. Two fake systems and two
// workspace folders, probed in turn in one process, each see only their own files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { probeSystem } from '../../../server/src/core/doctor/probe';
import { probeFirmware } from '../../../server/src/core/doctor/firmware';
import { DoctorFiles } from '../../../server/src/core/doctor/files';

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

test('doctor: two systems and two workspace folders probed in turn in one process do not read through each other', () => {
  const base = mkdtempSync(join(tmpdir(), 'hailo-doctor-roots-'));
  try {
    const [a, b, fa, fb] = ['sysA', 'sysB', 'wsA', 'wsB'].map((n) => join(base, n));
    write(a, { 'sys/module/hailo_pci/version': '4.20.0\n', 'lib/firmware/hailo/hailo8_fw.bin': 'fw' });
    // B's module version is an absolute link: it resolves inside B (B/etc/hailo-version), never the host's /etc
    write(b, { 'etc/hailo-version': '4.23.0\n', 'lib/firmware/hailo/hailo10h/scu_fw.bin': 'fw' });
    mkdirSync(join(b, 'sys/module/hailo_pci'), { recursive: true });
    symlinkSync('/etc/hailo-version', join(b, 'sys/module/hailo_pci/version'));
    write(fa, { 'venv/lib/python3.11/site-packages/hailo_platform/__init__.py': '__version__ = "4.20.0"\n' });
    write(fb, { 'venv/lib/python3.12/site-packages/hailo_platform/__init__.py': '__version__ = "4.23.0"\n' });

    const a1 = probeSystem(a, fa);
    const b1 = probeSystem(b, fb);
    const a2 = probeSystem(a, fa);
    assert.deepEqual(a1.modules, [{ name: 'hailo_pci', version: '4.20.0' }]);
    assert.deepEqual(b1.modules, [{ name: 'hailo_pci', version: '4.23.0' }]);
    assert.deepEqual(a1.firmware.files, ['/lib/firmware/hailo/hailo8_fw.bin']);
    assert.deepEqual(b1.firmware.files, ['/lib/firmware/hailo/hailo10h/scu_fw.bin']);
    assert.deepEqual(
      a1.wheels.map((w) => [w.path, w.version]),
      [[join(fa, 'venv/lib/python3.11/site-packages/hailo_platform'), '4.20.0']],
    );
    assert.deepEqual(
      b1.wheels.map((w) => [w.path, w.version]),
      [[join(fb, 'venv/lib/python3.12/site-packages/hailo_platform'), '4.23.0']],
    );
    assert.deepEqual(a2, a1, 'the second run on A sees what the first did');

    // a reader used on its own after a run on B reads A, because it is handed A's roots
    assert.deepEqual(probeFirmware(new DoctorFiles(a)).files, ['/lib/firmware/hailo/hailo8_fw.bin']);
    // a run reads the workspace folder it is given, and a file of another folder is outside its roots
    assert.deepEqual(
      probeSystem(a, fb).wheels.map((w) => w.version),
      ['4.23.0'],
    );
    assert.equal(new DoctorFiles(a, fa).readText(join(fb, 'venv/lib/python3.12/site-packages/hailo_platform/__init__.py')), undefined);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

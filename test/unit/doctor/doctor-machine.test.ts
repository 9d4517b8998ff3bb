// Issue 37: the doctor names the machine — the Raspberry Pi model from the device tree, the OS
// release, the kernel and its architecture, the userland's architecture — read under --root.
// The fake Pi is laid out as a real one: the firmware's model string ends in a NUL
// ("Raspberry Pi 5 Model B Rev 1.0\0", as Pi owners' tools read it), /proc/device-tree links to
// /sys/firmware/devicetree/base, /etc/os-release links to /usr/lib/os-release (Debian), and the
// ELF headers carry e_machine 183 (AArch64) / 40 (ARM, 32-bit) as elf.h numbers them. The live
// system is checked against Node's own os.release() / os.machine() (uname).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { machine, release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileRoots } from '../../../server/src/core/common/confined';
import { runDoctor } from '../../../server/src/core/doctor';
import { doctorText } from '../../../server/src/core/doctor/text';
import { probeMachine } from '../../../server/src/core/doctor/machine';

const base = mkdtempSync(join(tmpdir(), 'hailo-tools-doctor-machine-'));
after(() => rmSync(base, { recursive: true, force: true }));

/** The first 20 bytes of an ELF executable: class (1 = 32-bit, 2 = 64-bit), little-endian, e_machine. */
function elfHeader(elfClass: 1 | 2, machineId: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = elfClass;
  b[5] = 1;
  b[6] = 1;
  b.writeUInt16LE(2, 16);
  b.writeUInt16LE(machineId, 18);
  return b;
}

function piRoot(name: string, userland: Buffer, viaProcLink = true): string {
  const root = join(base, name);
  const put = (p: string, data: string | Buffer) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), data);
  };
  put('sys/firmware/devicetree/base/model', 'Raspberry Pi 5 Model B Rev 1.0\0');
  if (viaProcLink) {
    mkdirSync(join(root, 'proc'), { recursive: true });
    symlinkSync('../sys/firmware/devicetree/base', join(root, 'proc', 'device-tree'));
  }
  put('usr/lib/os-release', 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nID=debian\n');
  mkdirSync(join(root, 'etc'), { recursive: true });
  symlinkSync('../usr/lib/os-release', join(root, 'etc', 'os-release'));
  put('proc/sys/kernel/osrelease', '6.6.51+rpt-rpi-2712\n');
  put('proc/sys/kernel/arch', 'aarch64\n');
  put('usr/bin/env', userland);
  return root;
}

test('a Raspberry Pi 5 under --root: model, OS release, kernel and both architectures on one line of the table', async () => {
  const root = piRoot('pi5', elfHeader(2, 183));
  assert.deepEqual(probeMachine(root), {
    model: 'Raspberry Pi 5 Model B Rev 1.0',
    os: 'Debian GNU/Linux 12 (bookworm)',
    kernel: '6.6.51+rpt-rpi-2712',
    kernelArch: 'aarch64',
    userland: 'arm64',
  });
  const report = await runDoctor({ root, noScanReason: 'test' });
  const row = report.components.find((c) => c.kind === 'machine');
  assert.deepEqual(row, {
    kind: 'machine',
    name: 'Raspberry Pi 5 Model B Rev 1.0',
    detail: 'Debian GNU/Linux 12 (bookworm); kernel 6.6.51+rpt-rpi-2712 (aarch64); arm64 userland',
  });
  assert.match(
    doctorText(report),
    /\n {2}Raspberry Pi 5 Model B Rev 1\.0 +Debian GNU\/Linux 12 \(bookworm\); kernel 6\.6\.51\+rpt-rpi-2712 \(aarch64\); arm64 userland\n/,
  );
});

test('a 32-bit Raspberry Pi OS on the 64-bit kernel says armhf userland; the model is found without /proc/device-tree', () => {
  const m = probeMachine(piRoot('pi5-armhf', elfHeader(1, 40), false));
  assert.equal(m.model, 'Raspberry Pi 5 Model B Rev 1.0');
  assert.equal(m.kernelArch, 'aarch64');
  assert.equal(m.userland, 'armhf');
});

test('a PC without a device tree: no model, the row is named "machine"', async () => {
  const root = join(base, 'pc');
  mkdirSync(join(root, 'etc'), { recursive: true });
  writeFileSync(join(root, 'etc', 'os-release'), 'NAME="Ubuntu"\nVERSION="22.04.4 LTS (Jammy Jellyfish)"\n');
  const report = await runDoctor({ root, noScanReason: 'test' });
  assert.deepEqual(
    report.components.find((c) => c.kind === 'machine'),
    { kind: 'machine', name: 'machine', detail: 'Ubuntu 22.04.4 LTS (Jammy Jellyfish)' },
  );
});

test('a hostile model string (control characters, 4 KiB) stays one bounded printable line', () => {
  const root = join(base, 'hostile');
  mkdirSync(join(root, 'proc', 'device-tree'), { recursive: true });
  writeFileSync(join(root, 'proc', 'device-tree', 'model'), 'Pi\x1b[31m red\x07' + 'x'.repeat(3000));
  const model = probeMachine(root).model!;
  assert.doesNotMatch(model, /[\u0000-\u001f]/);
  assert.ok(model.startsWith('Pi[31m red'), model);
  assert.ok(model.length <= 120);
});

test(
  'this machine: procfs files (which report 0 bytes) are read through the file layer and agree with uname',
  { skip: process.platform !== 'linux' && 'procfs is Linux' },
  () => {
    assert.equal(FileRoots.system('/').readText('/proc/sys/kernel/osrelease', 4096).trim(), release());
    const m = probeMachine('/');
    assert.equal(m.kernel, release());
    assert.equal(m.kernelArch, machine());
  },
);

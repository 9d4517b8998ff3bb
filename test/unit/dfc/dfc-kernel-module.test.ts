// The kernel's own answer to loading a Hailo driver (dfc-corpus unseen11/01 and /19 showed the class; these are other
// forms of it): modprobe prints the loader's errno with strerror (kmod tools/modprobe.c, "could not insert '%s': %s"),
// kmod's insmod its own words (tools/insmod.c mod_strerror: ENOEXEC "Invalid module format"), the old module-init-tools
// "error inserting '%s': -1 %s"; ENOEXEC is a version magic or ELF header that does not match the running kernel
// (Linux kernel/module/main.c check_modinfo). A module missing from /lib/modules/$(uname -r) is modprobe's FATAL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const driverDiag = (log: string) => readDfcLog(log).diagnostics.find((d) => d.code === 'hailort/driver');

test('kernel module: ENOEXEC from modprobe, kmod insmod and module-init-tools reads as a driver built for another kernel', () => {
  for (const line of [
    "modprobe: ERROR: could not insert 'hailo1x_pci': Exec format error",
    'insmod: ERROR: could not insert module /home/pi/hailort-drivers/linux/pcie/hailo_pci.ko: Invalid module format',
    "insmod: error inserting 'hailo_pci.ko': -1 Invalid module format",
  ]) {
    const d = driverDiag(`$ sudo make install\n${line}\n`);
    assert.ok(d, line);
    assert.equal(d.severity, 'error');
    assert.match(d.message, /another kernel/, line);
    assert.match(d.message, /vermagic/, line);
  }
});

test('kernel module: a module modprobe does not find for the running kernel says so, with or without its directory', () => {
  for (const line of [
    'modprobe: FATAL: Module hailo1x_pci not found in directory /lib/modules/6.8.0-49-generic',
    'modprobe: FATAL: Module hailo_pci not found.',
  ]) {
    const d = driverDiag(`pi@rpi:~ $ sudo modprobe hailo_pci\n${line}\n`);
    assert.ok(d, line);
    assert.match(d.message, /running kernel/, line);
    assert.match(d.message, /uname -r/, line);
  }
});

test("kernel module: other words with 'Module … not found' or an exec error are not the kernel's refusal", () => {
  // Python's and node's own words, and a shell's exec of a binary of another architecture.
  for (const log of [
    "ModuleNotFoundError: No module named 'hailo_platform'\n",
    "Error: Cannot find module 'hailo'\nModule not found: Error: Can't resolve './x'\n",
    'The Module hailo_pci not found message appears when the driver is missing, as the docs explain.\n',
  ])
    assert.equal(driverDiag(log), undefined, log);
});

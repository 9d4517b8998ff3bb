// `hailo-tools doctor --root DIR` on fake systems built the way the real ones are laid out (sysfs
// module versions, /sys/bus/pci functions and their driver link, libhailort.so.X.Y.Z, the
// hailo_platform wheel with its _pyhailort.cpython-3XY extension, hailort.service, dpkg status), for
// each combination Hailo users report (../shared/docs/hailo-users.md theme 1; the thread is named
// in each test). Expected findings follow HailoRT's own rules, cited in docs/doctor.md.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildHef } from '../../helpers/hefBuilder';
import { classifierV2Spec } from '../../helpers/inlineHefs';
import { findings } from '../../../server/src/core/doctor/rules';
import { probeSystem } from '../../../server/src/core/doctor/probe';
import { toolchain, writeStub, type StubSpec } from '../../helpers/elfStubs';
import { repoRoot } from '../../helpers/shared';

const base = mkdtempSync(join(tmpdir(), 'hailo-doctor-'));
after(() => rmSync(base, { recursive: true, force: true }));

interface FakeSystem {
  driver?: { module: 'hailo_pci' | 'hailo1x_pci'; version: string }[];
  /** PCI functions: device id and the driver bound (undefined: none). */
  pci?: { id: string; driver?: string }[];
  devNodes?: number;
  /** Device node names under /dev instead (e.g. h1x-0, HailoRT 5.3's). */
  devNodeNames?: string[];
  libs?: { dir: string; version: string }[];
  wheel?: { site: string; version: string; builtFor: string };
  pythons?: string[];
  service?: 'none' | 'installed' | 'running';
  dpkg?: { name: string; version: string }[];
  /** Real ELF files (built by the system's linker) at paths inside the system: plugins, hailortcli, _pyhailort. */
  elf?: { path: string; spec: StubSpec }[];
  /** false: no firmware files (by default the driver's mandatory files of each device present, as its install leaves them). */
  firmware?: false;
  /** A captured /var/log/kern.log. */
  kernLog?: string[];
}

const tools = toolchain();
/** A consumer a healthy system has: a real ELF when a compiler is here, else a placeholder the doctor lists as unreadable. */
const HAS_ELF = tools.cxx;

let n = 0;
function system(s: FakeSystem): string {
  const root = join(base, `sys-${n++}`);
  const put = (p: string, text = '') => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  for (const d of s.driver ?? []) put(`sys/module/${d.module}/version`, `${d.version}\n`);
  (s.pci ?? []).forEach((p, i) => {
    const dev = `sys/bus/pci/devices/0000:0${i + 1}:00.0`;
    put(`${dev}/vendor`, '0x1e60\n');
    put(`${dev}/device`, `0x${p.id}\n`);
    if (p.driver) {
      mkdirSync(join(root, 'sys/bus/pci/drivers', p.driver), { recursive: true });
      symlinkSync(`../../../bus/pci/drivers/${p.driver}`, join(root, dev, 'driver'));
    }
  });
  for (let i = 0; i < (s.devNodes ?? 0); i++) put(`dev/hailo${i}`);
  for (const name of s.devNodeNames ?? []) put(`dev/${name}`);
  if (s.firmware !== false) {
    // hailort-drivers common/pcie_common.c: the mandatory files per chip.
    if (s.pci?.some((p) => p.id === '2864')) put('lib/firmware/hailo/hailo8_fw.bin', 'fw');
    if (s.pci?.some((p) => p.id === '45c4'))
      for (const f of ['customer_certificate.bin', 'scu_fw.bin', 'u-boot-default.dtb.signed', 'u-boot-spl.bin', 'fitImage', 'image-fs'])
        put(`lib/firmware/hailo/hailo10h/${f}`, 'fw');
  }
  for (const l of s.libs ?? []) put(`${l.dir}/libhailort.so.${l.version}`, 'ELF');
  if (s.wheel) {
    put(`${s.wheel.site}/hailo_platform/__init__.py`, `import os\n__version__ = "${s.wheel.version}"\n`);
    put(`${s.wheel.site}/hailo_platform/pyhailort/_pyhailort.cpython-${s.wheel.builtFor.replace('.', '')}-aarch64-linux-gnu.so`, 'ELF');
  }
  for (const p of s.pythons ?? []) put(`usr/bin/python${p}`, '');
  if (s.service === 'installed' || s.service === 'running') put('lib/systemd/system/hailort.service', '[Service]\nPIDFile=/run/hailo/hailort_service.pid\n');
  if (s.service === 'running') {
    put('run/hailo/hailort_service.pid', '4242\n');
    mkdirSync(join(root, 'proc/4242'), { recursive: true });
  }
  for (const e of s.elf ?? []) {
    if (HAS_ELF) writeStub(join(root, e.path), e.spec);
    else put(e.path, 'ELF');
  }
  if (s.kernLog) put('var/log/kern.log', s.kernLog.map((l) => `${l}\n`).join(''));
  if (s.dpkg) put('var/lib/dpkg/status', s.dpkg.map((p) => `Package: ${p.name}\nStatus: install ok installed\nVersion: ${p.version}\n`).join('\n'));
  return root;
}

function doctor(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'doctor', ...args], {
      env: { ...process.env, HAILO_TOOLS_SHIM: '', ...env },
      cwd: base,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

interface Report {
  components: { kind: string; name: string; version?: string; where?: string; detail?: string }[];
  findings: { code: string; severity: string; sentence: string; fix: string; source: string }[];
  devices: { asked: boolean; why?: string };
}

async function json(root: string, folder = join(base, 'empty')): Promise<{ code: number | null; report: Report }> {
  mkdirSync(folder, { recursive: true });
  const r = await doctor(['--json', '--root', root, folder]);
  assert.equal(r.stderr, '');
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

const codes = (r: Report) => r.findings.map((f) => `${f.severity}:${f.code}`).sort();
const PI = 'usr/lib/aarch64-linux-gnu';

test('a healthy Raspberry Pi 5 + AI Kit (Hailo-8L, HailoRT 4.20): every piece listed, no error, exit 0', async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.20.0' }],
    pci: [{ id: '2864', driver: 'hailo' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '4.20.0' }],
    wheel: { site: 'usr/lib/python3/dist-packages', version: '4.20.0', builtFor: '3.11' },
    pythons: ['3.11'],
    service: 'installed',
    dpkg: [
      { name: 'hailo-all', version: '4.20.0' },
      { name: 'hailort', version: '4.20.0' },
      { name: 'hailo-tappas-core', version: '3.31.0+1-1' },
    ],
    // The hailort package's GStreamer plugin (TAPPAS's pipelines need its hailonet).
    elf: [{ path: `${PI}/gstreamer-1.0/libgsthailo.so`, spec: { kind: 'shared', needs: ['libhailort.so.4.20.0'] } }],
  });
  const { code, report } = await json(root);
  assert.equal(code, 0);
  assert.deepEqual(codes(report), ['info:service-stopped']);
  const byKind = (k: string) => report.components.filter((c) => c.kind === k);
  assert.deepEqual(
    byKind('driver').map((c) => [c.name, c.version]),
    [['hailo_pci kernel module', '4.20.0']],
  );
  assert.deepEqual(
    byKind('libhailort').map((c) => [c.version, c.where]),
    [['4.20.0', `/${PI}/libhailort.so.4.20.0`]],
  );
  assert.equal(byKind('python-wheel')[0].version, '4.20.0');
  assert.match(byKind('python-wheel')[0].detail!, /_pyhailort for Python 3\.11/);
  const plugin = byKind('consumer').find((c) => c.where === `/${PI}/gstreamer-1.0/libgsthailo.so`);
  assert.ok(plugin, JSON.stringify(byKind('consumer')));
  if (HAS_ELF) assert.equal(plugin.detail, `needs libhailort.so.4.20.0 → /${PI}/libhailort.so.4.20.0`);
  assert.equal(byKind('pci')[0].detail, 'bound to hailo');
  assert.deepEqual(
    byKind('package').map((c) => c.name),
    ['hailo-all (Debian package)', 'hailort (Debian package)', 'hailo-tappas-core (Debian package)'],
  );
  assert.deepEqual(report.devices, { asked: false, why: '--root: only the files under it were read' });
});

test('rpi5#72 "Driver version (4.18.0) is different from library version (4.19.0)": one error naming the driver to install', async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.18.0' }],
    pci: [{ id: '2864', driver: 'hailo' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '4.19.0' }],
  });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  const f = report.findings.find((x) => x.code === 'driver-library-mismatch')!;
  assert.equal(f.severity, 'error');
  assert.equal(
    f.sentence,
    `The kernel driver hailo_pci 4.18.0 and libhailort 4.19.0 (/${PI}/libhailort.so.4.19.0) differ; HailoRT opens a device only when the driver's version equals its own (status 76).`,
  );
  assert.equal(
    f.fix,
    'Install the hailo_pci driver 4.19.0 (hailort-pcie-driver 4.19.0 (hailo-dkms 4.19.0 on a Raspberry Pi)) and reboot, or install HailoRT 4.18.0.',
  );
  assert.match(f.source, /hailort_driver\.cpp \(validate_driver_version\)/);
});

test('rpi5#98 an apt upgrade moved libhailort to 4.20 and left the driver and the wheel at 4.19: both named', async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.19.0' }],
    pci: [{ id: '2864', driver: 'hailo' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '4.20.0' }],
    wheel: { site: 'usr/lib/python3/dist-packages', version: '4.19.0', builtFor: '3.11' },
    pythons: ['3.11'],
    service: 'running',
  });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  assert.deepEqual(codes(report), ['error:driver-library-mismatch', 'error:wheel-library-mismatch']);
  const wheel = report.findings.find((x) => x.code === 'wheel-library-mismatch')!;
  assert.match(wheel.sentence, /hailo_platform 4\.19\.0 .* is built against exactly libhailort 4\.19\.0, and the installed libhailort is 4\.20\.0/);
  assert.match(wheel.fix, /^Install the hailort 4\.20\.0 wheel for your Python \(or python3-hailort 4\.20\.0\)/);
  assert.match(wheel.source, /find_package\(HailoRT <version> EXACT REQUIRED\)/);
});

test('rpi5#193 Hailo-10H: a 4.20 wheel for Python 3.11 against libhailort 5.1.1 on a Python 3.13 system', async () => {
  const root = system({
    driver: [{ module: 'hailo1x_pci', version: '5.1.1' }],
    pci: [{ id: '45c4', driver: 'hailo1x' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '5.1.1' }],
    wheel: { site: 'usr/local/lib/python3.13/dist-packages', version: '4.20.0', builtFor: '3.11' },
    pythons: ['3.13'],
  });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  assert.deepEqual(codes(report), ['error:wheel-library-mismatch', 'error:wheel-python-mismatch']);
  const py = report.findings.find((x) => x.code === 'wheel-python-mismatch')!;
  assert.match(py.sentence, /carries _pyhailort for Python 3\.11, and it is installed for Python 3\.13/);
  assert.match(py.fix, /built for Python 3\.13 \(cp313\)/);
});

test('apps#111 / rpi5#192: a Hailo-8 card with the hailo1x_pci driver and HailoRT 5.1.1', async () => {
  const root = system({ driver: [{ module: 'hailo1x_pci', version: '5.1.1' }], pci: [{ id: '2864' }], libs: [{ dir: PI, version: '5.1.1' }] });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  assert.deepEqual(codes(report), ['error:driver-family', 'error:runtime-device-family']);
  const drv = report.findings.find((x) => x.code === 'driver-family')!;
  assert.match(drv.sentence, /The Hailo-8\/8L at 0000:01:00\.0 has no driver bound: the loaded hailo1x_pci does not drive it/);
  assert.match(drv.fix, /Install the hailo_pci driver of HailoRT 4\.x \(hailort-pcie-driver 4\.23\.0/);
  const rt = report.findings.find((x) => x.code === 'runtime-device-family')!;
  assert.match(rt.sentence, /HailoRT 5\.x refuses it \("Hailo8 devices are only supported in versions 4\.x\.x and earlier", status 79\)/);
  assert.match(rt.fix, /Install HailoRT 4\.23\.0 with its hailo_pci driver/);
});

test('two libhailort versions installed: an error naming the one the loader finds first; one file seen through a /lib link counts once', async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.20.0' }],
    libs: [
      { dir: 'usr/lib', version: '4.20.0' },
      { dir: 'usr/local/lib', version: '4.18.0' },
    ],
  });
  symlinkSync('usr/lib', join(root, 'lib'));
  const { report } = await json(root);
  const several = report.findings.find((x) => x.code === 'several-libraries')!;
  assert.equal(several.severity, 'error');
  assert.match(
    several.sentence,
    /^2 libhailort files are installed \(4\.18\.0 at \/usr\/local\/lib\/libhailort\.so\.4\.18\.0, 4\.20\.0 at \/lib\/libhailort\.so\.4\.20\.0\)/,
  );
  assert.equal(report.components.filter((c) => c.kind === 'libhailort').length, 2);
  // The loader's first (/usr/local/lib: 4.18.0) differs from the 4.20.0 driver.
  assert.ok(report.findings.some((x) => x.code === 'driver-library-mismatch'));
});

test('no Hailo driver with a Hailo device on the PCIe bus; HailoRT 5.x with a hailo_pci module of 4.x', async () => {
  const none = (await json(system({ pci: [{ id: '45c4' }], libs: [{ dir: PI, version: '5.2.0' }] }))).report;
  assert.deepEqual(codes(none), ['error:no-driver']);
  assert.match(none.findings[0].fix, /^Install the hailo1x_pci driver of HailoRT 5\.x \(hailort-pcie-driver 5\.2\.0\) and reboot\.$/);
  const family = (await json(system({ driver: [{ module: 'hailo_pci', version: '4.20.0' }], libs: [{ dir: PI, version: '5.2.0' }] }))).report;
  assert.deepEqual(codes(family), ['error:driver-library-mismatch']);
  assert.match(family.findings[0].fix, /^Install the hailo1x_pci driver 5\.2\.0/);
});

test('the HEFs of the folder against the library: V3 on 4.20, EXTERNAL_RESOURCES on 4.20, a Hailo-8L HEF with HailoRT 5.2', async () => {
  const folder = join(base, 'models');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'h8l.hef'), await buildHef(classifierV2Spec(3)));
  copyFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef'), join(folder, 'encoder.hef'));
  const old = (await json(system({ driver: [{ module: 'hailo_pci', version: '4.20.0' }], libs: [{ dir: PI, version: '4.20.0' }] }), folder)).report;
  const enc = old.findings.filter((f) => f.sentence.startsWith('encoder.hef'));
  assert.deepEqual(enc.map((f) => f.code).sort(), ['hef-container', 'hef-extensions']);
  assert.match(
    enc.find((f) => f.code === 'hef-extensions')!.sentence,
    /needs EXTERNAL_RESOURCES, which HailoRT 4\.20\.0 does not support, so it refuses the HEF \(status 26\)/,
  );
  assert.equal(old.findings.filter((f) => f.sentence.startsWith('h8l.hef')).length, 0);
  assert.ok(old.components.some((c) => c.kind === 'hef' && c.name === 'h8l.hef' && /HAILO8L/.test(c.detail ?? '') && c.version === '3.31.0'));
  const h10 = (await json(system({ driver: [{ module: 'hailo1x_pci', version: '5.2.0' }], libs: [{ dir: PI, version: '5.2.0' }] }), folder)).report;
  assert.deepEqual(
    h10.findings.map((f) => `${f.code}:${f.sentence.split(' ')[0]}`),
    ['hef-runtime-family:h8l.hef'],
  );
});

test('text output: the table, each finding with its fix and source, the counts; usage errors exit 2', async () => {
  const root = system({ driver: [{ module: 'hailo_pci', version: '4.18.0' }], libs: [{ dir: PI, version: '4.19.0' }] });
  mkdirSync(join(base, 'empty'), { recursive: true });
  const r = await doctor(['--root', root, join(base, 'empty')]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /^Hailo setup under .*:\n {2}component +version +where \/ state\n {2}machine +OS release unknown \(no os-release\)\n {2}hailo_pci kernel module +4\.18\.0 +\/sys\/module\/hailo_pci/,
  );
  assert.match(r.stdout, /\n {2}ERROR {2}driver-library-mismatch: The kernel driver hailo_pci 4\.18\.0 and libhailort 4\.19\.0/);
  assert.match(r.stdout, /\n {9}fix: Install the hailo_pci driver 4\.19\.0/);
  assert.match(r.stdout, /\n1 error, 0 warnings\.\n$/);
  assert.equal((await doctor(['--bogus'])).code, 2);
  assert.equal((await doctor(['--root'])).code, 2);
  assert.match((await doctor(['--help'])).stdout, /usage: hailo-tools doctor/);
});

test('nerves_system_rpi5#39: the driver is loaded but the firmware it loads at probe is not in /lib/firmware — one error per chip naming the missing files', async () => {
  // A Hailo-10H under hailo1x_pci 5.2.0 with only part of its files (image-fs and the DTB lost), and a Hailo-8 with none.
  const root = system({
    driver: [{ module: 'hailo1x_pci', version: '5.2.0' }],
    pci: [{ id: '45c4' }],
    libs: [{ dir: 'usr/lib', version: '5.2.0' }],
    firmware: false,
  });
  for (const f of ['customer_certificate.bin', 'scu_fw.bin', 'u-boot-spl.bin', 'fitImage']) {
    mkdirSync(join(root, 'lib/firmware/hailo/hailo10h'), { recursive: true });
    writeFileSync(join(root, 'lib/firmware/hailo/hailo10h', f), 'fw');
  }
  const { code, report } = await json(root);
  assert.equal(code, 1);
  const fw = report.findings.filter((f) => f.code === 'firmware-missing');
  assert.equal(fw.length, 1, JSON.stringify(report.findings));
  assert.equal(fw[0].severity, 'error');
  assert.match(
    fw[0].sentence,
    /^The hailo1x_pci 5\.2\.0 driver loads the Hailo-10H's firmware .* hailo\/hailo10h\/u-boot-<SKU or default>\.dtb\.signed, hailo\/hailo10h\/image-fs are in none of the kernel's firmware folders/,
  );
  assert.match(fw[0].fix, /download_firmware_hailo10h\.sh fetches hailo10h_fw\.tar\.gz of HailoRT 5\.2\.0/);
  // The files in the kernel's per-release folder count (drivers/base/firmware_loader: /lib/firmware/updates/<release> first).
  mkdirSync(join(root, 'proc/sys/kernel'), { recursive: true });
  writeFileSync(join(root, 'proc/sys/kernel/osrelease'), '6.12.75+rpt-rpi-2712\n');
  mkdirSync(join(root, 'lib/firmware/updates/6.12.75+rpt-rpi-2712/hailo/hailo10h'), { recursive: true });
  for (const f of ['u-boot-default.dtb.signed', 'image-fs']) writeFileSync(join(root, 'lib/firmware/updates/6.12.75+rpt-rpi-2712/hailo/hailo10h', f), 'fw');
  assert.ok(!(await json(root)).report.findings.some((f) => f.code === 'firmware-missing'));
  // A Hailo-8 under hailo_pci without hailo8_fw.bin.
  const h8 = await json(
    system({ driver: [{ module: 'hailo_pci', version: '4.20.0' }], pci: [{ id: '2864' }], libs: [{ dir: PI, version: '4.20.0' }], firmware: false }),
  );
  const f8 = h8.report.findings.find((f) => f.code === 'firmware-missing');
  assert.match(f8!.sentence, /hailo_pci 4\.20\.0 driver loads the Hailo-8\/8L's firmware .* hailo\/hailo8_fw\.bin is in none/);
  assert.match(f8!.fix, /hailo8_fw\.4\.20\.0\.bin, which the driver reads as \/lib\/firmware\/hailo\/hailo8_fw\.bin \(on a Raspberry Pi the hailofw package/);
});

// The hailort → h10-hailort split on Raspberry Pi OS: apt names h10-hailort as hailort's replacement
// (theNetworkChuck/frigate-nvr-guide#3), h10-hailort 5.1.1 ships /usr/lib/libhailort.so.5.1.1
// (rpi5#195: dpkg -L), and an upgrade put hailort back on a Hailo-10H (rpi5#194/#195).
const runtimePackage = (r: Report) => r.findings.filter((f) => f.code === 'runtime-package-family');

test("frigate-nvr-guide#3: a Hailo-8L owner took apt's replacement h10-hailort — one finding naming the packages to remove and hailo-all to install", async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.19.0' }],
    pci: [{ id: '2864', driver: 'hailo' }],
    devNodes: 1,
    libs: [{ dir: 'usr/lib', version: '5.1.1' }],
    dpkg: [
      { name: 'h10-hailort', version: '5.1.1' },
      { name: 'python3-h10-hailort', version: '5.1.1' },
    ],
  });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  const [f, ...more] = runtimePackage(report);
  assert.equal(more.length, 0);
  assert.equal(f.severity, 'error');
  assert.match(
    f.sentence,
    /^The HailoRT 5\.x package h10-hailort 5\.1\.1, python3-h10-hailort 5\.1\.1 is installed and the device is a Hailo-8\/8L, which HailoRT 5\.x refuses/,
  );
  assert.match(
    f.fix,
    /^Remove h10-hailort python3-h10-hailort \(sudo apt remove h10-hailort python3-h10-hailort\) and install HailoRT 4\.x .*sudo apt install hailo-all/,
  );
  assert.match(f.source, /frigate-nvr-guide#3/);
  // HailoRT 5.x from Hailo's Developer Zone is packaged as `hailort`: on a Hailo-8 it is the same mistake.
  const dz = system({ pci: [{ id: '2864', driver: 'hailo' }], libs: [{ dir: 'usr/lib', version: '5.2.0' }], dpkg: [{ name: 'hailort', version: '5.2.0' }] });
  assert.match(runtimePackage((await json(dz)).report)[0]?.fix ?? '', /^Remove hailort \(sudo apt remove hailort\)/);
});

test('rpi5#194/#195: an upgrade put the Hailo-8 runtime hailort 4.23 on a Hailo-10H — the fix installs h10-hailort and names the package that pulled hailort back', async () => {
  const root = system({
    driver: [{ module: 'hailo1x_pci', version: '5.1.1' }],
    pci: [{ id: '45c4', driver: 'hailo1x' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '4.23.0' }],
    dpkg: [
      { name: 'hailort', version: '4.23.0' },
      { name: 'python3-hailort', version: '4.23.0-1' },
      { name: 'hailo-gen-ai-model-zoo', version: '5.2.0' },
    ],
  });
  const { code, report } = await json(root);
  assert.equal(code, 1);
  const [f, ...more] = runtimePackage(report);
  assert.equal(more.length, 0);
  assert.equal(f.severity, 'error');
  assert.match(
    f.sentence,
    /^The Hailo-8 runtime package hailort 4\.23\.0, python3-hailort 4\.23\.0-1 is installed and the device is a Hailo-10H, which needs HailoRT 5\.x \("Hailo1X Devices/,
  );
  assert.match(f.sentence, /hailo-gen-ai-model-zoo 5\.2\.0 declares Depends: hailort/);
  assert.equal(f.fix, 'Install the Hailo-10H runtime, which replaces it: sudo apt install h10-hailort python3-h10-hailort (or the hailo-h10-all metapackage).');

  // Both lines installed: remove the Hailo-8 one. Before 4.22 only Hailo's check says 5.0.0 or newer: a warning.
  const both = system({
    pci: [{ id: '45c4', driver: 'hailo1x' }],
    dpkg: [
      { name: 'h10-hailort', version: '5.1.1' },
      { name: 'hailort', version: '4.20.0' },
    ],
  });
  const [w] = runtimePackage((await json(both)).report);
  assert.equal(w?.severity, 'warning');
  assert.equal(w.fix, 'Remove hailort (sudo apt remove hailort) and keep h10-hailort.');
});

test("the runtime package of the device's own family makes no package finding: hailort 4.x on a Hailo-8, h10-hailort or hailort 5.x on a Hailo-10H, none with both devices", async () => {
  const cases: FakeSystem[] = [
    {
      pci: [{ id: '2864', driver: 'hailo' }],
      dpkg: [
        { name: 'hailort', version: '4.20.0' },
        { name: 'python3-hailort', version: '4.20.0' },
      ],
    },
    {
      pci: [{ id: '45c4', driver: 'hailo1x' }],
      dpkg: [
        { name: 'h10-hailort', version: '5.1.1' },
        { name: 'python3-h10-hailort', version: '5.1.1' },
      ],
    },
    { pci: [{ id: '45c4', driver: 'hailo1x' }], dpkg: [{ name: 'hailort', version: '5.2.0' }] },
    {
      pci: [
        { id: '2864', driver: 'hailo' },
        { id: '45c4', driver: 'hailo1x' },
      ],
      dpkg: [{ name: 'hailort', version: '4.23.0' }],
    },
    // No Hailo device: nothing says which family the packages should be.
    { dpkg: [{ name: 'h10-hailort', version: '5.1.1' }] },
  ];
  for (const c of cases) assert.deepEqual(runtimePackage((await json(system(c))).report), [], JSON.stringify(c));
});

// hailo_model_zoo_genai PR#11: after a live driver upgrade the 5.3.0 hailo1x_pci talks to the 5.1.1
// firmware still running on the Hailo-10H. The lines are the driver's own format strings
// (hailort-drivers v5.3.0 pcie.c, soc.c) in dev_printk's "hailo1x <address>: " form (hailo-apps#111).
const kernLine = (t: string, msg: string) => `2026-05-16T09:${t}+00:00 pi kernel: ${msg}`;
const BOOT_511 = [
  kernLine('00:01.100000', 'hailo1x: Init module. driver version 5.1.1'),
  kernLine('00:01.200000', 'hailo1x 0001:01:00.0: Probing on: 1e60:45c4...'),
  kernLine('00:03.300000', 'hailo1x 0001:01:00.0: Firmware loaded in 2101 ms'),
];
const LIVE_UPGRADE = [
  kernLine('40:10.100000', 'hailo1x: Init module. driver version 5.3.0'),
  kernLine('40:10.200000', 'hailo1x 0001:01:00.0: Probing on: 1e60:45c4...'),
  kernLine('40:12.300000', 'hailo1x 0001:01:00.0: Firmware loaded in 2087 ms'),
  kernLine('40:12.400000', 'hailo1x 0001:01:00.0: Mismatch Driver version pcie driver 5:3:0 pci_ep driver 5:1:1'),
  kernLine('40:12.400100', 'hailo1x 0001:01:00.0: hailo_soc_get_driver_info has failed with err -22'),
];
const hailo10hWith = (kernLog: string[]): FakeSystem => ({
  driver: [{ module: 'hailo1x_pci', version: '5.3.0' }],
  pci: [{ id: '45c4', driver: 'hailo1x' }],
  devNodes: 1,
  libs: [{ dir: 'usr/lib', version: '5.3.0' }],
  kernLog,
});

test('genai PR#11: kern.log says the Hailo-10H runs the 5.1.1 firmware under the 5.3.0 driver — one error quoting the line, the fix restarts the device', async () => {
  const { code, report } = await json(system(hailo10hWith([...BOOT_511, ...LIVE_UPGRADE])));
  assert.equal(code, 1);
  assert.deepEqual(codes(report), ['error:soc-driver-mismatch']);
  const f = report.findings[0];
  assert.match(
    f.sentence,
    /^The Hailo-10H at 0001:01:00\.0 runs firmware whose driver is 5\.1\.1 while the host's hailo1x_pci is 5\.3\.0; the driver then refuses every request/,
  );
  assert.match(f.sentence, /\/var\/log\/kern\.log: ".*hailo1x 0001:01:00\.0: Mismatch Driver version pcie driver 5:3:0 pci_ep driver 5:1:1"/);
  // PR#11 recovered without a reboot: a PCI reset and a driver reload.
  assert.match(
    f.fix,
    /^Reset the device so it loads the firmware of the 5\.3\.0 driver — no reboot needed: "sudo modprobe -r hailo1x_pci && echo 1 \| sudo tee \/sys\/bus\/pci\/devices\/0001:01:00\.0\/reset && sudo modprobe hailo1x_pci"/,
  );
  assert.match(f.source, /soc\.c \(hailo_soc_get_driver_info/);
});

test('kern.log: a mismatch before a later boot or module load (its Init line), or before a PCI reset re-probed the device, is history, not a finding', async () => {
  const reboot = [...LIVE_UPGRADE, kernLine('55:00.000000', 'hailo1x: Init module. driver version 5.3.0')];
  const reset = [
    ...LIVE_UPGRADE,
    kernLine('45:00.100000', 'hailo1x 0001:01:00.0: Probing on: 1e60:45c4...'),
    kernLine('45:02.000000', 'hailo1x 0001:01:00.0: Firmware loaded in 2090 ms'),
  ];
  for (const log of [BOOT_511, reboot, reset]) assert.deepEqual(codes((await json(system(hailo10hWith(log)))).report), [], log.join('\n'));
});

test('kern.log there but not readable (here a folder; EACCES for a user outside adm): an info note saying the check was skipped, not silence', async () => {
  const root = system(hailo10hWith([]));
  rmSync(join(root, 'var/log/kern.log'));
  mkdirSync(join(root, 'var/log/kern.log'));
  const { code, report } = await json(root);
  assert.equal(code, 0);
  assert.deepEqual(codes(report), ['info:kernel-log-unreadable']);
  assert.match(report.findings[0].sentence, /^\/var\/log\/kern\.log was not read \(.+\), so a driver\/firmware version mismatch/);
});

// Issue 36: HailoRT 5.3.0 names the Hailo-10H's node /dev/h1x-0 (community.hailo.ai/t/19218; HAOS PR#4690
// hailo10h-pci 5.3.0). A consistent 5.3.0 system is not broken.
test('a consistent Hailo-10H on HailoRT 5.3.0 with /dev/h1x-0: no finding, exit 0, the node listed', async () => {
  const { code, report } = await json(
    system({
      driver: [{ module: 'hailo1x_pci', version: '5.3.0' }],
      pci: [{ id: '45c4', driver: 'hailo1x' }],
      devNodeNames: ['h1x-0'],
      libs: [{ dir: 'usr/lib', version: '5.3.0' }],
    }),
  );
  assert.deepEqual(codes(report), []);
  assert.equal(code, 0);
  assert.equal(report.components.find((c) => c.kind === 'device-node')?.detail, '/dev/h1x-0');
  // With no node at all it is still a warning, naming both forms.
  const none = (
    await json(
      system({ driver: [{ module: 'hailo1x_pci', version: '5.3.0' }], pci: [{ id: '45c4', driver: 'hailo1x' }], libs: [{ dir: 'usr/lib', version: '5.3.0' }] }),
    )
  ).report;
  assert.deepEqual(codes(none), ['warning:no-device-node']);
  assert.match(none.findings[0].sentence, /no \/dev\/hailo\* \(or, from HailoRT 5\.3, \/dev\/h1x-\*\) node/);
});

// One PCI id (0x2864) for the Hailo-8 family (hailort-drivers pcie_common.h); 4.x is_hef_compatible runs a
// hailo8 HEF on a Hailo-8 only. Under --root the device cannot be asked, so the doctor says which it may be.
test('Hailo-8 or Hailo-8L: under --root a hailo8 HEF in the folder gets a warning naming both and "hailo-tools devices"; a hailo8l HEF does not', async () => {
  const root = system({
    driver: [{ module: 'hailo_pci', version: '4.23.0' }],
    pci: [{ id: '2864', driver: 'hailo' }],
    devNodes: 1,
    libs: [{ dir: PI, version: '4.23.0' }],
  });
  const folder = join(base, 'h8-hefs');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'yolo-h8.hef'), await buildHef(classifierV2Spec(1)));
  const { report } = await json(root, folder);
  const f = report.findings.find((x) => x.code === 'hailo8-or-hailo8l');
  assert.ok(f, JSON.stringify(report.findings));
  assert.equal(f.severity, 'warning');
  assert.match(
    f.sentence,
    /^The device at 0000:01:00\.0 \(PCI id 1e60:2864\) is a Hailo-8 or a Hailo-8L — both show this id — and the doctor could not ask it \(--root: only the files under it were read\); yolo-h8\.hef is compiled for hailo8, which a Hailo-8 runs and a Hailo-8L refuses/,
  );
  assert.match(f.fix, /"hailo-tools devices"/);
  const folder8l = join(base, 'h8l-hefs');
  mkdirSync(folder8l, { recursive: true });
  writeFileSync(join(folder8l, 'yolo-h8l.hef'), await buildHef(classifierV2Spec(3)));
  assert.equal(
    (await json(root, folder8l)).report.findings.find((x) => x.code === 'hailo8-or-hailo8l'),
    undefined,
  );
});

// HEFs from DFC 3.34 need HailoRT 4.24 (../shared/docs/hailo-users-2026.md §1 row 4: "Pi < 4.24 (apt default 4.23) → HEF load failure").
test('a HEF from DFC 3.34 in the folder with libhailort 4.23.0: an error naming 4.24; with 4.24.0 none', async () => {
  const folder = join(base, 'dfc334');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'new.hef'), await buildHef({ ...classifierV2Spec(3), sdk: [3, 34, 0] }));
  const at = (v: string) =>
    json(
      system({ driver: [{ module: 'hailo_pci', version: v }], pci: [{ id: '2864', driver: 'hailo' }], devNodes: 1, libs: [{ dir: PI, version: v }] }),
      folder,
    );
  const old = (await at('4.23.0')).report.findings.find((f) => f.code === 'hef-needs-newer-runtime');
  assert.ok(old);
  assert.match(old.sentence, /^new\.hef was compiled by Dataflow Compiler 3\.34\.0, whose HEFs need HailoRT 4\.24 or newer, and libhailort is 4\.23\.0/);
  assert.equal(
    (await at('4.24.0')).report.findings.find((f) => f.code === 'hef-needs-newer-runtime'),
    undefined,
  );
});

// hailo_model_zoo_genai PR#11 again, seen by identify instead of the kernel log: the device answers its
// firmware version (hailortcli fw-control identify) older than the host driver.
test('identify says the Hailo-10H runs firmware 5.1.1 under hailo1x_pci 5.3.0: an error whose fix is the PCI reset, not a reboot', () => {
  const root = system({
    driver: [{ module: 'hailo1x_pci', version: '5.3.0' }],
    pci: [{ id: '45c4', driver: 'hailo1x' }],
    devNodeNames: ['h1x-0'],
    libs: [{ dir: 'usr/lib', version: '5.3.0' }],
  });
  const device = {
    id: '0000:01:00.0',
    architecture: 'HAILO10H',
    architectureId: 6,
    firmware: '5.1.1 (release,app)',
    serial: 's',
    boardName: 'b',
    partNumber: 'p',
    productName: 'AI HAT+ 2',
  };
  const scan = {
    runtime: { hailortVersion: '5.3.0', shimPath: '', libraryPath: '/usr/lib/libhailort.so.5.3.0', fake: false },
    devices: [device],
    driver: 'loaded' as const,
  };
  const got = findings({ system: probeSystem(root), scan, hefs: [] });
  assert.deepEqual(
    got.map((f) => f.code),
    ['firmware-older-than-driver'],
  );
  assert.match(got[0].sentence, /^The HAILO10H at 0000:01:00\.0 still runs firmware 5\.1\.1 while the host's hailo1x_pci is 5\.3\.0/);
  assert.match(got[0].fix, /^Reset the device .* no reboot needed: .*\/sys\/bus\/pci\/devices\/0000:01:00\.0\/reset/);
  const current = findings({ system: probeSystem(root), scan: { ...scan, devices: [{ ...device, firmware: '5.3.0 (release,app)' }] }, hefs: [] });
  assert.deepEqual(current, []);
});

test('docs/doctor.md lists every finding code the rules can make, with its source', async () => {
  const { readFileSync } = await import('node:fs');
  const rules = ['rules.ts', 'linkageRules.ts', 'firmware.ts', 'packageRules.ts', 'kernelLog.ts']
    .map((f) => readFileSync(join(repoRoot, 'server', 'src', 'core', 'doctor', f), 'utf8'))
    .join('\n');
  const doc = readFileSync(join(repoRoot, 'docs', 'doctor.md'), 'utf8');
  const made = new Set<string>();
  for (const m of rules.matchAll(/code:\s*([^\n]+)/g)) for (const q of m[1].matchAll(/'([a-z0-9-]+)'/g)) made.add(q[1]);
  assert.ok(made.size >= 20, [...made].join(' '));
  const documented = new Set([...doc.matchAll(/^\| `([a-z0-9-]+)`(?:, `([a-z0-9-]+)`)? \|/gm)].flatMap((m) => [m[1], m[2]]).filter(Boolean));
  assert.deepEqual(
    [...made].filter((c) => !documented.has(c)),
    [],
  );
  assert.deepEqual(
    [...documented].filter((c) => !made.has(c)),
    [],
  );
});

test('Check Setup Markdown: file-derived names are escaped (a HEF named like Markdown/HTML stays text)', async () => {
  const { doctorMarkdown } = await import('../../../server/src/core/doctor/text');
  const md = doctorMarkdown({
    root: '/',
    devices: { asked: false, why: 'Restricted Mode' },
    components: [{ kind: 'hef', name: '<img src=x onerror=alert(1)>|[x](javascript:alert(1)).hef', detail: '**bold** `code`' }],
    findings: [
      {
        code: 'hef-device-arch',
        severity: 'error',
        sentence: '<script>x</script> does not run',
        fix: 'Compile it with --hw-arch hailo8l.',
        source: 'device_internal.cpp',
      },
    ],
  });
  assert.doesNotMatch(md, /(?<!\\)<|(?<!\\)\]\(javascript/, 'no raw <, no link');
  assert.ok(!md.includes('\\\\|'), 'a | is escaped once (a doubled backslash would end the cell)');
  assert.match(md, /\\<img src=x onerror=alert\\\(1\\\)\\>\\\|\\\[x\\\]\\\(javascript:alert\\\(1\\\)\\\)\.hef/);
  assert.match(md, /- \*\*ERROR\*\* `hef-device-arch`: \\<script\\>x\\<\/script\\> does not run/);
  assert.match(md, /^1 error, 0 warnings\.$/m);
});

// Which libhailort each consumer actually links (server/src/core/doctor/linkage.ts, linkageRules.ts), on
// fake systems whose libraries, plugins, _pyhailort and programs are real ELF files built here by
// the system's linker (test/helpers/elfStubs.ts): the DT_NEEDED names, SONAMEs and RUNPATHs are
// the linker's, not ours. Each system is one a user reported (the thread is named in the test);
// the expected findings follow the loader's rules (ld.so(8)) and HailoRT's SONAME
// (libhailort/src/CMakeLists.txt: VERSION X.Y.Z, no SOVERSION), cited in docs/doctor.md.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runDoctor, type DoctorReport } from '../../../server/src/core/doctor';
import { doctorMarkdown } from '../../../server/src/core/doctor/text';
import { toolchain, writeStub, type StubSpec } from '../../helpers/elfStubs';
import { skipUnless } from '../../helpers/shared';

const tools = toolchain();
const needTools = skipUnless(tools.cxx, 'a C++ compiler (g++) to build the ELF files');
const base = mkdtempSync(join(tmpdir(), 'hailo-linkage-'));
after(() => rmSync(base, { recursive: true, force: true }));

interface Layout {
  /** sysfs module versions. */
  driver?: { module: 'hailo_pci' | 'hailo1x_pci'; version: string };
  /** Real libhailort stubs: folder inside the system and version (the SONAME libhailort.so.<version>). */
  libs?: { dir: string; version: string; machine?: number }[];
  /** ELF files at paths inside the system. */
  elf?: { path: string; spec: StubSpec; machine?: number }[];
  /** Symbolic links: path → target. */
  links?: [string, string][];
  /** Plain files (ld.so.conf, a TAPPAS .pc, a wheel's __init__.py). */
  files?: [string, string][];
  dpkg?: { name: string; version: string; files?: string[] }[];
}

let n = 0;
function system(l: Layout): string {
  const root = join(base, `sys-${n++}`);
  const put = (p: string, text: string) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  // Another machine's library: the same file with e_machine changed (the loader reads only the header to skip it).
  const patchMachine = (p: string, machine?: number) => {
    if (machine === undefined) return;
    const bytes = readFileSync(join(root, p));
    bytes.writeUInt16LE(machine, 18);
    writeFileSync(join(root, p), bytes);
  };
  if (l.driver) put(`sys/module/${l.driver.module}/version`, `${l.driver.version}\n`);
  for (const lib of l.libs ?? []) {
    const p = `${lib.dir}/libhailort.so.${lib.version}`;
    writeStub(join(root, p), { kind: 'shared', soname: `libhailort.so.${lib.version}` });
    patchMachine(p, lib.machine);
  }
  for (const e of l.elf ?? []) {
    writeStub(join(root, e.path), e.spec);
    patchMachine(e.path, e.machine);
  }
  for (const [path, target] of l.links ?? []) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
  }
  for (const [path, text] of l.files ?? []) put(path, text);
  if (l.dpkg) {
    put('var/lib/dpkg/status', l.dpkg.map((p) => `Package: ${p.name}\nStatus: install ok installed\nVersion: ${p.version}\n`).join('\n'));
    for (const p of l.dpkg) if (p.files) put(`var/lib/dpkg/info/${p.name}:arm64.list`, `${p.files.join('\n')}\n`);
  }
  return root;
}

const doctor = (root: string): Promise<DoctorReport> => runDoctor({ root, noScanReason: 'test' });
const codes = (r: DoctorReport) => r.findings.map((f) => `${f.severity}:${f.code}`).sort();
const finding = (r: DoctorReport, code: string) => {
  const f = r.findings.find((x) => x.code === code);
  assert.ok(f, `no ${code} in ${JSON.stringify(r.findings.map((x) => x.code))}`);
  return f;
};
const consumer = (r: DoctorReport, where: string) => {
  const c = r.components.find((x) => x.kind === 'consumer' && x.where === where);
  assert.ok(c, `no consumer at ${where}: ${JSON.stringify(r.components.filter((x) => x.kind === 'consumer'))}`);
  return c;
};

const PI = 'usr/lib/aarch64-linux-gnu';
const SITE = 'usr/lib/python3/dist-packages';
const PYHAILORT = `${SITE}/hailo_platform/pyhailort/_pyhailort.cpython-311-aarch64-linux-gnu.so`;
const wheel = (version: string): [string, string] => [`${SITE}/hailo_platform/__init__.py`, `__version__ = "${version}"\n`];
const needs = (...sonames: string[]): StubSpec => ({ kind: 'shared', needs: sonames });

test(
  'rpi5#193: Hailo-10H, hailo1x_pci 5.1.1, h10-hailort 5.1.1 and the 4.20 wheel — _pyhailort needs libhailort.so.4.20.0, which is not there',
  { skip: needTools },
  async () => {
    const root = system({
      driver: { module: 'hailo1x_pci', version: '5.1.1' },
      // h10-hailort 5.1.1 ships /usr/lib/libhailort.so.5.1.1 (rpi5#195: dpkg -L h10-hailort).
      libs: [{ dir: 'usr/lib', version: '5.1.1' }],
      elf: [{ path: PYHAILORT, spec: needs('libhailort.so.4.20.0') }],
      files: [wheel('4.20.0'), ['usr/bin/python3.11', '']],
      dpkg: [
        { name: 'h10-hailort', version: '5.1.1', files: ['/usr/lib/libhailort.so.5.1.1'] },
        { name: 'python3-hailort', version: '4.20.0-1', files: [`/${PYHAILORT}`] },
      ],
    });
    const r = await doctor(root);
    const f = finding(r, 'consumer-library-missing');
    assert.equal(f.severity, 'error');
    assert.match(
      f.sentence,
      /_pyhailort \(\/usr\/lib\/python3\/dist-packages\/hailo_platform\/pyhailort\/_pyhailort\.cpython-311-aarch64-linux-gnu\.so\) needs libhailort\.so\.4\.20\.0/,
    );
    // The user's own error message, and the fix: the 5.1.1 wheel, not a link.
    assert.match(f.sentence, /ImportError: libhailort\.so\.4\.20\.0: cannot open shared object file/);
    assert.match(f.fix, /hailort 5\.1\.1 wheel .*python3-h10-hailort 5\.1\.1.*here it came from python3-hailort 4\.20\.0-1/);
    assert.match(f.fix, /A link named libhailort\.so\.4\.20\.0 to another version is no fix/);
    // The ELF said it exactly: the guess from the wheel's version is not made twice.
    assert.ok(!codes(r).some((c) => c.endsWith(':wheel-library-mismatch')), codes(r).join(' '));
    assert.equal(consumer(r, `/${PYHAILORT}`).detail, 'needs libhailort.so.4.20.0: NOT FOUND (Debian package python3-hailort 4.20.0-1)');
  },
);

test(
  'rpi5#193, after "ln -s libhailort.so.5.1.1 libhailort.so.4.20.0": the link hands a 4.20 build libhailort 5.1.1 — an error (undefined symbol)',
  { skip: needTools },
  async () => {
    const root = system({
      driver: { module: 'hailo1x_pci', version: '5.1.1' },
      libs: [{ dir: 'usr/lib', version: '5.1.1' }],
      links: [['usr/lib/libhailort.so.4.20.0', 'libhailort.so.5.1.1']],
      elf: [{ path: PYHAILORT, spec: needs('libhailort.so.4.20.0') }],
      files: [wheel('4.20.0'), ['usr/bin/python3.11', '']],
    });
    const r = await doctor(root);
    const f = finding(r, 'consumer-library-link');
    assert.equal(f.severity, 'error');
    assert.match(
      f.sentence,
      /built against libhailort 4\.20\.0, and \/usr\/lib\/libhailort\.so\.4\.20\.0 is really libhailort 5\.1\.1 \(\/usr\/lib\/libhailort\.so\.5\.1\.1\)/,
    );
    assert.match(f.sentence, /undefined symbol/);
    assert.match(f.fix, /remove the link \/usr\/lib\/libhailort\.so\.4\.20\.0/);
    assert.ok(!codes(r).includes('error:consumer-library-missing'), codes(r).join(' '));
    assert.equal(
      consumer(r, `/${PYHAILORT}`).detail,
      'needs libhailort.so.4.20.0 → /usr/lib/libhailort.so.4.20.0 → /usr/lib/libhailort.so.5.1.1 (libhailort 5.1.1)',
    );
  },
);

test(
  'rpi5#195: hailo-ollama built for libhailort.so.5.2.0 with only h10-hailort 5.1.1 — missing; through a link within the major — a warning',
  { skip: needTools },
  async () => {
    const ollama: StubSpec = { kind: 'exe', needs: ['libhailort.so.5.2.0'] };
    const missing = await doctor(
      system({
        driver: { module: 'hailo1x_pci', version: '5.1.1' },
        libs: [{ dir: 'usr/lib', version: '5.1.1' }],
        elf: [{ path: 'usr/bin/hailo-ollama', spec: ollama }],
      }),
    );
    const f = finding(missing, 'consumer-library-missing');
    assert.match(f.sentence, /^hailo-ollama \(\/usr\/bin\/hailo-ollama\) needs libhailort\.so\.5\.2\.0/);
    assert.match(f.sentence, /error while loading shared libraries: libhailort\.so\.5\.2\.0/);
    assert.match(f.fix, /hailo-gen-ai-model-zoo built for HailoRT 5\.1\.1/);
    const linked = await doctor(
      system({
        driver: { module: 'hailo1x_pci', version: '5.1.1' },
        libs: [{ dir: 'usr/lib', version: '5.1.1' }],
        links: [['usr/lib/libhailort.so.5.2.0', '/usr/lib/libhailort.so.5.1.1']],
        elf: [{ path: 'usr/bin/hailo-ollama', spec: ollama }],
      }),
    );
    assert.equal(finding(linked, 'consumer-library-link').severity, 'warning');
    assert.ok(!codes(linked).includes('error:consumer-library-missing'));
  },
);

test(
  'a GStreamer plugin left from HailoRT 4.20 next to libhailort and driver 4.23: it loads 4.20 — fails with 76 where hailortcli works',
  { skip: needTools },
  async () => {
    const plugin = `${PI}/gstreamer-1.0/libgsthailo.so`;
    const r = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.23.0' },
        libs: [
          { dir: 'usr/local/lib', version: '4.23.0' },
          { dir: PI, version: '4.20.0' },
        ],
        elf: [
          { path: plugin, spec: needs('libhailort.so.4.20.0') },
          { path: 'usr/bin/hailortcli', spec: { kind: 'exe', needs: ['libhailort.so.4.23.0'] } },
        ],
      }),
    );
    const f = finding(r, 'consumer-driver-mismatch');
    assert.match(
      f.sentence,
      /^HailoRT's GStreamer plugin .* loads libhailort 4\.20\.0 \(\/usr\/lib\/aarch64-linux-gnu\/libhailort\.so\.4\.20\.0\), and the kernel driver hailo_pci is 4\.23\.0/,
    );
    assert.match(f.sentence, /where the programs that load \/usr\/local\/lib\/libhailort\.so\.4\.23\.0 work/);
    assert.match(f.fix, /hailort 4\.23\.0 package, which ships libgsthailo\.so/);
    assert.match(f.fix, /registry\.\*\.bin/);
    // hailortcli loads the driver's version: nothing said about it.
    assert.equal(r.findings.filter((x) => x.code.startsWith('consumer-')).length, 1, codes(r).join(' '));
    assert.equal(consumer(r, '/usr/bin/hailortcli').detail, 'needs libhailort.so.4.23.0 → /usr/local/lib/libhailort.so.4.23.0');
  },
);

test(
  'loader order: RUNPATH with $ORIGIN first, /opt/hailort/lib only through ld.so.conf, a library of another machine skipped',
  { skip: needTools },
  async () => {
    const plugin = `${PI}/gstreamer-1.0/libgsthailo.so`;
    // Only in /opt/hailort/lib, which the loader does not search: missing, and the fix says so.
    const opt = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [{ dir: 'opt/hailort/lib', version: '4.20.0' }],
        elf: [{ path: plugin, spec: needs('libhailort.so.4.20.0') }],
      }),
    );
    assert.match(
      finding(opt, 'consumer-library-missing').fix,
      /libhailort 4\.20\.0 is at \/opt\/hailort\/lib\/libhailort\.so\.4\.20\.0, a folder the loader does not search: .*ld\.so\.conf\.d/,
    );
    // The same with an ld.so.conf that includes a file naming the folder: found through the loader's folders.
    const conf = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [{ dir: 'opt/hailort/lib', version: '4.20.0' }],
        elf: [{ path: plugin, spec: needs('libhailort.so.4.20.0') }],
        files: [
          ['etc/ld.so.conf', 'include /etc/ld.so.conf.d/*.conf\n'],
          ['etc/ld.so.conf.d/hailort.conf', '# HailoRT\n/opt/hailort/lib\n'],
        ],
      }),
    );
    assert.ok(!codes(conf).some((c) => c.includes('consumer-')), codes(conf).join(' '));
    assert.equal(consumer(conf, `/${plugin}`).detail, 'needs libhailort.so.4.20.0 → /opt/hailort/lib/libhailort.so.4.20.0');
    // RUNPATH $ORIGIN/../../hailort: searched before the loader's folders, which hold 4.20.0 too.
    const runpath = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [
          { dir: PI, version: '4.20.0' },
          { dir: 'usr/lib/hailort', version: '4.20.0' },
        ],
        elf: [{ path: plugin, spec: { kind: 'shared', needs: ['libhailort.so.4.20.0'], runpath: ['$ORIGIN/../../hailort'] } }],
      }),
    );
    assert.equal(consumer(runpath, `/${plugin}`).detail, 'needs libhailort.so.4.20.0 → /usr/lib/hailort/libhailort.so.4.20.0');
    // The first folder's copy is of another machine (e_machine 40, ARM): the loader goes on to the next.
    const foreign = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [
          { dir: 'usr/local/lib', version: '4.20.0', machine: 40 },
          { dir: PI, version: '4.20.0' },
        ],
        elf: [{ path: plugin, spec: needs('libhailort.so.4.20.0') }],
      }),
    );
    assert.equal(consumer(foreign, `/${plugin}`).detail, `needs libhailort.so.4.20.0 → /${PI}/libhailort.so.4.20.0`);
  },
);

test(
  'rpi5#30, #151: TAPPAS installed without HailoRT\'s GStreamer plugin — no element "hailonet"; TAPPAS\'s own library missing (rpi5#37)',
  { skip: needTools },
  async () => {
    const tools = `${PI}/gstreamer-1.0/libgsthailotools.so`;
    const r = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [{ dir: PI, version: '4.20.0' }],
        // TAPPAS's plugin needs its meta library, which is gone.
        elf: [{ path: tools, spec: needs('libgsthailometa.so.3') }],
        files: [[`${PI}/pkgconfig/hailo-tappas-core.pc`, 'Name: hailo-tappas-core\nVersion: 3.31.0\n']],
        dpkg: [{ name: 'hailo-tappas-core', version: '3.31.0+1-1', files: [`/${tools}`] }],
      }),
    );
    const plugin = finding(r, 'gstreamer-plugin-missing');
    assert.equal(plugin.severity, 'error');
    assert.match(
      plugin.sentence,
      /TAPPAS 3\.31\.0 is installed but HailoRT's GStreamer plugin \(libgsthailo\.so\) is in no gstreamer-1\.0 folder, so its pipelines fail with 'no element "hailonet"'/,
    );
    assert.match(plugin.fix, /hailort 4\.20\.0 package, which ships libgsthailo\.so \(hailo-all brings it on a Raspberry Pi\)/);
    const meta = finding(r, 'consumer-library-missing');
    assert.match(meta.sentence, /TAPPAS's GStreamer plugin .* needs libgsthailometa\.so\.3/);
    assert.match(meta.fix, /Reinstall hailo-tappas-core \(here it came from hailo-tappas-core 3\.31\.0\+1-1\), which ships libgsthailometa\.so\.3/);
    // With the plugin in place, no hailonet finding.
    const ok = await doctor(
      system({
        driver: { module: 'hailo_pci', version: '4.20.0' },
        libs: [{ dir: PI, version: '4.20.0' }],
        elf: [{ path: `${PI}/gstreamer-1.0/libgsthailo.so`, spec: needs('libhailort.so.4.20.0') }],
        files: [[`${PI}/pkgconfig/hailo-tappas-core.pc`, 'Name: hailo-tappas-core\nVersion: 3.31.0\n']],
      }),
    );
    assert.ok(!codes(ok).some((c) => c.includes('gstreamer-plugin-missing') || c.includes('consumer-')), codes(ok).join(' '));
  },
);

test(
  'a consumer that is not an ELF, or is hostile, is listed with one sentence and the other checks go on; its name stays text in Check Setup',
  { skip: needTools },
  async () => {
    const odd = `${SITE}/hailo_platform/pyhailort/_pyhailort.cpython-311-<img src=x onerror=alert(1)>|x.so`;
    const root = system({
      driver: { module: 'hailo_pci', version: '4.20.0' },
      libs: [{ dir: PI, version: '4.20.0' }],
      files: [wheel('4.20.0'), [odd, '\x7fELF\x02\x01\x01'], ['usr/bin/hailortcli', '#!/bin/sh\n']],
    });
    const r = await doctor(root);
    assert.match(consumer(r, `/${odd}`).detail!, /^not readable as ELF: the ELF file is cut short/);
    assert.match(consumer(r, '/usr/bin/hailortcli').detail!, /^not readable as ELF: not an ELF file/);
    assert.ok(!codes(r).some((c) => c.startsWith('error:')), codes(r).join(' '));
    const md = doctorMarkdown(r);
    // In a code span (HTML stays text there), its | escaped so that it does not end the table cell.
    const row = md.split('\n').find((l) => l.includes('onerror'));
    assert.ok(row?.includes('`/usr/lib/python3/dist-packages/hailo_platform/pyhailort/_pyhailort.cpython-311-<img src=x onerror=alert(1)>\\|x.so`'), row);
    assert.equal(row!.replace(/\\\|/g, '').split('|').length, 5, row);
  },
);

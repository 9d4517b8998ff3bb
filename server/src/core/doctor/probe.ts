// What is installed, read from files only (no program is run, nothing is written): the kernel
// modules and their versions (sysfs), /dev/hailo*, Hailo PCI functions and the driver bound to
// each, every libhailort in the usual library folders, the Python wheel (hailo_platform) of each
// site-packages folder and the Pythons it is built for, hailort.service (unit, enabled, running),
// TAPPAS / hailo-apps and the Debian packages. Everything is read under `root` (default `/`), so
// tests build fake systems. Reads are bounded (DoctorFiles over FileRoots) and no walk follows a link.
import { basename, join } from 'node:path';
import { DoctorFiles, LIBRARY_DIRS } from './files';
import { limit } from '../common/limits';
import { probeConsumers } from './linkage';
import { probeFirmware } from './firmware';
import { probeKernelLog } from './kernelLog';
import { probeMachine } from './machine';
import type { DebPackage, KernelModule, Library, PciFunction, PythonWheel, ServiceState, SystemSnapshot } from './types';

/** /var/lib/dpkg/status of a full desktop is a few MiB. */
const DPKG_STATUS_MAX = 32 << 20;

export { LIBRARY_DIRS } from './files';

/** A short, printable version string (sysfs and package files are text; bound what we keep). */
function versionOf(raw: string | undefined): string | undefined {
  const v = raw?.trim().split(/\s/)[0]?.slice(0, 40);
  return v && /^[0-9A-Za-z.+~:-]+$/.test(v) ? v : undefined;
}

const PCI_FAMILIES: Record<string, PciFunction['family']> = { '2864': 'hailo8', '45c4': 'hailo10h', '43a2': 'hailo15l', '26a2': 'hailo12l' };

function probeModules(fs: DoctorFiles, root = fs.root): KernelModule[] {
  const out: KernelModule[] = [];
  for (const name of ['hailo_pci', 'hailo1x_pci'] as const) {
    // MODULE_VERSION(HAILO_DRV_VER) (hailort-drivers linux/pcie/src/pcie.c) appears as /sys/module/<name>/version.
    if (fs.isDir(join(root, 'sys', 'module', name))) out.push({ name, version: versionOf(fs.readText(join(root, 'sys', 'module', name, 'version'))) });
  }
  return out;
}

function probePci(fs: DoctorFiles, root = fs.root): PciFunction[] {
  const base = join(root, 'sys', 'bus', 'pci', 'devices');
  const out: PciFunction[] = [];
  for (const address of fs.listDir(base)) {
    const vendor = fs
      .readText(join(base, address, 'vendor'))
      ?.trim()
      .toLowerCase();
    // PCI_VENDOR_ID_HAILO 0x1e60 (hailort-drivers common/pcie_common.h)
    if (vendor !== '0x1e60') continue;
    const deviceId = (fs.readText(join(base, address, 'device')) ?? '').trim().toLowerCase().replace(/^0x/, '');
    let driver: string | undefined;
    const target = fs.linkTarget(join(base, address, 'driver'));
    driver = target === undefined ? undefined : basename(target);
    out.push({ address, deviceId, family: PCI_FAMILIES[deviceId] ?? 'unknown', driver });
  }
  return out;
}

function probeLibraries(fs: DoctorFiles, root = fs.root): Library[] {
  const out: Library[] = [];
  const seen = new Set<string>();
  for (const dir of LIBRARY_DIRS) {
    for (const name of fs.listDir(join(root, dir))) {
      const m = /^libhailort\.so\.(\d+\.\d+\.\d+)$/.exec(name);
      if (!m) continue;
      const path = join(root, dir, name);
      let id: string;
      // One file found through two folders (/lib → /usr/lib on merged-/usr systems) is one library.
      const st = fs.stat(path);
      if (!st?.isFile()) continue;
      id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ path: `/${dir}/${name}`, version: m[1] });
    }
  }
  return out;
}

function siteDirs(fs: DoctorFiles, root: string, folder?: string): { dir: string; python?: string }[] {
  const out: { dir: string; python?: string }[] = [];
  const pyDirs = (lib: string) => fs.listDir(lib).filter((n) => /^python3(\.\d+)?$/.test(n));
  const add = (lib: string) => {
    for (const py of pyDirs(lib)) {
      for (const kind of ['site-packages', 'dist-packages']) {
        const dir = join(lib, py, kind);
        if (fs.isDir(dir)) out.push({ dir, python: /^python(3\.\d+)$/.exec(py)?.[1] });
      }
    }
  };
  add(join(root, 'usr', 'lib'));
  add(join(root, 'usr', 'local', 'lib'));
  for (const home of [...fs.listDir(join(root, 'home')).map((h) => join(root, 'home', h)), join(root, 'root')]) add(join(home, '.local', 'lib'));
  // Virtual environments one level inside the workspace folder (hailo-apps makes venv_hailo_apps).
  if (folder) {
    for (const name of fs.listDir(folder)) {
      const lib = join(folder, name, 'lib');
      if (fs.isDir(join(folder, name)) && fs.isDir(lib)) add(lib);
    }
  }
  return out;
}

function probeWheels(
  fs: DoctorFiles,
  root: string,
  folder?: string,
): { wheels: PythonWheel[]; hailoApps?: { version: string; where: string }; tappasModules: string[] } {
  const wheels: PythonWheel[] = [];
  const tappasModules: string[] = [];
  let hailoApps: { version: string; where: string } | undefined;
  for (const site of siteDirs(fs, root, folder)) {
    const pkg = join(site.dir, 'hailo_platform');
    if (fs.isDir(pkg)) {
      // hailo_platform/__init__.py: `__version__ = "4.20.0"` (bindings/python/platform/hailo_platform).
      const init = fs.readText(join(pkg, '__init__.py'), 1 << 20) ?? '';
      const version = versionOf(/__version__\s*=\s*["']([^"']+)["']/.exec(init)?.[1]);
      const extensions = fs.listDir(join(pkg, 'pyhailort')).filter((n) => /^_pyhailort\.cpython-3\d+.*\.so$/.test(n));
      const builtFor = extensions.map((n) => `3.${/^_pyhailort\.cpython-3(\d+)/.exec(n)![1]}`);
      wheels.push({
        path: pkg,
        version,
        sitePython: site.python,
        builtFor: [...new Set(builtFor)],
        extensions: extensions.map((n) => join(pkg, 'pyhailort', n)),
      });
    }
    for (const name of fs.listDir(site.dir)) {
      const m = /^hailo_apps(?:_infra)?-([0-9][^-]*)\.dist-info$/.exec(name);
      if (m && !hailoApps) hailoApps = { version: m[1], where: join(site.dir, name) };
      // TAPPAS's Python module `hailo` (core/hailo/plugins/meson.build: python_installation.extension_module('hailo')).
      if (/^hailo\.cpython-3\d+.*\.so$/.test(name)) tappasModules.push(join(site.dir, name));
    }
  }
  return { wheels, hailoApps, tappasModules };
}

function probePythons(fs: DoctorFiles, root = fs.root): string[] {
  const out = new Set<string>();
  for (const bin of ['usr/bin', 'usr/local/bin']) for (const n of fs.listDir(join(root, bin))) if (/^python3\.\d+$/.test(n)) out.add(n.slice('python'.length));
  return [...out].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
}

function probeService(fs: DoctorFiles, root = fs.root): ServiceState {
  // hailort/hailort_service/hailort.service: PIDFile=/run/hailo/hailort_service.pid, WantedBy=multi-user.target.
  const unit = ['etc/systemd/system', 'lib/systemd/system', 'usr/lib/systemd/system']
    .map((d) => join(d, 'hailort.service'))
    .find((p) => fs.readText(join(root, p)) !== undefined);
  const enabled = fs.readText(join(root, 'etc', 'systemd', 'system', 'multi-user.target.wants', 'hailort.service')) !== undefined;
  const pidFile = join('run', 'hailo', 'hailort_service.pid');
  const pid = /^\d+$/.exec((fs.readText(join(root, pidFile)) ?? '').trim())?.[0];
  const running = pid !== undefined && fs.isDir(join(root, 'proc', pid));
  return { unit: unit ? `/${unit}` : undefined, enabled, running, pidFile: pid ? `/${pidFile}` : undefined };
}

function probeTappas(fs: DoctorFiles, root = fs.root): { version: string; where: string } | undefined {
  for (const dir of LIBRARY_DIRS) {
    for (const name of ['hailo-tappas-core.pc', 'hailo_tappas.pc']) {
      const p = join(dir, 'pkgconfig', name);
      const version = versionOf(/^Version:\s*(\S+)/m.exec(fs.readText(join(root, p)) ?? '')?.[1]);
      if (version) return { version, where: `/${p}` };
    }
  }
  return undefined;
}

/** Hailo's Debian packages (hailort, hailo-all, hailo-dkms, hailofw, h10-hailort, python3-hailort, hailo-tappas-core…). */
function probePackages(fs: DoctorFiles, root = fs.root): { packages: DebPackage[]; leftOut: number } {
  const status = fs.readText(join(root, 'var', 'lib', 'dpkg', 'status'), DPKG_STATUS_MAX);
  const out: DebPackage[] = [];
  let leftOut = 0;
  if (!status) return { packages: out, leftOut };
  const max = limit('doctorPackages'); // each one is a row of the report and a file list read
  for (const block of status.split(/\n\s*\n/)) {
    const name = /^Package:\s*(\S+)/m.exec(block)?.[1];
    if (!name || !/hailo|^h10-/i.test(name)) continue;
    if (!/^Status:.*\binstalled\b/m.test(block)) continue;
    const version = versionOf(/^Version:\s*(\S+)/m.exec(block)?.[1]);
    if (!version) continue;
    if (out.length < max) out.push({ name: name.slice(0, 60), version });
    else leftOut++;
  }
  return { packages: out, leftOut };
}

export function probeSystem(root = '/', folder?: string): SystemSnapshot {
  const fs = new DoctorFiles(root, folder); // this run's roots, handed to every probe
  const { wheels, hailoApps, tappasModules } = probeWheels(fs, root, folder);
  const { packages, leftOut } = probePackages(fs);
  const pci = probePci(fs);
  return {
    root,
    machine: probeMachine(root),
    modules: probeModules(fs),
    deviceNodes: fs
      .listDir(join(root, 'dev'))
      // /dev/hailoN (hailo_pci; hailo1x_pci up to 5.2), /dev/h1x-N (hailo1x_pci from 5.3: releases catalogue).
      .filter((n) => /^hailo\d+$/.test(n) || /^h1x-\d+$/.test(n))
      .map((n) => `/dev/${n}`),
    pci,
    libraries: probeLibraries(fs),
    wheels,
    pythons: probePythons(fs),
    service: probeService(fs),
    tappas: probeTappas(fs),
    hailoApps,
    packages,
    ...(leftOut ? { packagesLeftOut: leftOut } : {}),
    consumers: probeConsumers(fs, wheels, tappasModules, packages),
    firmware: probeFirmware(fs),
    // Only the Hailo-10H's driver logs the line kernelLog.ts looks for: no read (up to 4 MiB) otherwise.
    kernelLog: pci.some((p) => p.family === 'hailo10h') ? probeKernelLog(fs) : undefined,
  };
}

// What is installed, read from files only (no program is run, nothing is written): the kernel
// modules and their versions (sysfs), /dev/hailo*, Hailo PCI functions and the driver bound to
// each, every libhailort in the usual library folders, the Python wheel (hailo_platform) of each
// site-packages folder and the Pythons it is built for, hailort.service (unit, enabled, running),
// TAPPAS / hailo-apps and the Debian packages. Everything is read under `root` (default `/`), so
// tests build fake systems. Reads are bounded (readSmallFileSync) and no walk follows a link.
import { basename, join } from 'node:path';
import { isDirAt, LIBRARY_DIRS, linkTarget, listDir, readText, statAt, useDoctorRoots } from './files';
import { limit } from '../common/limits';
import { probeConsumers } from './linkage';
import { probeFirmware } from './firmware';
import { probeKernelLog } from './kernelLog';
import { probeMachine } from './machine';
import type { DebPackage, KernelModule, Library, PciFunction, PythonWheel, ServiceState, SystemSnapshot } from './types';

const SMALL = 64 << 10;
/** /var/lib/dpkg/status of a full desktop is a few MiB. */
const DPKG_STATUS_MAX = 32 << 20;

export { LIBRARY_DIRS } from './files';

// Reads through the doctor's roots (files.ts: the system root, the workspace folder; issue 29).
const text = (path: string, max = SMALL): string | undefined => readText(path, max);
const list = listDir;
const isDir = isDirAt;

/** A short, printable version string (sysfs and package files are text; bound what we keep). */
function versionOf(raw: string | undefined): string | undefined {
  const v = raw?.trim().split(/\s/)[0]?.slice(0, 40);
  return v && /^[0-9A-Za-z.+~:-]+$/.test(v) ? v : undefined;
}

const PCI_FAMILIES: Record<string, PciFunction['family']> = { '2864': 'hailo8', '45c4': 'hailo10h', '43a2': 'hailo15l', '26a2': 'hailo12l' };

function probeModules(root: string): KernelModule[] {
  const out: KernelModule[] = [];
  for (const name of ['hailo_pci', 'hailo1x_pci'] as const) {
    // MODULE_VERSION(HAILO_DRV_VER) (hailort-drivers linux/pcie/src/pcie.c) appears as /sys/module/<name>/version.
    if (isDir(join(root, 'sys', 'module', name))) out.push({ name, version: versionOf(text(join(root, 'sys', 'module', name, 'version'))) });
  }
  return out;
}

function probePci(root: string): PciFunction[] {
  const base = join(root, 'sys', 'bus', 'pci', 'devices');
  const out: PciFunction[] = [];
  for (const address of list(base)) {
    const vendor = text(join(base, address, 'vendor'))
      ?.trim()
      .toLowerCase();
    // PCI_VENDOR_ID_HAILO 0x1e60 (hailort-drivers common/pcie_common.h)
    if (vendor !== '0x1e60') continue;
    const deviceId = (text(join(base, address, 'device')) ?? '').trim().toLowerCase().replace(/^0x/, '');
    let driver: string | undefined;
    const target = linkTarget(join(base, address, 'driver'));
    driver = target === undefined ? undefined : basename(target);
    out.push({ address, deviceId, family: PCI_FAMILIES[deviceId] ?? 'unknown', driver });
  }
  return out;
}

function probeLibraries(root: string): Library[] {
  const out: Library[] = [];
  const seen = new Set<string>();
  for (const dir of LIBRARY_DIRS) {
    for (const name of list(join(root, dir))) {
      const m = /^libhailort\.so\.(\d+\.\d+\.\d+)$/.exec(name);
      if (!m) continue;
      const path = join(root, dir, name);
      let id: string;
      // One file found through two folders (/lib → /usr/lib on merged-/usr systems) is one library.
      const st = statAt(path);
      if (!st?.isFile()) continue;
      id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ path: `/${dir}/${name}`, version: m[1] });
    }
  }
  return out;
}

function siteDirs(root: string, folder?: string): { dir: string; python?: string }[] {
  const out: { dir: string; python?: string }[] = [];
  const pyDirs = (lib: string) => list(lib).filter((n) => /^python3(\.\d+)?$/.test(n));
  const add = (lib: string) => {
    for (const py of pyDirs(lib)) {
      for (const kind of ['site-packages', 'dist-packages']) {
        const dir = join(lib, py, kind);
        if (isDir(dir)) out.push({ dir, python: /^python(3\.\d+)$/.exec(py)?.[1] });
      }
    }
  };
  add(join(root, 'usr', 'lib'));
  add(join(root, 'usr', 'local', 'lib'));
  for (const home of [...list(join(root, 'home')).map((h) => join(root, 'home', h)), join(root, 'root')]) add(join(home, '.local', 'lib'));
  // Virtual environments one level inside the workspace folder (hailo-apps makes venv_hailo_apps).
  if (folder) {
    for (const name of list(folder)) {
      const lib = join(folder, name, 'lib');
      if (isDir(join(folder, name)) && isDir(lib)) add(lib);
    }
  }
  return out;
}

function probeWheels(root: string, folder?: string): { wheels: PythonWheel[]; hailoApps?: { version: string; where: string }; tappasModules: string[] } {
  const wheels: PythonWheel[] = [];
  const tappasModules: string[] = [];
  let hailoApps: { version: string; where: string } | undefined;
  for (const site of siteDirs(root, folder)) {
    const pkg = join(site.dir, 'hailo_platform');
    if (isDir(pkg)) {
      // hailo_platform/__init__.py: `__version__ = "4.20.0"` (bindings/python/platform/hailo_platform).
      const init = text(join(pkg, '__init__.py'), 1 << 20) ?? '';
      const version = versionOf(/__version__\s*=\s*["']([^"']+)["']/.exec(init)?.[1]);
      const extensions = list(join(pkg, 'pyhailort')).filter((n) => /^_pyhailort\.cpython-3\d+.*\.so$/.test(n));
      const builtFor = extensions.map((n) => `3.${/^_pyhailort\.cpython-3(\d+)/.exec(n)![1]}`);
      wheels.push({
        path: pkg,
        version,
        sitePython: site.python,
        builtFor: [...new Set(builtFor)],
        extensions: extensions.map((n) => join(pkg, 'pyhailort', n)),
      });
    }
    for (const name of list(site.dir)) {
      const m = /^hailo_apps(?:_infra)?-([0-9][^-]*)\.dist-info$/.exec(name);
      if (m && !hailoApps) hailoApps = { version: m[1], where: join(site.dir, name) };
      // TAPPAS's Python module `hailo` (core/hailo/plugins/meson.build: python_installation.extension_module('hailo')).
      if (/^hailo\.cpython-3\d+.*\.so$/.test(name)) tappasModules.push(join(site.dir, name));
    }
  }
  return { wheels, hailoApps, tappasModules };
}

function probePythons(root: string): string[] {
  const out = new Set<string>();
  for (const bin of ['usr/bin', 'usr/local/bin']) for (const n of list(join(root, bin))) if (/^python3\.\d+$/.test(n)) out.add(n.slice('python'.length));
  return [...out].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
}

function probeService(root: string): ServiceState {
  // hailort/hailort_service/hailort.service: PIDFile=/run/hailo/hailort_service.pid, WantedBy=multi-user.target.
  const unit = ['etc/systemd/system', 'lib/systemd/system', 'usr/lib/systemd/system']
    .map((d) => join(d, 'hailort.service'))
    .find((p) => text(join(root, p)) !== undefined);
  const enabled = text(join(root, 'etc', 'systemd', 'system', 'multi-user.target.wants', 'hailort.service')) !== undefined;
  const pidFile = join('run', 'hailo', 'hailort_service.pid');
  const pid = /^\d+$/.exec((text(join(root, pidFile)) ?? '').trim())?.[0];
  const running = pid !== undefined && isDir(join(root, 'proc', pid));
  return { unit: unit ? `/${unit}` : undefined, enabled, running, pidFile: pid ? `/${pidFile}` : undefined };
}

function probeTappas(root: string): { version: string; where: string } | undefined {
  for (const dir of LIBRARY_DIRS) {
    for (const name of ['hailo-tappas-core.pc', 'hailo_tappas.pc']) {
      const p = join(dir, 'pkgconfig', name);
      const version = versionOf(/^Version:\s*(\S+)/m.exec(text(join(root, p)) ?? '')?.[1]);
      if (version) return { version, where: `/${p}` };
    }
  }
  return undefined;
}

/** Hailo's Debian packages (hailort, hailo-all, hailo-dkms, hailofw, h10-hailort, python3-hailort, hailo-tappas-core…). */
function probePackages(root: string): { packages: DebPackage[]; leftOut: number } {
  const status = text(join(root, 'var', 'lib', 'dpkg', 'status'), DPKG_STATUS_MAX);
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
  useDoctorRoots(root, folder);
  const { wheels, hailoApps, tappasModules } = probeWheels(root, folder);
  const { packages, leftOut } = probePackages(root);
  const pci = probePci(root);
  return {
    root,
    machine: probeMachine(root),
    modules: probeModules(root),
    deviceNodes: list(join(root, 'dev'))
      // /dev/hailoN (hailo_pci; hailo1x_pci up to 5.2), /dev/h1x-N (hailo1x_pci from 5.3: releases catalogue).
      .filter((n) => /^hailo\d+$/.test(n) || /^h1x-\d+$/.test(n))
      .map((n) => `/dev/${n}`),
    pci,
    libraries: probeLibraries(root),
    wheels,
    pythons: probePythons(root),
    service: probeService(root),
    tappas: probeTappas(root),
    hailoApps,
    packages,
    ...(leftOut ? { packagesLeftOut: leftOut } : {}),
    consumers: probeConsumers(root, wheels, tappasModules, packages),
    firmware: probeFirmware(root),
    // Only the Hailo-10H's driver logs the line kernelLog.ts looks for: no read (up to 4 MiB) otherwise.
    kernelLog: pci.some((p) => p.family === 'hailo10h') ? probeKernelLog(root) : undefined,
  };
}

// `hailo-tools doctor` and Hailo: Check Setup: one table of what is installed (driver, device
// nodes, PCI functions, every libhailort, each device's firmware, the Python wheel and its Python,
// hailort.service, TAPPAS / hailo-apps, Hailo's Debian packages, the HEFs of the folder) and the
// findings where the pieces disagree (rules.ts). Reads files only; the device scan is passed in by
// the caller (it needs the native worker, which only a trusted caller starts).
import { FileRoots } from '../common/confined';
import { join, relative } from 'node:path';
import { readHefFile } from '../hef';
import type { DeviceError, ScanResult } from '../device/protocol';
import { machineDetail } from './machine';
import { probeSystem } from './probe';
import { findings, primaryLibrary, type HefFacts } from './rules';
import type { Consumer, Finding, SystemSnapshot } from './types';
import { limitMessage } from '../common/limits';

export type { Finding, Severity, SystemSnapshot } from './types';

export interface Component {
  /** Stable kind: machine, driver, device-node, pci, libhailort, consumer, device, python-wheel, python, service, tappas, hailo-apps, package, hef. */
  kind: string;
  name: string;
  version?: string;
  where?: string;
  detail?: string;
}

export interface DoctorReport {
  root: string;
  folder?: string;
  /** Whether the devices were asked (identify), and why not when they were not. */
  devices: { asked: true } | { asked: false; why: string };
  components: Component[];
  findings: Finding[];
}

export interface DoctorOptions {
  /** Read the system under this folder instead of `/` (tests build fake systems). */
  root?: string;
  /** The workspace folder: its HEFs and virtual environments. */
  folder?: string;
  scan?: ScanResult | { error: DeviceError };
  /** Why the scan is absent (shown in the report). */
  noScanReason?: string;
}

/** At most this many HEFs, this deep, are read from the folder (links are not followed). */
const HEF_LIMIT = 64;
const HEF_DEPTH = 4;

function hefsIn(folder: string): string[] {
  const out: string[] = [];
  const roots = FileRoots.of([folder]);
  const walk = (dir: string, depth: number) => {
    if (depth > HEF_DEPTH || out.length >= HEF_LIMIT) return;
    let entries;
    try {
      entries = roots.listEntries(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= HEF_LIMIT) return;
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = join(dir, e.name);
      // Entry types as on disk: a link (to a folder or a file) is neither, so it is not followed.
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.hef')) out.push(p);
    }
  };
  walk(folder, 0);
  return out;
}

export function components(system: SystemSnapshot, scan: DoctorOptions['scan'], hefs: HefFacts[]): Component[] {
  const out: Component[] = [{ kind: 'machine', name: system.machine.model ?? 'machine', detail: machineDetail(system.machine) }];
  for (const m of system.modules) out.push({ kind: 'driver', name: `${m.name} kernel module`, version: m.version, where: `/sys/module/${m.name}` });
  if (system.modules.length === 0) out.push({ kind: 'driver', name: 'Hailo kernel module', detail: 'not loaded (no /sys/module/hailo_pci or hailo1x_pci)' });
  for (const p of system.pci)
    out.push({ kind: 'pci', name: `PCI ${p.address} (1e60:${p.deviceId}, ${p.family})`, detail: p.driver ? `bound to ${p.driver}` : 'no driver bound' });
  out.push({ kind: 'device-node', name: 'device nodes', detail: system.deviceNodes.length ? system.deviceNodes.join(', ') : 'none (/dev/hailo*, /dev/h1x-*)' });
  const first = primaryLibrary(system);
  for (const l of system.libraries)
    out.push({
      kind: 'libhailort',
      name: 'libhailort',
      version: l.version,
      where: l.path,
      detail: l === first && system.libraries.length > 1 ? 'found first' : undefined,
    });
  // The library hailo-tools loaded for the scan, when it is not one of those (hailo.hailort.path, HAILORT_ROOT).
  const loaded = scan && !('error' in scan) ? scan.runtime : undefined;
  if (loaded && !system.libraries.some((l) => l.version === loaded.hailortVersion))
    out.push({
      kind: 'libhailort',
      name: 'libhailort',
      version: loaded.hailortVersion,
      where: loaded.libraryPath,
      detail: `loaded by hailo-tools for the device scan${loaded.fake ? ' (FAKE test library)' : ''}${system.libraries.length ? '' : "; in none of the loader's folders"}`,
    });
  else if (system.libraries.length === 0) out.push({ kind: 'libhailort', name: 'libhailort', detail: 'not found' });
  for (const c of system.consumers) out.push(consumerComponent(c));
  if (scan && !('error' in scan)) {
    for (const d of scan.devices) {
      out.push(
        d.identifyError
          ? { kind: 'device', name: `device ${d.id}`, detail: `not identified (${d.identifyError.name})` }
          : {
              kind: 'device',
              name: `${d.architecture} ${d.id}`,
              version: d.firmware.split(' ')[0],
              detail: `firmware${d.productName ? `, ${d.productName}` : ''}`,
            },
      );
    }
    if (scan.devices.length === 0) out.push({ kind: 'device', name: 'devices', detail: 'HailoRT lists none' });
  }
  for (const w of system.wheels)
    out.push({
      kind: 'python-wheel',
      name: 'hailo_platform (Python wheel)',
      version: w.version,
      where: w.path,
      detail: `_pyhailort for Python ${w.builtFor.join(', ') || 'none'}${w.sitePython ? `; installed for Python ${w.sitePython}` : ''}`,
    });
  if (system.pythons.length) out.push({ kind: 'python', name: 'Python', version: system.pythons.join(', ') });
  out.push({
    kind: 'service',
    name: 'hailort.service',
    where: system.service.unit,
    detail: system.service.unit
      ? `${system.service.enabled ? 'enabled' : 'not enabled'}, ${system.service.running ? 'running' : 'not running'}`
      : 'not installed',
  });
  if (system.tappas) out.push({ kind: 'tappas', name: 'TAPPAS (hailo-tappas-core)', version: system.tappas.version, where: system.tappas.where });
  if (system.hailoApps) out.push({ kind: 'hailo-apps', name: 'hailo-apps', version: system.hailoApps.version, where: system.hailoApps.where });
  for (const p of system.packages) out.push({ kind: 'package', name: `${p.name} (Debian package)`, version: p.version });
  if (system.packagesLeftOut)
    out.push({
      kind: 'package',
      name: `${system.packagesLeftOut.toLocaleString('en-US')} more Debian packages`,
      detail: limitMessage('doctorPackages', "dpkg's status", `${(system.packages.length + system.packagesLeftOut).toLocaleString('en-US')} Hailo packages`),
    });
  for (const h of hefs) {
    const header = h.report.header;
    out.push({
      kind: 'hef',
      name: h.path,
      version: header?.sdkVersion,
      detail: header
        ? `${header.hwArch.name} (runs on ${header.hwArch.compatibleDevices.join(', ') || 'no known device'}), container V${h.report.container?.version ?? '?'}, compiler ${header.sdkVersion ?? 'unknown'}${
            h.report.extensions.length
              ? `, extensions ${h.report.extensions
                  .filter((e) => !e.optional)
                  .map((e) => e.name)
                  .join(' ')}`
              : ''
          }`
        : 'not a readable HEF',
    });
  }
  return out;
}

/** One row per consumer: the libhailort (or TAPPAS library) its ELF needs and where the loader finds it. */
function consumerComponent(c: Consumer): Component {
  const detail = c.error
    ? `not readable as ELF: ${c.error}`
    : c.links.length === 0
      ? 'links no Hailo library'
      : c.links
          .map((l) =>
            l.found
              ? `needs ${l.needed} → ${l.found}${l.realPath ? ` → ${l.realPath}` : ''}${l.version && l.version !== /\d+\.\d+\.\d+$/.exec(l.needed)?.[0] ? ` (libhailort ${l.version})` : ''}`
              : `needs ${l.needed}: NOT FOUND`,
          )
          .join('; ');
  return {
    kind: 'consumer',
    name: c.label,
    version: c.hailort?.version ?? c.hailort?.builtFor,
    where: c.path,
    detail: `${detail}${c.owner ? ` (Debian package ${c.owner.name} ${c.owner.version})` : ''}`,
  };
}

export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const root = options.root ?? '/';
  const system = probeSystem(root, options.folder);
  const hefs: HefFacts[] = [];
  if (options.folder) {
    for (const file of hefsIn(options.folder)) hefs.push({ path: relative(options.folder, file), report: await readHefFile(file, { verifyResources: false }) });
  }
  return {
    root,
    folder: options.folder,
    devices: options.scan ? { asked: true } : { asked: false, why: options.noScanReason ?? 'not asked' },
    components: components(system, options.scan, hefs),
    findings: findings({ system, scan: options.scan, hefs, noScanReason: options.scan ? undefined : (options.noScanReason ?? 'not asked') }),
  };
}

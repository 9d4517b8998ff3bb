// Types the doctor's modules share: the system snapshot probe.ts reads (with the parts firmware.ts,
// kernelLog.ts and linkage.ts read for it) and the findings every rule module returns — here, not in
// probe.ts or rules.ts, so no module imports its own importer (ARCHITECTURE.md "No import cycles").
import type { MachineFacts } from './machine';

// What the system snapshot holds (probe.ts reads it).
export interface KernelModule {
  name: 'hailo_pci' | 'hailo1x_pci';
  version?: string;
}

export interface PciFunction {
  /** `0000:01:00.0`. */
  address: string;
  /** `2864`. */
  deviceId: string;
  /** What the driver source names it (hailort-drivers common/pcie_common.h). */
  family: 'hailo8' | 'hailo10h' | 'hailo15l' | 'hailo12l' | 'unknown';
  /** The bound driver's name, or undefined when none is bound. */
  driver?: string;
}

export interface Library {
  path: string;
  version: string;
}

export interface PythonWheel {
  /** The hailo_platform package folder. */
  path: string;
  version?: string;
  /** `3.11`, from the site-packages path (undefined for Debian's version-less python3/dist-packages). */
  sitePython?: string;
  /** Pythons the wheel's _pyhailort extension is built for (`3.11`, from `_pyhailort.cpython-311-…so`). */
  builtFor: string[];
  /** The `_pyhailort.cpython-3XY-…so` files (host paths): their ELF says which libhailort they load. */
  extensions: string[];
}

export interface ServiceState {
  unit?: string;
  enabled: boolean;
  /** The pid file names a live process (/run/hailo/hailort_service.pid, the unit's PIDFile). */
  running: boolean;
  pidFile?: string;
}

export interface DebPackage {
  name: string;
  version: string;
}

export interface SystemSnapshot {
  root: string;
  /** The board, OS release, kernel and architectures (machine.ts). */
  machine: MachineFacts;
  modules: KernelModule[];
  deviceNodes: string[];
  pci: PciFunction[];
  libraries: Library[];
  wheels: PythonWheel[];
  /** `3.11` for each /usr/bin/python3.X, /usr/local/bin/python3.X. */
  pythons: string[];
  service: ServiceState;
  tappas?: { version: string; where: string };
  hailoApps?: { version: string; where: string };
  packages: DebPackage[];
  /** Hailo packages past `LIMITS.doctorPackages` that dpkg's status lists but the doctor left out. */
  packagesLeftOut?: number;
  /** Programs and modules that load libhailort or TAPPAS's libraries, with what their ELF needs (linkage.ts). */
  consumers: Consumer[];
  /** Hailo firmware files in the kernel's firmware folders (firmware.ts). */
  firmware: FirmwareFiles;
  /** The hailo1x_pci lines of /var/log/kern.log, when one is there (kernelLog.ts). */
  kernelLog?: KernelLogFacts;
}

// Firmware files (firmware.ts).
export interface FirmwareFiles {
  /** The kernel's firmware folders, inside the system, in its order. */
  dirs: string[];
  /** The Hailo firmware files present (`/lib/firmware/hailo/hailo8_fw.bin`). */
  files: string[];
}

// The kernel log (kernelLog.ts).
export interface SocDriverMismatch {
  /** PCI address, `0001:01:00.0`. */
  address: string;
  /** The host's hailo1x_pci version (X.Y.Z). */
  pcieDriver: string;
  /** The version the device's firmware (its pci_ep driver) answered. */
  endpointDriver: string;
  /** The log line, trimmed. */
  line: string;
}

export interface KernelLogFacts {
  path: string;
  mismatches: SocDriverMismatch[];
  /** Why the log is there but was not read (EACCES: Debian's kern.log is root:adm 0640). */
  unreadable?: string;
}

// Which libhailort each consumer loads (linkage.ts).
export type ConsumerKind = 'gstreamer-plugin' | 'tappas-plugin' | 'python-wheel' | 'tappas-python' | 'hailortcli' | 'hailo-ollama';

export interface LinkedLibrary {
  /** The DT_NEEDED name (`libhailort.so.4.20.0`). */
  needed: string;
  /** Where the loader finds it (a path inside the system), or undefined when it does not. */
  found?: string;
  /** That file with its links followed, when it differs from `found`. */
  realPath?: string;
  /** For libhailort: the version of the file found (its SONAME, else its real name). */
  version?: string;
  /** How it was found. */
  via?: 'RPATH' | 'RUNPATH' | 'loader';
}

export interface Consumer {
  kind: ConsumerKind;
  /** `HailoRT's GStreamer plugin (libgsthailo.so)`, `hailortcli`, … */
  label: string;
  /** Inside the system (`/usr/lib/aarch64-linux-gnu/gstreamer-1.0/libgsthailo.so`), or a host path for a venv. */
  path: string;
  /** The Debian package that installed it (dpkg's file lists). */
  owner?: DebPackage;
  /** `AArch64, 64-bit`, when the ELF was read. */
  machine?: string;
  /** Why the ELF could not be read (the file is listed, nothing is concluded from it). */
  error?: string;
  /** The libhailort it needs, when it needs one (at most one: a build links one HailoRT). */
  hailort?: LinkedLibrary & { builtFor: string };
  /** Every Hailo library it needs (libhailort*, libgsthailo*, libhailo*), resolved or not. */
  links: LinkedLibrary[];
}

// A finding of a rule (rules.ts and its rule modules).
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  code: string;
  severity: Severity;
  sentence: string;
  fix: string;
  /** Where the rule comes from (a file in github.com/hailo-ai/hailort or hailort-drivers). */
  source: string;
}

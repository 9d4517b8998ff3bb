// Whether the installed pieces agree. Each finding has a stable code, a severity, one sentence
// naming what disagrees, one fix naming the package and version to install, and the source of the
// rule (HailoRT's or its driver's source, Hailo's own setup check) — docs/doctor.md lists them.
// Pure: the facts come from probe.ts, the device scan and our HEF reader.
import type { HefReport } from '../hef';
import type { ScanResult, DeviceError } from '../device/protocol';
import {
  HAILO8_LAST_RUNTIME,
  atLeast,
  compareVersions,
  driverModuleFor,
  hefArchLabel,
  hefRunsOnDevice,
  isHailo8Family,
  parseVersion,
  readsContainerVersion,
  supportedExtensions,
  type Version,
  versionText,
} from '../device/hailortVersions';
import { releaseHas } from '../releases';
import { inRoot } from './files';
import { linkageFindings } from './linkageRules';
import { firmwareFindings } from './firmware';
import { packageFindings } from './packageRules';
import { firmwareResetFix, kernelLogFindings, RESET_SOURCE } from './kernelLog';
import type { Finding, Library, SystemSnapshot } from './types';
import { pushAll } from '../common/arrays';

export interface HefFacts {
  /** Path relative to the folder. */
  path: string;
  report: HefReport;
}

export interface DoctorInput {
  system: SystemSnapshot;
  /** The device scan (identify of each device), when it could be asked. */
  scan?: ScanResult | { error: DeviceError };
  hefs: HefFacts[];
  /** Why the devices were not asked (--root, --no-device, no HailoRT), when they were not. */
  noScanReason?: string;
}

export const SOURCES = {
  driverVersion: 'hailort/libhailort/src/vdma/driver/hailort_driver.cpp (validate_driver_version)',
  ioctl: 'hailort/libhailort/src/vdma/driver/os/posix/linux/driver_os_specific.cpp (convert_errno_to_hailo_status, ENOTTY)',
  driverNames: 'hailort-drivers linux/pcie/Makefile (DRIVER_NAME) and linux/pcie/src/pcie.c (hailo_pcie_id_table)',
  deviceFamily: 'hailort/libhailort/src/vdma/pcie/pcie_device.cpp (PcieDevice::create)',
  firmware: 'hailort/libhailort/src/device_common/device.cpp (Device::update_fw_state) with hailort/CMakeLists.txt (FIRMWARE_VERSION_*)',
  wheel: 'hailort/libhailort/bindings/python/src/CMakeLists.txt (find_package(HailoRT <version> EXACT REQUIRED))',
  wheelPython: "hailort/libhailort/bindings/python/src/CMakeLists.txt (PYTHON_MODULE_EXTENSION .cpython-3XY-…so) and Python's extension-module suffixes",
  service: 'hailort/libhailort/src/vdevice/vdevice.cpp (VDeviceClient) and hailort/common/utils.hpp ("Make sure HailoRT service is enabled and active!")',
  serviceUnit: 'hailort/hailort_service/hailort.service',
  hefArch: 'hailort/libhailort/src/device_common/device_internal.cpp (is_hef_compatible in 4.x, hef_arch_to_device_compatible_archs in 5.x)',
  hefExtensions:
    'hailort/libhailort/src/hef/hef_internal.hpp (SUPPORTED_EXTENSIONS) and hef.cpp ("Failed opening non-compatible HEF with the following unsupported extensions")',
  hefContainer: 'hailort/libhailort/src/hef/hef.cpp (calc_hef_residue_size: header versions per release)',
  strict: 'hailort/libhailort/src/hef/hef.cpp (Hef::Impl::validate_hef_version, STRICT_RUNTIME_VERSIONING)',
  hailoApps: 'hailo-ai/hailo-apps scripts/check_installed_packages.sh (Hailo-8/8L: driver and HailoRT 4.23.x; Hailo-10H: 5.0.0 or newer)',
} as const;

const DRIVER_PACKAGE = (v: Version) =>
  v.major >= 5 ? `hailort-pcie-driver ${versionText(v)}` : `hailort-pcie-driver ${versionText(v)} (hailo-dkms ${versionText(v)} on a Raspberry Pi)`;

/**
 * The library HailoRT programs load first (the dynamic loader's order: files.ts LIBRARY_DIRS); when
 * none is in those folders, the one hailo-tools itself loaded for the device scan (found through
 * hailo.hailort.path or HAILORT_ROOT).
 */
export function primaryLibrary(system: SystemSnapshot, scan?: DoctorInput['scan']): Library | undefined {
  if (system.libraries[0]) return system.libraries[0];
  if (scan && !('error' in scan)) return { path: scan.runtime.libraryPath, version: scan.runtime.hailortVersion };
  return undefined;
}

function family(arch: string): 'hailo8' | 'hailo1x' {
  return isHailo8Family(arch) ? 'hailo8' : 'hailo1x';
}

export function findings(input: DoctorInput): Finding[] {
  const { system } = input;
  const out: Finding[] = [];
  const lib = primaryLibrary(system, input.scan);
  const libVersion = lib ? parseVersion(lib.version) : undefined;
  const identified = input.scan && !('error' in input.scan) ? input.scan.devices.filter((d) => !d.identifyError) : [];
  const hailoFamilies = new Set<'hailo8' | 'hailo1x'>([
    ...system.pci.filter((p) => p.family !== 'unknown').map((p) => (p.family === 'hailo8' ? ('hailo8' as const) : ('hailo1x' as const))),
    ...identified.map((d) => family(d.architecture)),
  ]);

  // ---- the kernel driver
  if (system.modules.length > 1) {
    out.push({
      code: 'two-drivers',
      severity: 'warning',
      sentence: `Both Hailo kernel modules are loaded (${system.modules.map((m) => `${m.name}${m.version ? ` ${m.version}` : ''}`).join(', ')}); each registers the hailo_chardev class and /dev/hailo*, so which one a device is bound to decides which HailoRT can open it.`,
      fix: "Keep the one of your device's family: hailo_pci (HailoRT 4.x) for Hailo-8/8L, hailo1x_pci (HailoRT 5.x) for Hailo-10H; remove the other package (hailo-all vs hailo-h10-all on a Raspberry Pi) and reboot.",
      source: SOURCES.driverNames,
    });
  }
  for (const p of system.pci) {
    if (p.driver) continue;
    const module = p.family === 'hailo8' ? 'hailo_pci' : 'hailo1x_pci';
    const other = system.modules.find((m) => m.name !== module);
    out.push({
      code: other ? 'driver-family' : 'no-driver',
      severity: 'error',
      sentence: other
        ? `The ${p.family === 'hailo8' ? 'Hailo-8/8L' : p.family} at ${p.address} has no driver bound: the loaded ${other.name} does not drive it (hailo1x_pci binds only Hailo-10H/15L/12L, hailo_pci 4.23 only Hailo-8).`
        : `The Hailo device at ${p.address} (PCI id 1e60:${p.deviceId}) has no driver bound and no Hailo kernel module is loaded.`,
      fix:
        p.family === 'hailo8'
          ? `Install the hailo_pci driver of HailoRT 4.x (${DRIVER_PACKAGE(libVersion && libVersion.major === 4 ? libVersion : parseVersion(HAILO8_LAST_RUNTIME)!)}) and reboot.`
          : `Install the hailo1x_pci driver of HailoRT 5.x (${DRIVER_PACKAGE(libVersion && libVersion.major >= 5 ? libVersion : { major: 5, minor: 2, revision: 0 })}) and reboot.`,
      source: SOURCES.driverNames,
    });
  }
  if (system.modules.length > 0 && system.deviceNodes.length === 0 && system.pci.length > 0 && system.pci.some((p) => p.driver)) {
    out.push({
      code: 'no-device-node',
      severity: 'warning',
      sentence: `The ${system.modules[0].name} driver is bound but there is no /dev/hailo* (or, from HailoRT 5.3, /dev/h1x-*) node, so HailoRT finds no device.`,
      fix: 'Read the driver\'s messages ("dmesg | grep -i hailo": a firmware file missing or a PCIe error) and reboot.',
      source: SOURCES.driverNames,
    });
  }

  // ---- libhailort
  if (!lib) {
    out.push({
      code: 'no-library',
      severity: system.modules.length > 0 || system.pci.length > 0 ? 'error' : 'info',
      sentence: 'No libhailort was found in the library folders, so nothing can run on a Hailo device here.',
      fix: `Install HailoRT of your device's family: ${HAILO8_LAST_RUNTIME} (the hailort package, hailo-all on a Raspberry Pi) for Hailo-8/8L, 5.x (hailort or h10-hailort) for Hailo-10H.`,
      source: SOURCES.hailoApps,
    });
  }
  const versions = [...new Set(system.libraries.map((l) => l.version))];
  if (system.libraries.length > 1) {
    out.push({
      code: 'several-libraries',
      severity: versions.length > 1 ? 'error' : 'warning',
      sentence: `${system.libraries.length} libhailort files are installed (${system.libraries.map((l) => `${l.version} at ${l.path}`).join(', ')}); a program loads the first on its library path${versions.length > 1 ? ', and HailoRT requires the driver, the Python wheel and the service to be of that exact version' : ''}.`,
      fix: `Remove all but one (the ${lib!.version} at ${lib!.path} is the one the dynamic loader finds first), e.g. the package or the files of the others.`,
      source: SOURCES.driverVersion,
    });
  }

  // ---- driver vs library: equal versions (validate_driver_version); the module of the library's family
  for (const m of system.modules) {
    for (const l of lib ? [lib] : []) {
      const lv = parseVersion(l.version)!;
      const expected = driverModuleFor(lv);
      const mv = parseVersion(m.version);
      if (mv && sameText(m.version!, l.version)) continue;
      if (!mv && m.name === expected) continue; // version unknown: nothing to compare
      out.push({
        code: 'driver-library-mismatch',
        severity: 'error',
        sentence: `The kernel driver ${m.name}${m.version ? ` ${m.version}` : ''} and libhailort ${l.version} (${l.path}) differ; HailoRT opens a device only when the driver's version equals its own (status 76${atLeast(lv, 4, 20) ? ', or 86 when the driver does not know its requests' : ''}).`,
        fix: `Install the ${expected} driver ${l.version} (${DRIVER_PACKAGE(lv)}) and reboot${mv ? `, or install HailoRT ${m.version}` : ''}.`,
        source: `${SOURCES.driverVersion}; ${SOURCES.ioctl}`,
      });
    }
  }

  // ---- device family vs library (79)
  if (libVersion) {
    for (const fam of hailoFamilies) {
      const refuses = (libVersion.major >= 5 && fam === 'hailo8') || (libVersion.major === 4 && atLeast(libVersion, 4, 22) && fam === 'hailo1x');
      if (!refuses) continue;
      out.push({
        code: 'runtime-device-family',
        severity: 'error',
        sentence:
          fam === 'hailo8'
            ? `A Hailo-8 family device is attached and libhailort is ${lib!.version}; HailoRT 5.x refuses it ("Hailo8 devices are only supported in versions 4.x.x and earlier", status 79).`
            : `A Hailo-10H/15 family device is attached and libhailort is ${lib!.version}; HailoRT 4.22 and later refuse it ("Hailo1X Devices are only supported in versions 5.0.0 and above", status 79).`,
        fix:
          fam === 'hailo8'
            ? `Install HailoRT ${HAILO8_LAST_RUNTIME} with its hailo_pci driver (hailo-all on a Raspberry Pi) for the Hailo-8 family.`
            : 'Install HailoRT 5.x with its hailo1x_pci driver (h10-hailort / hailo-h10-all on a Raspberry Pi) for the Hailo-10H.',
        source: SOURCES.deviceFamily,
      });
    }
  }

  // ---- each device (identify)
  if (input.scan && 'error' in input.scan) {
    out.push({
      code: 'scan-failed',
      severity: 'error',
      sentence: input.scan.error.sentence,
      fix: 'See the sentence; the findings above name the pieces that disagree.',
      source: SOURCES.driverVersion,
    });
  } else if (input.scan) {
    for (const d of input.scan.devices) {
      if (d.identifyError) {
        out.push({
          code: 'device-not-identified',
          severity: 'error',
          sentence: `HailoRT could not open the device at ${d.id} (${d.identifyError.name}): ${d.identifyError.sentence}`,
          fix: 'Align the driver and libhailort first (the findings above); then "hailo-tools devices" lists the device.',
          source: d.identifyError.kind === 'driver-mismatch' ? `${SOURCES.driverVersion}; ${SOURCES.ioctl}` : SOURCES.deviceFamily,
        });
        continue;
      }
      const fw = parseVersion(d.firmware);
      const rt = parseVersion(input.scan.runtime.hailortVersion);
      // A Hailo-10H keeps the firmware it booted: after a live upgrade of hailo1x_pci it is older than the driver.
      const h1x = system.modules.find((m) => m.name === 'hailo1x_pci');
      const hostDriver = parseVersion(h1x?.version);
      if (fw && hostDriver && !isHailo8Family(d.architecture) && compareVersions(fw, hostDriver) < 0) {
        const pci = system.pci.filter((p) => p.family !== 'hailo8' && p.family !== 'unknown');
        out.push({
          code: 'firmware-older-than-driver',
          severity: 'error',
          sentence: `The ${d.architecture} at ${d.id} still runs firmware ${versionText(fw)} while the host's hailo1x_pci is ${versionText(hostDriver)} — what a live upgrade leaves until the device is reset; the driver and the firmware then disagree on every request.`,
          fix: firmwareResetFix(pci.length === 1 ? pci[0].address : d.id, versionText(hostDriver)),
          source: RESET_SOURCE,
        });
      }
      // update_fw_state compares major.minor; traced for the Hailo-8 family's PcieDevice.
      if (fw && rt && isHailo8Family(d.architecture) && (fw.major !== rt.major || fw.minor !== rt.minor)) {
        out.push({
          code: 'firmware-library-mismatch',
          severity: 'error',
          sentence: `The ${d.architecture} at ${d.id} runs firmware ${versionText(fw)} and libhailort is ${versionText(rt)}; HailoRT allows only its own major.minor firmware beyond identify ("Unsupported firmware operation"), so configuring a HEF fails (status 16).`,
          fix: `Install the firmware of HailoRT ${versionText(rt)} (the hailofw ${versionText(rt)} package, or "hailortcli fw-update" with its firmware file) and reboot.`,
          source: SOURCES.firmware,
        });
      }
    }
  }

  // ---- the Python wheel
  for (const w of system.wheels) {
    const wv = parseVersion(w.version);
    // When the ELF of its _pyhailort says which libhailort it loads, linkageRules.ts says it exactly.
    const linked = system.consumers.some((c) => c.kind === 'python-wheel' && c.hailort && w.extensions.some((e) => inRoot(system.root, e) === c.path));
    if (wv && libVersion && !linked && !sameText(w.version!, lib!.version)) {
      out.push({
        code: 'wheel-library-mismatch',
        severity: 'error',
        sentence: `The Python wheel hailo_platform ${w.version} (${w.path}) is built against exactly libhailort ${w.version}, and the installed libhailort is ${lib!.version}; importing it fails (a missing library or undefined symbols).`,
        fix: `Install the hailort ${lib!.version} wheel for your Python (or python3-hailort ${lib!.version}), or HailoRT ${w.version}.`,
        source: SOURCES.wheel,
      });
    }
    if (w.builtFor.length > 0) {
      const pythons = w.sitePython ? [w.sitePython] : system.pythons;
      if (pythons.length > 0 && !pythons.some((p) => w.builtFor.includes(p))) {
        out.push({
          code: 'wheel-python-mismatch',
          severity: 'error',
          sentence: `The wheel at ${w.path} carries _pyhailort for Python ${w.builtFor.join(', ')}, and it is installed for Python ${pythons.join(', ')}, which imports only an extension of its own version ("No module named 'hailo_platform.pyhailort._pyhailort'").`,
          fix: `Install the hailort ${w.version ?? ''} wheel built for Python ${pythons[pythons.length - 1]} (cp${pythons[pythons.length - 1].replace('.', '')}), or run it with Python ${w.builtFor[0]}.`.replace(
            '  ',
            ' ',
          ),
          source: SOURCES.wheelPython,
        });
      }
    }
  }

  // ---- which libhailort each consumer loads (ELF DT_NEEDED), TAPPAS without hailonet
  pushAll(out, linkageFindings(system, lib));

  // ---- the firmware files the driver loads at probe
  pushAll(out, firmwareFindings(system));

  // ---- what the Hailo-10H's driver logged about the firmware it talks to
  pushAll(out, kernelLogFindings(system));

  // ---- the Raspberry Pi runtime package of the device's family (hailort vs h10-hailort)
  pushAll(
    out,
    packageFindings(
      system,
      identified.map((d) => d.architecture),
    ),
  );

  // ---- hailort.service (4.x: sharing a Hailo-8 between processes)
  if (libVersion && libVersion.major === 4 && hailoFamilies.has('hailo8') && !system.service.running) {
    out.push({
      code: system.service.unit ? 'service-stopped' : 'service-missing',
      severity: 'info',
      sentence: system.service.unit
        ? `hailort.service is installed (${system.service.unit}) but not running; with HailoRT 4.x only processes that go through it can share the Hailo-8 (a group id other than UNIQUE fails with status 77).`
        : 'hailort.service is not installed; with HailoRT 4.x only processes that go through it can share the Hailo-8 (a group id other than UNIQUE fails with status 77).',
      fix: system.service.unit
        ? 'If several programs use the device at once: "sudo systemctl enable --now hailort.service"; otherwise nothing to do.'
        : `If several programs use the device at once: install the hailort ${lib!.version} package, which ships hailort.service; otherwise nothing to do.`,
      source: `${SOURCES.service}; ${SOURCES.serviceUnit}`,
    });
  }

  // ---- Hailo-8 or Hailo-8L: one PCI id (1e60:2864) for both; only the device itself (identify) tells
  const h8 = system.pci.filter((p) => p.family === 'hailo8');
  const identifiedH8 = identified.some((d) => isHailo8Family(d.architecture));
  if (h8.length > 0 && !identifiedH8) {
    const hailo8Only = input.hefs.filter((h) => h.report.header && HAILO8_ONLY_HEF.has(h.report.header.hwArch.id));
    if (hailo8Only.length > 0) {
      out.push({
        code: 'hailo8-or-hailo8l',
        severity: 'warning',
        sentence: `The device at ${h8.map((p) => p.address).join(', ')} (PCI id 1e60:2864) is a Hailo-8 or a Hailo-8L — both show this id — and the doctor could not ask it (${input.noScanReason ?? (input.scan && 'error' in input.scan ? 'the scan failed' : 'not asked')}); ${hailo8Only.map((h) => h.path).join(', ')} ${hailo8Only.length === 1 ? 'is' : 'are'} compiled for hailo8, which a Hailo-8 runs and a Hailo-8L refuses (HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE).`,
        fix: 'Ask the device which it is: "hailo-tools devices" (or "hailortcli fw-control identify") where HailoRT can reach it names HAILO8 or HAILO8L; for a Hailo-8L compile with --hw-arch hailo8l (which runs on both).',
        source: `${SOURCES.hefArch}; ${SOURCES.driverNames} (one id, 0x2864, for the Hailo-8 family)`,
      });
    }
  }

  // ---- HEFs in the folder, against the library (and the attached device)
  for (const h of input.hefs)
    pushAll(
      out,
      hefFindings(
        h,
        libVersion,
        lib,
        identified.map((d) => d.architecture),
      ),
    );
  return out;
}

const RELEASES_SOURCE = 'server/src/core/releases/catalogue.ts (HailoRT 4.24.0: a public deploy note, HailoRT < 4.24 → HAILO_INVALID_HEF on DFC 3.34 HEFs)';

/** HEF hw_arch values a Hailo-8 runs and a Hailo-8L does not (4.x is_hef_compatible: HAILO8L runs only 3 = hailo8l). */
const HAILO8_ONLY_HEF = new Set([1, 2]);

function sameText(a: string, b: string): boolean {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return !!x && !!y && x.major === y.major && x.minor === y.minor && x.revision === y.revision;
}

function hefFindings(h: HefFacts, lib: Version | undefined, libFile: Library | undefined, devices: string[]): Finding[] {
  const out: Finding[] = [];
  const r = h.report;
  if (!r.header || !lib) return out;
  const arch = hefArchLabel(r.header.hwArch.id);
  const container = r.container?.version;
  if (container !== undefined && !readsContainerVersion(lib, container)) {
    out.push({
      code: 'hef-container',
      severity: 'error',
      sentence: `${h.path} is a version ${container} HEF (what DFC 5.x writes), which HailoRT ${versionText(lib)} cannot read (HailoRT reads it from 4.21; status 26).`,
      fix: 'Compile it with the Dataflow Compiler that goes with your HailoRT, or update HailoRT to 4.21 or newer.',
      source: SOURCES.hefContainer,
    });
  }
  const supported = supportedExtensions(lib);
  const missing = r.extensions.filter((e) => !e.optional && !supported.has(e.id));
  if (missing.length > 0) {
    out.push({
      code: 'hef-extensions',
      severity: 'error',
      sentence: `${h.path} needs ${missing.map((e) => e.name).join(', ')}, which HailoRT ${versionText(lib)} does not support, so it refuses the HEF (status ${atLeast(lib, 4, 21) ? 92 : 26}).`,
      fix: 'Update HailoRT to the version of the DFC that compiled it, or compile it with the DFC that goes with your HailoRT.',
      source: SOURCES.hefExtensions,
    });
  }
  const strict = r.extensions.some((e) => e.id === 35);
  const sdk = parseVersion(r.header.sdkVersion);
  if (strict && sdk && (sdk.major !== lib.major || sdk.minor !== lib.minor)) {
    out.push({
      code: 'hef-strict-version',
      severity: 'error',
      sentence: `${h.path} was compiled with strict runtime versioning for ${versionText(sdk)}, and HailoRT ${versionText(lib)} refuses it ("DFC version from which this HEF was created … is different from library version").`,
      fix: `Run it with HailoRT ${sdk.major}.${sdk.minor}.x, or compile it again for HailoRT ${versionText(lib)}.`,
      source: SOURCES.strict,
    });
  }
  // HEFs from DFC 3.34 on need HailoRT 4.24 on the 4.x line (server/src/core/releases).
  const compiler = parseVersion(r.header.compilerVersion);
  if (compiler && compiler.major === 3 && compiler.minor >= 34 && lib.major === 4 && !releaseHas('hailort', lib, 'hef-dfc-3.34')) {
    out.push({
      code: 'hef-needs-newer-runtime',
      severity: 'error',
      sentence: `${h.path} was compiled by Dataflow Compiler ${versionText(compiler)}, whose HEFs need HailoRT 4.24 or newer, and libhailort is ${versionText(lib)}: it refuses the HEF (users report HAILO_INVALID_HEF).`,
      fix: 'Install HailoRT 4.24 (its driver, library and wheel together), or compile the model with DFC 3.33 or older.',
      source: RELEASES_SOURCE,
    });
  }
  const hefFamily = r.header.hwArch.compatibleDevices.some((d) => isHailo8Family(d)) ? 'hailo8' : 'hailo1x';
  if ((lib.major >= 5 && hefFamily === 'hailo8') || (lib.major === 4 && atLeast(lib, 4, 22) && hefFamily === 'hailo1x')) {
    out.push({
      code: 'hef-runtime-family',
      severity: 'warning',
      sentence: `${h.path} was compiled for ${arch}, a device HailoRT ${versionText(lib)} (${libFile?.path}) does not run.`,
      fix: hefFamily === 'hailo8' ? `Run it where HailoRT ${HAILO8_LAST_RUNTIME} drives a Hailo-8/8L.` : 'Run it where HailoRT 5.x drives a Hailo-10H.',
      source: SOURCES.deviceFamily,
    });
  }
  for (const device of new Set(devices)) {
    const v = hefRunsOnDevice(lib, r.header.hwArch.id, r.header.hwArch.compatibleDevices, device);
    if (!v.ok) {
      out.push({
        code: 'hef-device-arch',
        severity: 'error',
        sentence: `${h.path} does not run on the attached ${device}: ${v.detail}.`,
        fix: `Compile it with --hw-arch ${device.toLowerCase()}.`,
        source: SOURCES.hefArch,
      });
    } else if (v.warning) {
      out.push({
        code: 'hef-device-arch-slower',
        severity: 'info',
        sentence: `${h.path}: ${v.warning}.`,
        fix: `Compile it with --hw-arch ${device.toLowerCase()}.`,
        source: SOURCES.hefArch,
      });
    }
  }
  return out;
}

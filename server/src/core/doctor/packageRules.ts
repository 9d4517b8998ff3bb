// The runtime package of the device's family. On a Raspberry Pi, Hailo's packages split in two
// when the Hailo-10H arrived: `hailort` / `python3-hailort` (HailoRT 4.x, metapackage `hailo-all`)
// for the Hailo-8/8L, and `h10-hailort` / `python3-h10-hailort` (HailoRT 5.x, metapackage
// `hailo-h10-all`) for the Hailo-10H. apt now names h10-hailort as the replacement of hailort
// (theNetworkChuck/frigate-nvr-guide#3: "However the following packages replace it: h10-hailort"),
// so a Hailo-8 owner following an older guide gets the runtime that refuses their device, and a
// Hailo-10H owner whose other packages still depend on `hailort` can be switched back to 4.x by an
// upgrade (hailo-rpi5-examples#194/#195). Which HailoRT line drives which device is HailoRT's own
// rule (pcie_device.cpp, the same as runtime-device-family); the package names are Raspberry Pi's.
import { HAILO8_LAST_RUNTIME, atLeast, isHailo8Family, parseVersion } from '../device/hailortVersions';
import type { DebPackage, Finding, SystemSnapshot } from './types';

export const PACKAGE_SOURCE =
  'hailort/libhailort/src/vdma/pcie/pcie_device.cpp (PcieDevice::create: 5.x refuses the Hailo-8 family, 4.22+ the Hailo-1X family) with the package names users report: theNetworkChuck/frigate-nvr-guide#3 (apt: hailort and python3-hailort replaced by h10-hailort and python3-h10-hailort), hailo-ai/hailo-apps#106 ("System package h10-hailort is not installed" on a Hailo-10H), hailo-ai/hailo-rpi5-examples#194/#195 (an upgrade replaced h10-hailort with hailort on a Hailo-10H), hailo-rpi5-examples#98 (apt-cache show hailo-all: Depends hailofw, hailort, hailo-tappas-core, python3-hailort)';

/** Raspberry Pi's runtime packages; a Python package goes with the runtime of the same line. */
const HAILO8_RUNTIME = ['hailort', 'python3-hailort'];
const HAILO10H_RUNTIME = ['h10-hailort', 'python3-h10-hailort'];
/** Packages that declare `Depends: hailort` and so pull the 4.x runtime back (rpi5#195: hailo-gen-ai-model-zoo). */
const DEPENDS_ON_HAILORT = ['hailo-gen-ai-model-zoo'];

type RuntimeFamily = 'hailo8' | 'hailo10h';

/** The device families present: PCI functions (sysfs) and identified devices. Hailo-15L/12L have no Raspberry Pi packages. */
export function runtimeFamilies(system: SystemSnapshot, identifiedArchitectures: string[]): Set<RuntimeFamily> {
  const out = new Set<RuntimeFamily>();
  for (const p of system.pci) if (p.family === 'hailo8' || p.family === 'hailo10h') out.add(p.family);
  for (const a of identifiedArchitectures) {
    if (isHailo8Family(a)) out.add('hailo8');
    else if (a === 'HAILO10H') out.add('hailo10h');
  }
  return out;
}

const named = (p: DebPackage) => `${p.name} ${p.version}`;

export function packageFindings(system: SystemSnapshot, identifiedArchitectures: string[]): Finding[] {
  const families = runtimeFamilies(system, identifiedArchitectures);
  // One runtime package line cannot serve both families; with both devices present nothing here is sure.
  if (families.size !== 1) return [];
  const installed = (names: string[]) => system.packages.filter((p) => names.includes(p.name));
  const out: Finding[] = [];

  if (families.has('hailo8')) {
    // h10-hailort is 5.x by name; a `hailort` 5.x (Hailo's Developer Zone .deb) refuses the Hailo-8 too.
    const wrong = [...installed(HAILO10H_RUNTIME), ...installed(HAILO8_RUNTIME).filter((p) => (parseVersion(p.version)?.major ?? 0) >= 5)];
    if (wrong.length > 0) {
      out.push({
        code: 'runtime-package-family',
        severity: 'error',
        sentence: `The HailoRT 5.x package ${wrong.map(named).join(', ')} is installed and the device is a Hailo-8/8L, which HailoRT 5.x refuses ("Hailo8 devices are only supported in versions 4.x.x and earlier", status 79); apt offers h10-hailort as the replacement of hailort, but it is not for this device.`,
        fix: `Remove ${wrong.map((p) => p.name).join(' ')} (sudo apt remove ${wrong.map((p) => p.name).join(' ')}) and install HailoRT 4.x from Raspberry Pi's packages: sudo apt install hailo-all (it depends on hailort, python3-hailort, hailofw and hailo-tappas-core of the 4.x line; Hailo's own check asks for ${HAILO8_LAST_RUNTIME.replace(/\.0$/, '.x')}).`,
        source: PACKAGE_SOURCE,
      });
    }
  } else {
    const old = installed(HAILO8_RUNTIME).filter((p) => (parseVersion(p.version)?.major ?? 5) < 5);
    if (old.length > 0) {
      const has10h = installed(HAILO10H_RUNTIME);
      const refuses = old.some((p) => atLeast(parseVersion(p.version)!, 4, 22));
      const puller = installed(DEPENDS_ON_HAILORT);
      out.push({
        code: 'runtime-package-family',
        // 4.22+ refuses the Hailo-1X family (pcie_device.cpp); before 4.22 only Hailo's check says 5.0.0 or newer.
        severity: refuses ? 'error' : 'warning',
        sentence:
          `The Hailo-8 runtime package ${old.map(named).join(', ')} is installed and the device is a Hailo-10H, which needs HailoRT 5.x (${refuses ? '"Hailo1X Devices are only supported in versions 5.0.0 and above", status 79' : "Hailo's setup check asks for 5.0.0 or newer"})` +
          (has10h.length > 0 ? `; ${has10h.map(named).join(', ')} is installed beside it.` : '; on a Raspberry Pi its runtime is the h10-hailort package.') +
          (puller.length > 0
            ? ` ${puller.map(named).join(', ')} declares Depends: hailort, so an apt upgrade can put the Hailo-8 runtime back (hailo-rpi5-examples#195).`
            : ''),
        fix:
          has10h.length > 0
            ? `Remove ${old.map((p) => p.name).join(' ')} (sudo apt remove ${old.map((p) => p.name).join(' ')}) and keep ${has10h.map((p) => p.name).join(' ')}.`
            : `Install the Hailo-10H runtime, which replaces it: sudo apt install h10-hailort python3-h10-hailort (or the hailo-h10-all metapackage).`,
        source: PACKAGE_SOURCE,
      });
    }
  }
  return out;
}

// Findings about which libhailort each consumer loads (linkage.ts): a library its ELF needs that the
// loader cannot find, a link that hands it another version than it was built against, a consumer
// whose libhailort differs from the driver (or from the one the other programs load), and TAPPAS
// without HailoRT's GStreamer plugin. Sources in docs/doctor.md; pure.
import { parseVersion, versionText, type Version } from '../device/hailortVersions';
import type { Consumer, ConsumerKind, Finding, Library, SystemSnapshot } from './types';

export const LINK_SOURCES = {
  soname:
    'hailort/libhailort/src/CMakeLists.txt (VERSION X.Y.Z, no SOVERSION: the SONAME is libhailort.so.X.Y.Z, as readelf shows on the real 5.2.0 build); the dynamic loader loads a DT_NEEDED name only as that exact file (ld.so(8))',
  exact:
    'hailort/libhailort/bindings/gstreamer/CMakeLists.txt (4.x: find_package(HailoRT X.Y.Z EXACT REQUIRED)) and bindings/python/src/CMakeLists.txt; hailo-ai/tappas install.sh (compares the libhailort that `ldd libgsthailo.so` names with the installed one and rebuilds the plugin when they differ)',
  registry: 'hailo-ai/hailo-rpi5-examples doc/install-raspberry-pi5.md ("If hailo or hailotools are not found, try deleting the GStreamer registry")',
  plugin:
    'hailort/libhailort/bindings/gstreamer (gsthailoplugin.cpp registers hailonet, synchailonet, hailodevicestats; CMakeLists.txt installs libgsthailo.so into <libdir>/<arch>-linux-gnu/gstreamer-1.0)',
  threads:
    'hailo-rpi5-examples#193 (libhailort.so.4.20.0 missing, then "undefined symbol" through a link), #195 (hailo-ollama: libhailort.so.5.2.0 => not found), #37 (libgsthailometa.so.3), #30 and #151 (no element "hailonet")',
  driverVersion: 'hailort/libhailort/src/vdma/driver/hailort_driver.cpp (validate_driver_version)',
} as const;

const GST_KINDS = new Set<ConsumerKind>(['gstreamer-plugin', 'tappas-plugin']);
const REGISTRY_FIX = ' Then delete GStreamer\'s registry cache ("rm ~/.cache/gstreamer-1.0/registry.*.bin"): it remembers a plugin that failed to load.';

/** What a consumer that cannot load says (the users' threads quote these). */
function failure(c: Consumer, missing: string): string {
  switch (c.kind) {
    case 'gstreamer-plugin':
      return 'GStreamer leaves the plugin out, and pipelines fail with \'no element "hailonet"\'';
    case 'tappas-plugin':
      return "GStreamer leaves TAPPAS's elements out, and pipelines fail with 'no element \"hailofilter\"' (or hailooverlay, hailomuxer…)";
    case 'python-wheel':
      return `"import hailo_platform" fails with "ImportError: ${missing}: cannot open shared object file"`;
    case 'tappas-python':
      return `"import hailo" fails with "ImportError: ${missing}: cannot open shared object file"`;
    default:
      return `it stops with "error while loading shared libraries: ${missing}: cannot open shared object file"`;
  }
}

/** The package that brings this consumer built for HailoRT `v`. */
function packageFor(c: Consumer, v: string): string {
  const major = parseVersion(v)?.major ?? 4;
  const owner = c.owner ? ` (here it came from ${c.owner.name} ${c.owner.version})` : '';
  switch (c.kind) {
    case 'python-wheel':
      return `the hailort ${v} wheel for your Python (${major >= 5 ? 'python3-h10-hailort' : 'python3-hailort'} ${v} on a Raspberry Pi)${owner}`;
    case 'hailo-ollama':
      return `the hailo-gen-ai-model-zoo built for HailoRT ${v}${owner}`;
    case 'tappas-plugin':
    case 'tappas-python':
      return `hailo-tappas-core${owner}`;
    default:
      // The hailort package ships hailortcli and libgsthailo.so (its .deb: usr/bin/hailortcli, usr/lib/<arch>/gstreamer-1.0/libgsthailo.so).
      return `the hailort ${v} package, which ships ${c.kind === 'hailortcli' ? 'hailortcli' : 'libgsthailo.so'} built for it${major < 5 ? ' (hailo-all brings it on a Raspberry Pi)' : ''}${owner}`;
  }
}

const same = (a?: Version, b?: Version) => !!a && !!b && a.major === b.major && a.minor === b.minor && a.revision === b.revision;

export function linkageFindings(system: SystemSnapshot, lib: Library | undefined): Finding[] {
  const out: Finding[] = [];
  const libVersion = parseVersion(lib?.version);
  const module = system.modules.length === 1 ? system.modules[0] : undefined;
  const driver = parseVersion(module?.version);
  for (const c of system.consumers) {
    const where = `${c.label} (${c.path})`;
    for (const link of c.links) {
      if (link.found) continue;
      const isHailort = !!c.hailort && link.needed === c.hailort.needed;
      const built = c.hailort?.builtFor;
      // The right version installed where the loader does not look (/opt/hailort/lib without an ld.so.conf entry).
      const elsewhere = isHailort ? system.libraries.find((l) => same(parseVersion(l.version), parseVersion(built))) : undefined;
      const install = !isHailort
        ? `Reinstall ${packageFor(c, built ?? lib?.version ?? '')}, which ships ${link.needed}.`
        : elsewhere
          ? `libhailort ${built} is at ${elsewhere.path}, a folder the loader does not search: add that folder to a file in /etc/ld.so.conf.d/ and run "sudo ldconfig".`
          : libVersion
            ? `Install ${packageFor(c, lib!.version)} to match the installed libhailort ${lib!.version}, or HailoRT ${built}.`
            : `Install HailoRT ${built}, which ${c.label} was built against.`;
      out.push({
        code: 'consumer-library-missing',
        severity: 'error',
        sentence: `${where} needs ${link.needed}, which none of the dynamic loader's folders holds, so it does not load: ${failure(c, link.needed)}.`,
        fix: `${install}${isHailort && !elsewhere ? ` A link named ${link.needed} to another version is no fix (undefined symbols).` : ''}${GST_KINDS.has(c.kind) ? REGISTRY_FIX : ''}`,
        source: `${LINK_SOURCES.soname}; ${LINK_SOURCES.threads}`,
      });
    }
    const h = c.hailort;
    if (!h?.found) continue;
    const built = parseVersion(h.builtFor);
    const loads = parseVersion(h.version) ?? built;
    if (built && loads && !same(built, loads)) {
      const majorDiffers = built.major !== loads.major;
      out.push({
        code: 'consumer-library-link',
        severity: majorDiffers ? 'error' : 'warning',
        sentence: `${where} was built against libhailort ${h.builtFor}, and ${h.found} is really libhailort ${versionText(loads)}${h.realPath ? ` (${h.realPath})` : ''}; a library of another version lacks symbols the build used, so it ${majorDiffers ? 'fails to load ("undefined symbol", as in rpi5#193)' : 'may fail to load or misbehave (one 5.2.0 build ran on 5.1.1 through such a link, rpi5#195)'}.`,
        fix: `Install ${packageFor(c, versionText(loads))}, or HailoRT ${h.builtFor}, and remove the link ${h.found}.${GST_KINDS.has(c.kind) ? REGISTRY_FIX : ''}`,
        source: `${LINK_SOURCES.soname}; ${LINK_SOURCES.exact}; ${LINK_SOURCES.threads}`,
      });
      continue;
    }
    if (!loads) continue;
    if (driver && module && !same(loads, driver) && !same(loads, libVersion)) {
      out.push({
        code: 'consumer-driver-mismatch',
        severity: 'error',
        sentence: `${where} loads libhailort ${versionText(loads)} (${h.found}), and the kernel driver ${module.name} is ${versionText(driver)}; HailoRT opens a device only when the driver's version equals its own, so it fails with status 76${libVersion && same(libVersion, driver) ? ` where the programs that load ${lib!.path} work` : ''}.`,
        fix: `Install ${packageFor(c, versionText(driver))}, or remove the libhailort ${versionText(loads)} it finds first (${h.found}).${GST_KINDS.has(c.kind) ? REGISTRY_FIX : ''}`,
        source: `${LINK_SOURCES.driverVersion}; ${LINK_SOURCES.soname}`,
      });
    } else if (!driver && libVersion && !same(loads, libVersion)) {
      out.push({
        code: 'consumer-library-version',
        severity: 'warning',
        sentence: `${where} loads libhailort ${versionText(loads)} (${h.found}), while other programs load ${lib!.version} (${lib!.path}); only one of them can equal the driver's version, which HailoRT requires.`,
        fix: `Install ${packageFor(c, lib!.version)}, or remove the libhailort ${versionText(loads)} at ${h.found}.`,
        source: `${LINK_SOURCES.driverVersion}; ${LINK_SOURCES.soname}`,
      });
    }
  }
  // TAPPAS's pipelines put HailoRT's hailonet in front of its own elements.
  const hasPlugin = system.consumers.some((c) => c.kind === 'gstreamer-plugin');
  const tappas = system.tappas ?? system.packages.find((p) => p.name.startsWith('hailo-tappas'));
  const tappasPlugin = system.consumers.find((c) => c.kind === 'tappas-plugin');
  if (!hasPlugin && (tappas || tappasPlugin || system.hailoApps)) {
    const what = tappas || tappasPlugin ? `TAPPAS${tappas ? ` ${tappas.version}` : ''}` : `hailo-apps ${system.hailoApps!.version}`;
    out.push({
      code: 'gstreamer-plugin-missing',
      severity: 'error',
      sentence: `${what} is installed but HailoRT's GStreamer plugin (libgsthailo.so) is in no gstreamer-1.0 folder, so its pipelines fail with 'no element "hailonet"'.`,
      fix: `Install ${lib ? `the hailort ${lib.version} package` : 'the hailort package of your HailoRT'}, which ships libgsthailo.so${!libVersion || libVersion.major < 5 ? ' (hailo-all brings it on a Raspberry Pi)' : ''}.${REGISTRY_FIX}`,
      source: `${LINK_SOURCES.plugin}; ${LINK_SOURCES.registry}`,
    });
  }
  return out;
}

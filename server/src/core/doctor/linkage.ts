// Which libhailort each consumer actually loads. HailoRT's consumers — its GStreamer plugin
// (libgsthailo.so: hailonet), the Python wheel's _pyhailort, hailortcli, hailo-ollama — and TAPPAS's
// (libgsthailotools.so, the `hailo` Python module, which load libgsthailometa) name the exact
// library file they were linked against in their ELF's DT_NEEDED: libhailort's SONAME is
// libhailort.so.X.Y.Z (hailort/libhailort/src/CMakeLists.txt sets VERSION and no SOVERSION). That
// name is resolved here the way the dynamic loader resolves it (ld.so(8)): DT_RPATH when there is
// no DT_RUNPATH, then DT_RUNPATH, then the folders of /etc/ld.so.conf (its `include`s), else
// Debian's defaults — skipping files of another ELF class or machine, as the loader does.
// LD_LIBRARY_PATH belongs to a shell, not to the system, and is not known here.
import { FileRoots } from '../common/confined';
import { basename, dirname, join } from 'node:path';
import { readElfDynamic, readElfIdent, type ElfDynamicInfo } from './elf';
import { DoctorFiles, LIBRARY_DIRS, NOT_LOADER_DIRS, inRoot, resolveInRoot } from './files';
import type { Consumer, ConsumerKind, DebPackage, LinkedLibrary, PythonWheel } from './types';
import { globMatcher } from '../common/glob';

const LABELS: Record<ConsumerKind, string> = {
  'gstreamer-plugin': "HailoRT's GStreamer plugin (libgsthailo.so: hailonet)",
  'tappas-plugin': "TAPPAS's GStreamer plugin (libgsthailotools.so: hailofilter, hailooverlay…)",
  'python-wheel': "the Python wheel's _pyhailort",
  'tappas-python': "TAPPAS's Python module hailo",
  hailortcli: 'hailortcli',
  'hailo-ollama': 'hailo-ollama',
};

/** A library of Hailo's: the ones whose absence this doctor explains. */
export const HAILO_LIBRARY = /^lib(?:hailort|gsthailo|hailo)[^/]*\.so(?:\.|$)/;
const HAILORT_NAME = /^libhailort\.so\.(\d+\.\d+\.\d+)$/;
/** dpkg's file list of one package is a few thousand lines. */
const DPKG_LIST_MAX = 4 << 20;

/** The folders of /etc/ld.so.conf (and the files its `include` lines name), inside the system. */
export function ldSoConfDirs(root: string): string[] | undefined {
  // The system under `root` itself (not the doctor's current roots): its links resolve inside it.
  const system = FileRoots.system(root);
  const out: string[] = [];
  const seen = new Set<string>();
  const read = (rooted: string, depth: number) => {
    if (depth > 4 || seen.has(rooted)) return;
    seen.add(rooted);
    const text = system.readTextOrUndefined(join(root, rooted), 1 << 20);
    if (text === undefined) return;
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#.*/, '').trim();
      if (!line) continue;
      const inc = /^include\s+(\S+)$/.exec(line);
      if (inc) {
        // `include /etc/ld.so.conf.d/*.conf`: a glob in the last part only, as Debian writes it.
        const pattern = inc[1].startsWith('/') ? inc[1] : join(dirname(rooted), inc[1]);
        const dir = dirname(pattern);
        // glibc's ldconfig expands it with glob(3); matched without a RegExp (common/glob: no backtracking).
        const glob = globMatcher(basename(pattern));
        for (const name of system.listOrEmpty(join(root, dir))) if (glob.test(name)) read(join(dir, name), depth + 1);
        continue;
      }
      if (line.startsWith('/')) out.push(line.replace(/\/+$/, '').slice(1));
    }
  };
  if (system.readTextOrUndefined(join(root, 'etc', 'ld.so.conf'), 1 << 20) === undefined) return undefined;
  read('/etc/ld.so.conf', 0);
  return out;
}

/** The loader's own folders after RUNPATH: ld.so.conf's, then the trusted defaults; Debian's list without one. */
export function loaderDirs(root: string): string[] {
  const conf = ldSoConfDirs(root);
  const defaults = ['lib', 'usr/lib', 'lib64', 'usr/lib64'];
  const dirs = conf ? [...conf, ...defaults] : LIBRARY_DIRS.filter((d) => !NOT_LOADER_DIRS.has(d));
  return [...new Set(dirs)];
}

function versionOfLibrary(fs: DoctorFiles, host: string, rootedReal: string): string | undefined {
  try {
    const soname = readElfDynamic(fs.rootsFor(host), host).soname;
    const m = soname && HAILORT_NAME.exec(soname);
    if (m) return m[1];
  } catch {
    // not an ELF we can read: its file name says the version
  }
  return HAILORT_NAME.exec(basename(rootedReal))?.[1];
}

/** Expands `$ORIGIN` (the consumer's folder); entries with other tokens ($LIB, $PLATFORM) are left out. */
function expandSearchPath(entries: string[], origin: string): string[] {
  return entries
    .map((e) => e.replace(/\$\{ORIGIN\}|\$ORIGIN/g, origin))
    .filter((e) => !e.includes('$'))
    .map((e) => (e.startsWith('/') ? e : join(origin, e)));
}

function resolveNeeded(fs: DoctorFiles, consumerRooted: string, elf: ElfDynamicInfo, needed: string, dirs: string[]): LinkedLibrary {
  const root = fs.root;
  const origin = dirname(consumerRooted);
  const searches: { dir: string; via: LinkedLibrary['via'] }[] = [
    ...(elf.runpath.length === 0 ? expandSearchPath(elf.rpath, origin).map((dir) => ({ dir, via: 'RPATH' as const })) : []),
    ...expandSearchPath(elf.runpath, origin).map((dir) => ({ dir, via: 'RUNPATH' as const })),
    ...dirs.map((d) => ({ dir: `/${d}`, via: 'loader' as const })),
  ];
  for (const s of searches) {
    const hit = resolveInRoot(root, join(s.dir, needed));
    if (!hit) continue;
    try {
      if (!fs.stat(hit.host)?.isFile()) continue;
    } catch {
      continue;
    }
    // The loader skips a library of another class or machine and goes on searching.
    const ident = readElfIdent(fs.rootsFor(hit.host), hit.host);
    if (ident && (ident.bits !== elf.bits || ident.machine !== elf.machine || ident.littleEndian !== elf.littleEndian)) continue;
    const found = join(s.dir, needed);
    const version = HAILORT_NAME.test(needed) ? versionOfLibrary(fs, hit.host, hit.rooted) : undefined;
    return { needed, found, realPath: hit.rooted !== found ? hit.rooted : undefined, version, via: s.via };
  }
  return { needed };
}

/**
 * Which Debian package installed a file (dpkg's `info/<package>.list`), among Hailo's packages. The
 * lists are read once, on the first question, and searched for whole lines (a list has thousands).
 */
function fileOwners(fs: DoctorFiles, packages: DebPackage[]): (path: string) => DebPackage | undefined {
  let texts: { p: DebPackage; text: string }[] | undefined;
  return (path) => {
    if (!texts) {
      const info = join(fs.root, 'var', 'lib', 'dpkg', 'info');
      const lists = packages.length ? fs.listDir(info).filter((n) => n.endsWith('.list')) : [];
      texts = [];
      for (const p of packages) {
        const name = lists.find((n) => n === `${p.name}.list` || n.startsWith(`${p.name}:`));
        const text = name && fs.readText(join(info, name), DPKG_LIST_MAX);
        if (text) texts.push({ p, text: `\n${text}\n` });
      }
    }
    return texts.find((t) => t.text.includes(`\n${path}\n`))?.p;
  };
}

interface Candidate {
  kind: ConsumerKind;
  host: string;
}

function candidates(root: string, wheels: PythonWheel[], tappasModules: string[]): Candidate[] {
  const out: Candidate[] = [];
  for (const dir of LIBRARY_DIRS) {
    const gst = join(root, dir, 'gstreamer-1.0');
    // hailort/libhailort/bindings/gstreamer/CMakeLists.txt installs libgsthailo.so into <libdir>/<arch>-linux-gnu/gstreamer-1.0;
    // TAPPAS (core/hailo/plugins/meson.build) libgsthailotools.so into <libdir>/gstreamer-1.0.
    out.push({ kind: 'gstreamer-plugin', host: join(gst, 'libgsthailo.so') }, { kind: 'tappas-plugin', host: join(gst, 'libgsthailotools.so') });
  }
  for (const bin of ['usr/local/bin', 'usr/bin', 'bin']) {
    out.push({ kind: 'hailortcli', host: join(root, bin, 'hailortcli') }, { kind: 'hailo-ollama', host: join(root, bin, 'hailo-ollama') });
  }
  for (const w of wheels) for (const e of w.extensions) out.push({ kind: 'python-wheel', host: e });
  for (const m of tappasModules) out.push({ kind: 'tappas-python', host: m });
  return out;
}

export function probeConsumers(fs: DoctorFiles, wheels: PythonWheel[], tappasModules: string[], packages: DebPackage[]): Consumer[] {
  const root = fs.root;
  const dirs = loaderDirs(root);
  const owners = fileOwners(fs, packages);
  const seen = new Set<string>();
  const out: Consumer[] = [];
  for (const c of candidates(root, wheels, tappasModules)) {
    let id: string;
    try {
      // Most candidates are absent: no exception for them (its stack costs more than the stat).
      const st = fs.stat(c.host);
      if (!st?.isFile()) continue;
      // One file seen through two folders (/lib → /usr/lib) is one consumer.
      id = `${st.dev}:${st.ino}`;
    } catch {
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    const path = inRoot(root, c.host);
    const insideRoot = root === '/' || path !== c.host;
    // $ORIGIN is the folder of the file with its links followed (the loader's /proc/self/exe, a plugin's path).
    const real = insideRoot ? resolveInRoot(root, path) : undefined;
    const owner = owners(path) ?? (real ? owners(real.rooted) : undefined);
    const consumer: Consumer = { kind: c.kind, label: LABELS[c.kind], path, owner, links: [] };
    let elf: ElfDynamicInfo;
    try {
      elf = readElfDynamic(fs.rootsFor(c.host), c.host);
    } catch (err) {
      consumer.error = err instanceof Error ? err.message : String(err);
      out.push(consumer);
      continue;
    }
    consumer.machine = `${elf.machineName}, ${elf.bits}-bit`;
    for (const needed of elf.needed.filter((n) => HAILO_LIBRARY.test(n))) {
      const link = insideRoot ? resolveNeeded(fs, real?.rooted ?? path, elf, needed, dirs) : resolveVenvNeeded(fs, c.host, elf, needed, dirs);
      consumer.links.push(link);
      const m = HAILORT_NAME.exec(needed);
      if (m && !consumer.hailort) consumer.hailort = { ...link, builtFor: m[1] };
    }
    out.push(consumer);
  }
  return out;
}

/**
 * A consumer outside the root (a venv in the workspace folder of a fake system): its own RUNPATH
 * is read on the host, the loader's folders inside the root.
 */
function resolveVenvNeeded(fs: DoctorFiles, host: string, elf: ElfDynamicInfo, needed: string, dirs: string[]): LinkedLibrary {
  const origin = dirname(host);
  for (const dir of elf.runpath.length === 0 ? expandSearchPath(elf.rpath, origin) : expandSearchPath(elf.runpath, origin)) {
    const candidate = join(dir, needed);
    try {
      if (fs.stat(candidate)?.isFile())
        return {
          needed,
          found: candidate,
          version: HAILORT_NAME.test(needed) ? versionOfLibrary(fs, candidate, candidate) : undefined,
          via: elf.runpath.length ? 'RUNPATH' : 'RPATH',
        };
    } catch {
      // not there: the next folder
    }
  }
  return resolveNeeded(fs, '/', { ...elf, rpath: [], runpath: [] }, needed, dirs);
}

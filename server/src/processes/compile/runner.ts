// Runs one compile in the DFC container: checks docker, picks the image, starts a uniquely named,
// labelled container running the driver script, streams its console, and on the way out removes
// the container and moves only the outputs of stages that finished into place. Shared by the CLI
// and the extension; processes come from the injected launcher (no child_process here).
//
// Atomicity: the container writes into a fresh staging folder inside the output folder (same file
// system), and a stage's output is renamed into place only after the driver recorded that stage as
// finished. A failed run still delivers the stages before the failure (e.g. the parsed HAR); a
// cancelled or killed run delivers nothing, and the previous HEF is replaced only by a new one.
import { randomBytes } from 'node:crypto';
import type { FileRoots } from '../../core/common/confined';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  DRIVER_FILE,
  IN_CONTAINER,
  containerName,
  copyInArgs,
  copyOutArgs,
  createArgs,
  dockerCommand,
  imageInspectArgs,
  imagesArgs,
  infoArgs,
  removeArgs,
  runArgs,
  startAttachedArgs,
  stateArgs,
  versionArgs,
  contextHostArgs,
  type DockerTarget,
  type RunSpec,
} from './dockerArgs';
import {
  contextProblem,
  imageProblem,
  daemonProblem,
  imageMissing,
  killedOutside,
  outOfMemory,
  refusalProblem,
  startProblem,
  type DockerProblem,
} from './dockerErrors';
import { DEFAULT_IMAGE, dfcOfImage, inspectLabels, pickImage } from './images';
import { dfcCannotBuild } from '../../core/releases';
import { OUTPUT_NAMES, driverArgs, resolveInputs, type CompileInputs, type ResolvedInputs } from './inputs';
import { capture, sharedAnswer, streamEnd, type Captured, type LaunchedProcess, type ProcessLauncher } from './process';
import { extractAllowed, packInto, type PackFile } from './transfer';
import { externalDataFiles } from './modelFiles';
import type { OnnxRead } from '../../core/onnx/modelCache';

import type { Gpus } from '../../core/common/settings';
import { parseFileJson } from '../../core/common/json';
export type { Gpus };

export interface DockerSettings extends DockerTarget {
  /** Empty: the first local Hailo DFC image, else DEFAULT_IMAGE. */
  image?: string;
  /** `docker run --memory` (e.g. `40g`); empty: docker's default (no limit). */
  memoryLimit?: string;
  gpus: Gpus;
  extraRunArgs: string[];
}

export type RunnerStep = 'checking-docker' | 'starting-container' | 'copying-inputs' | 'running' | 'copying-outputs' | 'cleaning-up';

export interface RunnerEnv {
  launch: ProcessLauncher;
  /** Host folder holding the driver script (hailo_compile.py). */
  driverDir: string;
  /** `--user uid:gid` for bind-mounted runs (Linux), so outputs belong to the user. */
  user?: string;
  signal?: AbortSignal;
  /** The container's console, as it arrives. */
  onOutput(text: string, stream: 'stdout' | 'stderr'): void;
  onStep?(step: RunnerStep, detail: string): void;
  /** For tests: the random part of the container name. */
  nameSuffix?: string;
  /**
   * Answers of docker's read-only questions (version, context endpoint, images, info) shared by the
   * compiles of one sweep: asked once per context, not once per variant. Failed answers are not kept.
   */
  queryCache?: Map<string, Promise<Captured>>;
  /** The sweep's ONNX reader (one parse per model for all its compiles); default: a fresh parse. */
  readOnnx?: OnnxRead;
  /** For tests: the run's deadline instead of RUN_DEADLINE_MS. */
  runDeadlineMs?: number;
}

/** What the driver records in the staging folder after each stage (see driver/hailo_compile.py). */
export interface DriverManifest {
  net?: string;
  stages?: Partial<Record<'parse' | 'optimize' | 'compile', { status: 'ok'; seconds?: number; output?: string }>>;
  hailoConfig?: { requested: boolean; embedded: boolean; method?: string | null; detail?: string };
  calibration?: { source: 'file' | 'random'; shape?: number[] | Record<string, number[]> };
  mode?: 'api' | 'cli';
}

export const MANIFEST = 'hailo-tools-result.json';

/**
 * Deadlines of the long docker calls (the short ones have theirs in `capture`): a compile of a
 * large model runs for hours, so `docker run`/`start --attach` ends only after a day; a `docker cp`
 * is stopped when no byte moves for five minutes.
 */
export const RUN_DEADLINE_MS = 24 * 60 * 60 * 1000;
export const COPY_IDLE_MS = 5 * 60 * 1000;

export interface ContainerInfo {
  name: string;
  image: string;
  context: string | null;
  transfer: 'mount' | 'copy';
  gpus: boolean;
  /** Whether `docker rm --force` confirmed the container is gone. */
  removed: boolean;
}

export interface CompileRun {
  /** finished: the driver ran to an exit (success or DFC failure); the rest stopped before or around it. */
  status: 'finished' | 'docker-failed' | 'cancelled' | 'input-error';
  net: string;
  outDir: string;
  inputs?: ResolvedInputs;
  problem?: DockerProblem;
  inputError?: string;
  /** The container's (driver's) exit. */
  exit?: { code: number | null; signal: string | null; oomKilled?: boolean };
  /** We stopped the run at its deadline (the container's exit is that stop's, not the DFC's nor the memory limit's). */
  stoppedAtDeadline?: true;
  container?: ContainerInfo;
  manifest?: DriverManifest;
  outputs: { har: string | null; optimizedHar: string | null; hef: string | null };
  /** Messages about things that went wrong around the run (cleanup), never fatal. */
  notes: string[];
}

const STEP_TEXT: Record<RunnerStep, string> = {
  'checking-docker': 'checking docker',
  'starting-container': 'starting the container',
  'copying-inputs': 'copying inputs into the container',
  running: 'running the Dataflow Compiler',
  'copying-outputs': 'copying outputs out of the container',
  'cleaning-up': 'removing the container',
};

export async function runCompile(request: CompileInputs, settings: DockerSettings, env: RunnerEnv): Promise<CompileRun> {
  const checked = resolveInputs(request);
  const notes: string[] = [];
  const empty = { har: null, optimizedHar: null, hef: null };
  if (typeof checked === 'string') {
    return { status: 'input-error', inputError: checked, net: '', outDir: request.outDir ?? '', outputs: empty, notes };
  }
  const resolved: ResolvedInputs = checked;
  const base = { net: resolved.net, outDir: resolved.outDir, inputs: resolved, outputs: empty, notes };
  const target: DockerTarget = { dockerPath: settings.dockerPath, context: settings.context || undefined };
  const ctx = { dockerPath: settings.dockerPath, context: target.context, memoryLimit: settings.memoryLimit };
  const step = (s: RunnerStep) => env.onStep?.(s, STEP_TEXT[s]);
  const cancelled = () => env.signal?.aborted === true;
  const docker = (args: string[], timeoutMs = 30_000) => capture(env.launch, ...dockerCommand(target, args), { timeoutMs, signal: env.signal });
  /** The clean-up calls run after a cancel too: they have their deadline, but no abort. */
  const dockerCleanup = (args: string[], timeoutMs = 60_000) => capture(env.launch, ...dockerCommand(target, args), { timeoutMs });
  const query = (args: string[], timeoutMs = 30_000): Promise<Captured> => {
    const cache = env.queryCache;
    if (!cache) return docker(args, timeoutMs);
    // Shared by the compiles of a pool: one compile's cancel must not end the others' answer (the deadline still does).
    return sharedAnswer(cache, JSON.stringify(dockerCommand(target, args)), () => dockerCleanup(args, timeoutMs));
  };
  // Values that become docker arguments cannot be read as flags (`docker image inspect -x`).
  const argProblem = contextProblem(settings.context) ?? (settings.image?.trim() ? imageProblem(settings.image.trim()) : undefined);
  if (argProblem) return { ...base, status: 'docker-failed', problem: argProblem };

  // 1. Docker itself: the client exists, the daemon answers, the context exists.
  step('checking-docker');
  const version = await query(versionArgs(), 20_000);
  const vProblem = daemonProblem(version, ctx) ?? (version.code !== 0 ? refusalProblem(version, ctx) : undefined);
  if (vProblem) return { ...base, status: 'docker-failed', problem: vProblem };
  if (cancelled()) return { ...base, status: 'cancelled' };
  const hostR = await query(contextHostArgs(target.context));
  if (hostR.code !== 0) {
    return { ...base, status: 'docker-failed', problem: daemonProblem(hostR, ctx) ?? refusalProblem(hostR, ctx) };
  }
  const host = parseJsonString(hostR.stdout) ?? '';
  // A unix socket or Windows named pipe is this machine: bind mounts work. Anything else (ssh://,
  // tcp://) may be another machine that cannot see our paths, so files travel by docker cp.
  const transfer: 'mount' | 'copy' = /^(unix|npipe):\/\//.test(host) ? 'mount' : 'copy';

  // 2. The image: the setting, else the first local Hailo DFC image, else the suite's default name.
  let image = settings.image?.trim();
  if (!image) {
    const ls = await query(imagesArgs());
    if (ls.code !== 0) return { ...base, status: 'docker-failed', problem: daemonProblem(ls, ctx) ?? refusalProblem(ls, ctx) };
    image = pickImage(ls.stdout, resolved.hwArch) ?? DEFAULT_IMAGE;
  }
  const picked = imageProblem(image);
  if (picked) return { ...base, status: 'docker-failed', problem: picked };
  const inspect = await query(imageInspectArgs(image));
  if (inspect.code !== 0) return { ...base, status: 'docker-failed', problem: daemonProblem(inspect, ctx) ?? imageMissing({ ...ctx, image }) };
  // The image's DFC line, from its labels or name, before any stage runs: 3.x builds the Hailo-8
  // family only, 5.x Hailo-10H/15 only (server/src/core/releases/compileTargets.ts).
  const dfc = dfcOfImage(image, inspectLabels(inspect.stdout));
  const cannot = dfc && dfcCannotBuild(image, dfc.version, dfc.from, resolved.hwArch);
  if (cannot) return { ...base, status: 'docker-failed', problem: { kind: 'image-wrong-line', setting: 'hailo.dfc.image', message: cannot } };

  // 3. GPUs: `auto` asks docker whether an NVIDIA runtime is configured; rootless docker maps
  // container root to the user, so no --user there.
  let gpus = settings.gpus === 'all';
  let user = transfer === 'mount' ? env.user : undefined;
  if (settings.gpus === 'auto' || user) {
    const info = await query(infoArgs());
    const parsed = parseJsonObject(info.stdout) as { Runtimes?: Record<string, unknown>; SecurityOptions?: string[] } | undefined;
    if (settings.gpus === 'auto') gpus = Object.keys(parsed?.Runtimes ?? {}).some((r) => /nvidia/i.test(r));
    if ((parsed?.SecurityOptions ?? []).some((o) => /name=rootless/.test(o))) user = undefined;
  }
  if (cancelled()) return { ...base, status: 'cancelled' };

  // 4. The container.
  const name = containerName(resolved.net, env.nameSuffix ?? randomBytes(4).toString('hex'));
  const container: ContainerInfo = { name, image, context: target.context ?? null, transfer, gpus, removed: false };
  const ctxNamed = { ...ctx, image, container: name };
  try {
    resolved.writeRoots.mkdir(resolved.outDir);
  } catch (err) {
    return { ...base, status: 'input-error', inputError: `Cannot create the output folder '${resolved.outDir}': ${(err as Error).message}.` };
  }
  const staging = join(resolved.outDir, `.${name}`); // STAGING_PREFIX + the name's random part
  resolved.writeRoots.remove(staging, { recursive: true });
  resolved.writeRoots.mkdir(staging);

  const spec: RunSpec = {
    name,
    image,
    owner: `${hostname()}:${process.pid}`,
    model: resolved.model,
    inputs: transfer === 'mount' ? resolved.folders : [],
    staging: transfer === 'mount' ? staging : undefined,
    stagingHost: staging,
    driverDir: transfer === 'mount' ? env.driverDir : undefined,
    user,
    memoryLimit: settings.memoryLimit?.trim() || undefined,
    gpus,
    extraRunArgs: settings.extraRunArgs,
    driverArgs: driverArgs(resolved),
  };

  let containerMayExist = false;
  let running: LaunchedProcess | undefined;
  let removal: Promise<Captured> | undefined;
  const removeContainer = () => {
    removal ??= dockerCleanup(removeArgs(name), 60_000);
    return removal;
  };
  const onAbort = () => {
    if (containerMayExist) void removeContainer();
    // The docker client exits once its container is gone; if it hangs, stop it too.
    if (running) setTimeout(() => running?.kill(), 15_000).unref();
  };
  env.signal?.addEventListener('abort', onAbort, { once: true });

  let result: CompileRun;
  try {
    result = await runContainer();
  } finally {
    env.signal?.removeEventListener('abort', onAbort);
    if (containerMayExist) {
      step('cleaning-up');
      // Always (again): a container created while a cancel raced its creation must go too.
      removal = undefined;
      const rm = await removeContainer();
      container.removed = rm.code === 0 || /No such container/i.test(rm.stderr);
      if (!container.removed)
        notes.push(`Could not remove container '${name}': ${rm.stderr.trim() || `exit ${rm.code}`} — remove it with 'docker rm -f ${name}'.`);
    }
    resolved.writeRoots.remove(staging, { recursive: true });
  }
  return result;

  async function runContainer(): Promise<CompileRun> {
    let exit: Captured;
    if (transfer === 'mount') {
      step('running');
      containerMayExist = true;
      exit = await stream(dockerCommand(target, runArgs(spec)));
    } else {
      step('starting-container');
      containerMayExist = true;
      const created = await dockerCleanup(createArgs(spec), 120_000);
      if (cancelled()) return { ...base, status: 'cancelled', container };
      if (created.code !== 0) return { ...base, status: 'docker-failed', container, problem: refusalProblem(created, ctxNamed) };
      step('copying-inputs');
      const copied = await copyIn();
      if (cancelled()) return { ...base, status: 'cancelled', container };
      if (copied) return { ...base, status: 'docker-failed', container, problem: copied };
      step('running');
      exit = await stream(dockerCommand(target, startAttachedArgs(name)));
    }
    if (cancelled()) return { ...base, status: 'cancelled', container, exit: { code: exit.code, signal: exit.signal } };
    if (exit.timedOut) {
      const hours = Math.round(((env.runDeadlineMs ?? RUN_DEADLINE_MS) / 3_600_000) * 1000) / 1000;
      return {
        ...base,
        status: 'docker-failed',
        container,
        exit: { code: exit.code, signal: exit.signal },
        stoppedAtDeadline: true,
        problem: {
          kind: 'timeout',
          message: `The compile ran for ${hours} hours, the longest a compile may run; the container was stopped and removed, and nothing was delivered.`,
        },
      };
    }
    const started = startProblem(exit, ctx);
    if (started) return { ...base, status: 'docker-failed', container, problem: started };
    if (exit.code === 125 || (transfer === 'copy' && exit.code === 1 && /Error response from daemon/i.test(exit.stderr))) {
      return { ...base, status: 'docker-failed', container, problem: refusalProblem(exit, ctxNamed), exit: { code: exit.code, signal: exit.signal } };
    }
    if (exit.code === 126 || exit.code === 127) {
      return {
        ...base,
        status: 'docker-failed',
        container,
        exit: { code: exit.code, signal: exit.signal },
        problem: {
          kind: 'refused',
          setting: 'hailo.dfc.image',
          message: `The image '${image}' cannot run python3 (exit ${exit.code}): choose a Hailo AI Software Suite / DFC image with hailo.dfc.image (CLI: --image).`,
        },
      };
    }
    let oomKilled: boolean | undefined;
    let vanished = false;
    if (exit.code === 137) {
      const state = await dockerCleanup(stateArgs(name), 30_000);
      const s = parseJsonObject(state.stdout) as { OOMKilled?: boolean } | undefined;
      oomKilled = typeof s?.OOMKilled === 'boolean' ? s.OOMKilled : undefined;
      // docker inspect's own words for a container that is gone (moby: "No such object").
      vanished = state.code !== 0 && /No such (object|container)/i.test(state.stderr);
      if (cancelled()) return { ...base, status: 'cancelled', container };
    }
    // Ended from outside (not by us, not by the memory limit): nothing is delivered, as for a cancel.
    const outside = vanished ? 'removed' : exit.code === 137 && oomKilled === false ? 'killed' : undefined;
    if (transfer === 'copy') {
      step('copying-outputs');
      const problem = await copyOut();
      if (problem) notes.push(problem.message);
    }
    if (cancelled()) return { ...base, status: 'cancelled', container };
    const manifest = readManifest(resolved.writeRoots, join(staging, MANIFEST));
    const finishedExit = { code: exit.code, signal: exit.signal, ...(oomKilled !== undefined ? { oomKilled } : {}) };
    // A killed driver never promotes anything: the stage in flight may have half-written.
    const outputs = exit.code === 137 ? empty : promote(manifest);
    const problem = outside
      ? killedOutside(ctxNamed, outside)
      : exit.code === 137
        ? outOfMemory(ctx, oomKilled)
        : exit.code === 3
          ? {
              kind: 'refused' as const,
              setting: 'hailo.dfc.image',
              message: `The image '${image}' has no Dataflow Compiler (neither hailo_sdk_client nor the hailo CLI): choose a Hailo AI Software Suite / DFC image with hailo.dfc.image (CLI: --image).`,
            }
          : undefined;
    return {
      ...base,
      status: problem && exit.code === 3 ? 'docker-failed' : 'finished',
      container,
      exit: finishedExit,
      manifest,
      outputs,
      ...(problem ? { problem } : {}),
    };
  }

  /** Runs a long docker command, streaming its output to the caller; captures stderr's tail. Killed at RUN_DEADLINE_MS. */
  async function stream([file, args]: [string, string[]]): Promise<Captured> {
    const p = env.launch(file, args);
    running = p;
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      if (containerMayExist) void removeContainer();
      p.kill();
    }, env.runDeadlineMs ?? RUN_DEADLINE_MS);
    deadline.unref();
    const tail = { stdout: '', stderr: '' };
    const pump = (s: NodeJS.ReadableStream, which: 'stdout' | 'stderr') => {
      const dec = new StringDecoder('utf8');
      s.on('data', (b: Buffer) => {
        const text = dec.write(b);
        if (!text) return;
        tail[which] = (tail[which] + text).slice(-65536);
        env.onOutput(text, which);
      });
      s.on('end', () => {
        const text = dec.end();
        if (text) env.onOutput(text, which);
      });
    };
    pump(p.stdout, 'stdout');
    pump(p.stderr, 'stderr');
    const exit = await p.exit;
    clearTimeout(deadline);
    await Promise.all([streamEnd(p.stdout), streamEnd(p.stderr)]);
    running = undefined;
    return { ...exit, stdout: tail.stdout, stderr: tail.stderr, ...(timedOut ? { timedOut } : {}) };
  }

  /** Kills `p` when nothing moves for COPY_IDLE_MS (a docker cp that never answers); returns the "it moved" hook. */
  function idleDeadline(p: LaunchedProcess, what: string, problem: { message?: string }): { moved(): void; done(): void } {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        problem.message = `${what} stopped moving for ${Math.round(COPY_IDLE_MS / 1000)} s; it was stopped`;
        p.kill();
      }, COPY_IDLE_MS);
      timer.unref();
    };
    arm();
    return { moved: arm, done: () => timer && clearTimeout(timer) };
  }

  async function copyIn(): Promise<DockerProblem | undefined> {
    const root = 'hailo-tools';
    const dirs = [
      { name: root, mode: 0o755 },
      { name: `${root}/driver`, mode: 0o755 },
      { name: `${root}/out`, mode: 0o777 },
      { name: `${root}/home`, mode: 0o777 },
    ];
    const files: PackFile[] = [{ hostPath: join(env.driverDir, DRIVER_FILE), name: `${root}/driver/${DRIVER_FILE}` }];
    const rel = (containerPath: string) => containerPath.replace(/^\/tmp\//, '');
    for (const f of resolved.folders) dirs.push({ name: rel(f.target), mode: 0o755 });
    for (const p of [resolved.model, resolved.modelScript, resolved.calibration, resolved.hailoConfig]) {
      if (p) files.push({ hostPath: resolved.realOf(p), name: rel(resolved.inContainer(p)) });
    }
    // ONNX external data travels with the model, under the location the model records.
    if (resolved.kind === 'onnx') {
      const modelDir = rel(resolved.folders[0].target);
      for (const d of externalDataFiles(resolved.model, env.readOnnx)) {
        const parts = d.location.split('/').slice(0, -1);
        for (let i = 1; i <= parts.length; i++) dirs.push({ name: `${modelDir}/${parts.slice(0, i).join('/')}`, mode: 0o755 });
        files.push({ hostPath: d.path, name: `${modelDir}/${d.location}` });
      }
    }
    const [file, args] = dockerCommand(target, copyInArgs(name));
    const p = env.launch(file, args, { stdin: 'pipe' });
    running = p;
    let stderr = '';
    const stalled: { message?: string } = {};
    const idle = idleDeadline(p, 'docker cp (inputs)', stalled);
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.stdout.resume();
    p.stdin!.on('drain', idle.moved);
    const packed = packInto(p.stdin!, dirs, files).catch((err: Error) => err);
    const [exit, packErr] = await Promise.all([p.exit, packed]);
    idle.done();
    await streamEnd(p.stderr);
    running = undefined;
    if (exit.code === 0 && !packErr) return undefined;
    const why = stalled.message ?? (stderr.trim().split('\n')[0] || (packErr instanceof Error ? packErr.message : `exit ${exit.code}`));
    return { kind: 'copy-failed', message: `Copying the inputs into container '${name}' failed: ${why}.` };
  }

  async function copyOut(): Promise<DockerProblem | undefined> {
    const [file, args] = dockerCommand(target, copyOutArgs(name));
    const p = env.launch(file, args);
    running = p;
    let stderr = '';
    const stalled: { message?: string } = {};
    const idle = idleDeadline(p, 'docker cp (outputs)', stalled);
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.stdout.on('data', idle.moved);
    const names = OUTPUT_NAMES(resolved.net);
    const allowed = new Set([names.har, names.optimizedHar, names.hef, MANIFEST]);
    const extracted = extractAllowed(p.stdout, staging, allowed).catch((err: Error) => err);
    const [exit, result] = await Promise.all([p.exit, extracted]);
    idle.done();
    await streamEnd(p.stderr);
    running = undefined;
    if (exit.code === 0 && !(result instanceof Error)) return undefined;
    const why = stalled.message ?? (stderr.trim().split('\n')[0] || (result instanceof Error ? result.message : `exit ${exit.code}`));
    return { kind: 'copy-failed', message: `Copying the outputs out of container '${name}' failed: ${why}.` };
  }

  function promote(manifest: DriverManifest | undefined): CompileRun['outputs'] {
    const names = OUTPUT_NAMES(resolved.net);
    const out: CompileRun['outputs'] = { har: null, optimizedHar: null, hef: null };
    const stages = manifest?.stages ?? {};
    const pairs = [
      ['har', 'parse', names.har],
      ['optimizedHar', 'optimize', names.optimizedHar],
      ['hef', 'compile', names.hef],
    ] as const;
    for (const [key, stage, file] of pairs) {
      if (stages[stage]?.status !== 'ok') continue;
      const from = join(staging, file);
      if (!((resolved.writeRoots.stat(from)?.size ?? 0) > 0)) {
        notes.push(`The driver reported ${stage} finished, but ${file} is missing or empty; nothing was moved.`);
        continue;
      }
      const to = join(resolved.outDir, file);
      try {
        resolved.writeRoots.rename(from, to); // a link at `to` is replaced, never written through
        out[key] = to;
      } catch (err) {
        notes.push(`Could not move ${file} into ${resolved.outDir}: ${(err as Error).message}.`);
      }
    }
    return out;
  }
}

/** The driver's manifest is a few lines of JSON; a bigger one is not the driver's. */
const MANIFEST_MAX_BYTES = 1 << 20;

function readManifest(roots: FileRoots, path: string): DriverManifest | undefined {
  try {
    return parseFileJson(roots.readText(path, MANIFEST_MAX_BYTES), path) as DriverManifest;
  } catch {
    return undefined;
  }
}

function parseJsonString(s: string): string | undefined {
  try {
    const v = JSON.parse(s.trim());
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function parseJsonObject(s: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(s.trim());
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// Runs the DFC emulator's inference contexts in the DFC container: one `docker run` of
// driver/hailo_emulate.py (beside the compile driver) over the HAR and an inputs .npy, both
// bind-mounted read-only, writing into a fresh staging folder; then reads the driver's manifest
// and each context's outputs (.npy). Reuses the compile runner's docker pieces (argv builders,
// docker's errors in one sentence, image pick, launcher behind a TrustToken). The container is
// always removed (`docker rm --force`), also on cancel. Local docker only: a remote context cannot
// see our paths (the compile runner's docker-cp path is not wired here yet).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  IN_CONTAINER,
  containerName,
  contextHostArgs,
  dockerCommand,
  imageInspectArgs,
  imagesArgs,
  removeArgs,
  runArgs,
  versionArgs,
  type RunSpec,
} from '../compile/dockerArgs';
import { daemonProblem, imageMissing, refusalProblem, startProblem, contextProblem, imageProblem } from '../compile/dockerErrors';
import { DEFAULT_IMAGE, pickImage } from '../compile/images';
import { capture, streamEnd, type LaunchedProcess, type ProcessLauncher } from '../compile/process';
import { RUN_DEADLINE_MS, type DockerSettings } from '../compile/runner';
import { readNpyFile, type NpyValues } from '../calib/npyRead';
import type { OracleId } from './oracles';

export const EMULATOR_CONTEXTS = ['native', 'fp_optimized', 'quantized', 'bit_exact'] as const;
export type EmulatorContext = (typeof EMULATOR_CONTEXTS)[number];
export const EMULATE_DRIVER = 'hailo_emulate.py';
const MANIFEST = 'hailo-tools-emulate.json';

export interface EmulatorRequest {
  /** The optimized HAR (SDK_NATIVE also runs on a parsed one). */
  har: string;
  /** (N, …) NHWC float32 inputs. */
  inputs: string;
  contexts: readonly EmulatorContext[];
  /** Host folder for the staging folder (removed afterwards). */
  workDir: string;
  hwArch?: string;
}

export interface EmulatorEnv {
  launch: ProcessLauncher;
  driverDir: string;
  user?: string;
  signal?: AbortSignal;
  onOutput?(text: string, stream: 'stdout' | 'stderr'): void;
  nameSuffix?: string;
}

export type ContextResult =
  | { status: 'ok'; seconds?: number; outputs: { name: string; shape: number[]; values: NpyValues }[] }
  | { status: 'crashed'; message: string }
  | { status: 'unavailable'; message: string };

export interface EmulatorRun {
  status: 'finished' | 'docker-failed' | 'cancelled' | 'failed';
  /** One sentence when not finished. */
  message?: string;
  container?: { name: string; image: string; removed: boolean };
  contexts: Partial<Record<EmulatorContext, ContextResult>>;
  exit?: { code: number | null; signal: string | null };
}

interface Manifest {
  outputLayers?: string[];
  contexts?: Record<
    string,
    { status: 'ok' | 'crashed'; seconds?: number; error?: string; message?: string; outputs?: { name: string; file: string; shape: number[] }[] }
  >;
}

export const contextOracle = (c: EmulatorContext): OracleId => c;

export async function runEmulator(request: EmulatorRequest, settings: DockerSettings, env: EmulatorEnv): Promise<EmulatorRun> {
  // Bind-mount sources must be absolute (the daemon refuses 'examples/model'): resolve what the
  // caller named against its own folder before anything reaches docker.
  const req = { ...request, har: resolve(request.har), inputs: resolve(request.inputs), workDir: resolve(request.workDir) };
  const target = { dockerPath: settings.dockerPath, context: settings.context || undefined };
  const ctx = { dockerPath: settings.dockerPath, context: target.context, memoryLimit: settings.memoryLimit };
  const docker = (args: string[], timeoutMs = 30_000) => capture(env.launch, ...dockerCommand(target, args), { timeoutMs, signal: env.signal });
  const none: EmulatorRun['contexts'] = {};
  const argProblem = contextProblem(target.context) ?? (settings.image?.trim() ? imageProblem(settings.image.trim()) : undefined);
  if (argProblem) return { status: 'docker-failed', message: argProblem.message, contexts: none };
  const version = await docker(versionArgs(), 20_000);
  const vp = daemonProblem(version, ctx) ?? (version.code !== 0 ? refusalProblem(version, ctx) : undefined);
  if (vp) return { status: 'docker-failed', message: vp.message, contexts: none };
  const host = await docker(contextHostArgs(target.context));
  if (host.code !== 0) return { status: 'docker-failed', message: (daemonProblem(host, ctx) ?? refusalProblem(host, ctx)).message, contexts: none };
  if (!/"(unix|npipe):\/\//.test(host.stdout)) {
    return {
      status: 'docker-failed',
      message: `The docker context${target.context ? ` '${target.context}'` : ''} is not this machine (${host.stdout.trim()}); emulation bind-mounts the HAR and the inputs, so it needs a local docker.`,
      contexts: none,
    };
  }
  let image = settings.image?.trim();
  if (!image) {
    const ls = await docker(imagesArgs());
    if (ls.code !== 0) return { status: 'docker-failed', message: (daemonProblem(ls, ctx) ?? refusalProblem(ls, ctx)).message, contexts: none };
    image = pickImage(ls.stdout, req.hwArch ?? 'hailo10h') ?? DEFAULT_IMAGE;
  }
  const picked = imageProblem(image);
  if (picked) return { status: 'docker-failed', message: picked.message, contexts: none };
  const inspect = await docker(imageInspectArgs(image));
  if (inspect.code !== 0) return { status: 'docker-failed', message: (daemonProblem(inspect, ctx) ?? imageMissing({ ...ctx, image })).message, contexts: none };
  if (env.signal?.aborted) return { status: 'cancelled', contexts: none };

  const net = basename(req.har).replace(/\.har$/i, '');
  const name = containerName(`emulate-${net}`, env.nameSuffix ?? randomBytes(4).toString('hex'));
  mkdirSync(req.workDir, { recursive: true });
  const staging = join(req.workDir, `.${name}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 });
  const inHar = IN_CONTAINER.input(0);
  const inData = IN_CONTAINER.input(1);
  const spec: RunSpec = {
    name,
    image,
    owner: `${hostname()}:${process.pid}`,
    model: basename(req.har),
    inputs: [
      { source: dirname(req.har), target: inHar },
      { source: dirname(req.inputs), target: inData },
    ],
    staging,
    driverDir: env.driverDir,
    driverFile: EMULATE_DRIVER,
    user: env.user,
    memoryLimit: settings.memoryLimit?.trim() || undefined,
    gpus: settings.gpus === 'all',
    extraRunArgs: settings.extraRunArgs,
    driverArgs: [
      '--har',
      `${inHar}/${basename(req.har)}`,
      '--inputs',
      `${inData}/${basename(req.inputs)}`,
      '--out',
      IN_CONTAINER.out,
      ...(req.hwArch ? ['--hw-arch', req.hwArch] : []),
      ...req.contexts.flatMap((c) => ['--context', c]),
    ],
  };
  const container = { name, image, removed: false };
  let removal: Promise<unknown> | undefined;
  // Removal runs after a cancel too: its own deadline, never the aborted signal.
  const remove = () => (removal ??= capture(env.launch, ...dockerCommand(target, removeArgs(name)), { timeoutMs: 60_000 }));
  let running: LaunchedProcess | undefined;
  const onAbort = () => {
    void remove();
    // The docker client exits once its container is gone; if it hangs, stop it too.
    setTimeout(() => running?.kill(), 15_000).unref();
  };
  env.signal?.addEventListener('abort', onAbort, { once: true });
  let deadline: NodeJS.Timeout | undefined;
  try {
    const p = env.launch(...dockerCommand(target, runArgs(spec)));
    running = p;
    deadline = setTimeout(() => {
      void remove();
      p.kill();
    }, RUN_DEADLINE_MS);
    deadline.unref();
    p.stdout.setEncoding('utf8').on('data', (d: string) => env.onOutput?.(d, 'stdout'));
    p.stderr.setEncoding('utf8').on('data', (d: string) => env.onOutput?.(d, 'stderr'));
    const exit = await p.exit;
    clearTimeout(deadline);
    running = undefined;
    await Promise.all([streamEnd(p.stdout), streamEnd(p.stderr)]);
    const started = startProblem(exit, ctx);
    if (started) return { status: 'docker-failed', message: started.message, contexts: none, container };
    if (env.signal?.aborted) return { status: 'cancelled', contexts: none, container, exit };
    const manifestPath = join(staging, MANIFEST);
    if (!existsSync(manifestPath)) {
      const why =
        exit.code === 3
          ? 'the image has no Dataflow Compiler (hailo_sdk_client is not importable)'
          : exit.code === 2
            ? 'the driver could not read the HAR or the inputs'
            : `the container exited with ${exit.code ?? exit.signal} before the emulator started`;
      return { status: 'failed', message: `Emulation did not run: ${why}.`, contexts: none, container, exit };
    }
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const contexts: EmulatorRun['contexts'] = {};
    for (const c of req.contexts) {
      const r = m.contexts?.[c];
      if (!r) contexts[c] = { status: 'unavailable', message: `the driver stopped before ${c} ran (exit ${exit.code ?? exit.signal})` };
      else if (r.status === 'crashed') contexts[c] = { status: 'crashed', message: `${r.error ?? 'Error'}: ${r.message ?? ''}`.trim() };
      else {
        try {
          contexts[c] = {
            status: 'ok',
            seconds: r.seconds,
            outputs: (r.outputs ?? []).map((o) => ({ name: o.name, shape: o.shape, values: readNpyFile(join(staging, o.file)) })),
          };
        } catch (err) {
          contexts[c] = { status: 'unavailable', message: `its outputs cannot be read: ${(err as Error).message}` };
        }
      }
    }
    return { status: 'finished', contexts, container, exit };
  } finally {
    clearTimeout(deadline);
    env.signal?.removeEventListener('abort', onAbort);
    removal = undefined;
    const rm = (await remove()) as { code: number | null; stderr: string };
    container.removed = rm.code === 0 || /No such container/i.test(rm.stderr);
    rmSync(staging, { recursive: true, force: true });
  }
}

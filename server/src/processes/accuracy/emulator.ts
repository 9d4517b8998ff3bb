// Runs the DFC emulator's inference contexts in the DFC container: one `docker run` of
// driver/hailo_emulate.py (beside the compile driver) over the HAR and an inputs .npy, both
// bind-mounted read-only, writing into a fresh staging folder; then reads the driver's manifest
// and each context's outputs (.npy). Reuses the compile runner's docker pieces (argv builders,
// docker's errors in one sentence, image pick, launcher behind a TrustToken). The container is
// always removed (`docker rm --force`), also on cancel. A remote context (ssh://, tcp://) cannot
// see our paths: there, as the compile runner does, the container is created, the driver, HAR and
// inputs go in through `docker cp` (a tar on stdin), it runs attached, and the manifest and the
// contexts' .npy outputs come out the same way (a tar on stdout, only those names unpacked).
import { FileRoots } from '../../core/common/confined';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  DRIVER_MODULE,
  IN_CONTAINER,
  containerName,
  contextHostArgs,
  copyInArgs,
  copyOutArgs,
  createArgs,
  dockerCommand,
  startAttachedArgs,
  imageInspectArgs,
  imagesArgs,
  removeArgs,
  runArgs,
  versionArgs,
  type RunSpec,
} from '../compile/dockerArgs';
import { daemonProblem, imageMissing, refusalProblem, startProblem, contextProblem, imageProblem } from '../compile/dockerErrors';
import { DEFAULT_IMAGE, pickImage } from '../compile/images';
import { capture, sharedAnswer, streamEnd, type Captured, type LaunchedProcess, type ProcessLauncher } from '../compile/process';
import { extractAllowed, packInto, type PackFile } from '../compile/transfer';
import { RUN_DEADLINE_MS, type DockerSettings } from '../compile/runner';
import { readNpyFile, type NpyValues } from '../../core/calib/npyRead';
import type { OracleId } from '../../core/accuracy/oracles';
import { parseFileJson } from '../../core/common/json';

export const EMULATOR_CONTEXTS = ['native', 'fp_optimized', 'quantized', 'bit_exact'] as const;
export type EmulatorContext = (typeof EMULATOR_CONTEXTS)[number];
export const EMULATE_DRIVER = 'hailo_emulate.py';
const MANIFEST = 'hailo-tools-emulate.json';
/** A `docker cp` in or out of a remote context: a host that went away must not hang the run (hostile rule: every process has a deadline). */
const COPY_DEADLINE_MS = 30 * 60_000;
/** What the driver writes per context (driver/hailo_emulate.py: `<context>/<i>.npy`). */
const OUTPUT_FILE = new RegExp(`^(${EMULATOR_CONTEXTS.join('|')})/\\d+\\.npy$`);

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
  /** docker's read-only answers shared with the compiles of a sweep (see RunnerEnv.queryCache). */
  queryCache?: Map<string, Promise<Captured>>;
}

export type ContextResult =
  | { status: 'ok'; seconds?: number; outputs: { name: string; shape: number[]; values: NpyValues }[] }
  | { status: 'crashed'; message: string }
  | { status: 'unavailable'; message: string };

export interface EmulatorRun {
  status: 'finished' | 'docker-failed' | 'cancelled' | 'failed';
  /** One sentence when not finished. */
  message?: string;
  container?: { name: string; image: string; removed: boolean; transfer: 'mount' | 'copy' };
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
  const query = (args: string[], timeoutMs = 30_000): Promise<Captured> => {
    const cache = env.queryCache;
    if (!cache) return docker(args, timeoutMs);
    // Shared by the runs of a sweep: one run's cancel must not end the others' answer (the deadline
    // still does), as in the compile runner.
    return sharedAnswer(cache, JSON.stringify(dockerCommand(target, args)), () => capture(env.launch, ...dockerCommand(target, args), { timeoutMs }));
  };
  const version = await query(versionArgs(), 20_000);
  const vp = daemonProblem(version, ctx) ?? (version.code !== 0 ? refusalProblem(version, ctx) : undefined);
  if (vp) return { status: 'docker-failed', message: vp.message, contexts: none };
  const host = await query(contextHostArgs(target.context));
  if (host.code !== 0) return { status: 'docker-failed', message: (daemonProblem(host, ctx) ?? refusalProblem(host, ctx)).message, contexts: none };
  // A unix socket or named pipe is this machine (bind mounts); anything else may not see our paths.
  const transfer: 'mount' | 'copy' = /^"(unix|npipe):\/\//.test(host.stdout.trim()) ? 'mount' : 'copy';
  let image = settings.image?.trim();
  if (!image) {
    const ls = await query(imagesArgs());
    if (ls.code !== 0) return { status: 'docker-failed', message: (daemonProblem(ls, ctx) ?? refusalProblem(ls, ctx)).message, contexts: none };
    image = pickImage(ls.stdout, req.hwArch ?? 'hailo10h') ?? DEFAULT_IMAGE;
  }
  const picked = imageProblem(image);
  if (picked) return { status: 'docker-failed', message: picked.message, contexts: none };
  const inspect = await query(imageInspectArgs(image));
  if (inspect.code !== 0) return { status: 'docker-failed', message: (daemonProblem(inspect, ctx) ?? imageMissing({ ...ctx, image })).message, contexts: none };
  if (env.signal?.aborted) return { status: 'cancelled', contexts: none };

  const net = basename(req.har).replace(/\.har$/i, '');
  const name = containerName(`emulate-${net}`, env.nameSuffix ?? randomBytes(4).toString('hex'));
  const work = FileRoots.of([req.workDir]);
  work.mkdir(req.workDir);
  const staging = join(req.workDir, `.${name}`);
  work.remove(staging, { recursive: true });
  work.mkdir(staging);
  const inHar = IN_CONTAINER.input(0);
  const inData = IN_CONTAINER.input(1);
  const harIn = `${inHar}/${basename(req.har)}`;
  const dataIn = `${inData}/${basename(req.inputs)}`;
  const spec: RunSpec = {
    name,
    image,
    owner: `${hostname()}:${process.pid}`,
    model: basename(req.har),
    inputs:
      transfer === 'mount'
        ? [
            { source: dirname(req.har), target: inHar },
            { source: dirname(req.inputs), target: inData },
          ]
        : [],
    staging: transfer === 'mount' ? staging : undefined,
    // Recorded in a label: a killed run's container is found and removed with its staging folder.
    stagingHost: staging,
    driverDir: transfer === 'mount' ? env.driverDir : undefined,
    driverFile: EMULATE_DRIVER,
    user: transfer === 'mount' ? env.user : undefined,
    memoryLimit: settings.memoryLimit?.trim() || undefined,
    gpus: settings.gpus === 'all',
    extraRunArgs: settings.extraRunArgs,
    driverArgs: [
      '--har',
      harIn,
      '--inputs',
      dataIn,
      '--out',
      IN_CONTAINER.out,
      ...(req.hwArch ? ['--hw-arch', req.hwArch] : []),
      ...req.contexts.flatMap((c) => ['--context', c]),
    ],
  };
  const container = { name, image, removed: false, transfer };
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
  const cancelled = () => env.signal?.aborted === true;
  try {
    let exit: Captured;
    if (transfer === 'mount') {
      exit = await attached(dockerCommand(target, runArgs(spec)));
    } else {
      const created = await docker(createArgs(spec), 120_000);
      if (cancelled()) return { status: 'cancelled', contexts: none, container };
      if (created.code !== 0)
        return { status: 'docker-failed', message: refusalProblem(created, { ...ctx, image, container: name }).message, contexts: none, container };
      const inFailed = await copyIn();
      if (cancelled()) return { status: 'cancelled', contexts: none, container };
      if (inFailed) return { status: 'docker-failed', message: inFailed, contexts: none, container };
      exit = await attached(dockerCommand(target, startAttachedArgs(name)));
    }
    const started = startProblem(exit, ctx);
    if (started) return { status: 'docker-failed', message: started.message, contexts: none, container };
    if (cancelled()) return { status: 'cancelled', contexts: none, container, exit };
    // docker refused the container (run: 125; an attached start: 1 with the daemon's answer).
    if (exit.code === 125 || (transfer === 'copy' && exit.code === 1 && /Error response from daemon/i.test(exit.stderr)))
      return { status: 'docker-failed', message: refusalProblem(exit, { ...ctx, image, container: name }).message, contexts: none, container, exit };
    if (transfer === 'copy') {
      const outFailed = await copyOut();
      if (cancelled()) return { status: 'cancelled', contexts: none, container, exit };
      if (outFailed) return { status: 'failed', message: outFailed, contexts: none, container, exit };
    }
    const manifestPath = join(staging, MANIFEST);
    if (!work.exists(manifestPath)) {
      const why =
        exit.code === 3
          ? 'the image has no Dataflow Compiler (hailo_sdk_client is not importable)'
          : exit.code === 2
            ? 'the driver could not read the HAR or the inputs'
            : `the container exited with ${exit.code ?? exit.signal} before the emulator started`;
      return { status: 'failed', message: `Emulation did not run: ${why}.`, contexts: none, container, exit };
    }
    const m = parseFileJson(work.readText(manifestPath, 16 << 20), manifestPath) as Manifest;
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
    work.remove(staging, { recursive: true });
  }

  async function attached([file, args]: [string, string[]]): Promise<Captured> {
    const p = env.launch(file, args);
    running = p;
    deadline = setTimeout(() => {
      void remove();
      p.kill();
    }, RUN_DEADLINE_MS);
    deadline.unref();
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => env.onOutput?.(d, 'stdout'));
    p.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-65536);
      env.onOutput?.(d, 'stderr');
    });
    const exit = await p.exit;
    clearTimeout(deadline);
    running = undefined;
    await Promise.all([streamEnd(p.stdout), streamEnd(p.stderr)]);
    return { ...exit, stdout: '', stderr };
  }

  /** The driver, the HAR and the inputs into the created container (same layout as the bind mounts). */
  async function copyIn(): Promise<string | undefined> {
    const rel = (containerPath: string) => containerPath.replace(/^\/tmp\//, '');
    const dirs = [IN_CONTAINER.root, IN_CONTAINER.driver, inHar, inData].map((d) => ({ name: rel(d), mode: 0o755 }));
    dirs.push({ name: rel(IN_CONTAINER.out), mode: 0o777 }, { name: rel(IN_CONTAINER.home), mode: 0o777 });
    const files: PackFile[] = [
      { hostPath: join(env.driverDir, EMULATE_DRIVER), name: rel(`${IN_CONTAINER.driver}/${EMULATE_DRIVER}`) },
      { hostPath: join(env.driverDir, DRIVER_MODULE), name: rel(`${IN_CONTAINER.driver}/${DRIVER_MODULE}`) },
      { hostPath: req.har, name: rel(harIn) },
      { hostPath: req.inputs, name: rel(dataIn) },
    ];
    const [file, args] = dockerCommand(target, copyInArgs(name));
    const p = env.launch(file, args, { stdin: 'pipe' });
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-65536)));
    p.stdout.resume();
    const copyDeadline = setTimeout(() => p.kill(), COPY_DEADLINE_MS).unref();
    const packed = packInto(p.stdin!, dirs, files).catch((err: Error) => err);
    const [exit, packErr] = await Promise.all([p.exit, packed]);
    clearTimeout(copyDeadline);
    await streamEnd(p.stderr);
    if (exit.code === 0 && !packErr) return undefined;
    const why = stderr.trim().split('\n')[0] || (packErr instanceof Error ? packErr.message : `exit ${exit.code}`);
    return `Copying the HAR and the inputs into container '${name}' failed: ${why}.`;
  }

  /** The manifest and the contexts' outputs (`<context>/<i>.npy`) out of the container into staging. */
  async function copyOut(): Promise<string | undefined> {
    const wanted = (n: string) => n === MANIFEST || OUTPUT_FILE.test(n);
    const [file, args] = dockerCommand(target, copyOutArgs(name));
    const p = env.launch(file, args);
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-65536)));
    const copyDeadline = setTimeout(() => p.kill(), COPY_DEADLINE_MS).unref();
    const extracted = extractAllowed(p.stdout, staging, wanted).catch((err: Error) => err);
    const [exit, result] = await Promise.all([p.exit, extracted]);
    clearTimeout(copyDeadline);
    await streamEnd(p.stderr);
    if (exit.code === 0 && !(result instanceof Error)) return undefined;
    const why = stderr.trim().split('\n')[0] || (result instanceof Error ? result.message : `exit ${exit.code}`);
    return `Copying the emulator's outputs out of container '${name}' failed: ${why}.`;
  }
}

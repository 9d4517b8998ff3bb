// One run of a driver script (driver/*.py) in the DFC container, for the analyses that are not a
// compile: the same docker pieces as the compile runner (argv builders, docker's errors in one
// sentence, image pick, labelled and uniquely named container, launcher behind a TrustToken),
// inputs bind-mounted read-only, a fresh staging folder read-write. The container is always removed
// (`docker rm --force`), also on cancel; the staging folder is the caller's to read and is removed
// by `cleanup()`. Local docker only: a remote context cannot see our paths (the compile runner's
// docker-cp transfer is not shared yet), which is said in one sentence.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import {
  IN_CONTAINER,
  containerName,
  contextHostArgs,
  dockerCommand,
  imageInspectArgs,
  imagesArgs,
  infoArgs,
  removeArgs,
  runArgs,
  versionArgs,
  type DockerTarget,
  type RunSpec,
} from '../compile/dockerArgs';
import { daemonProblem, imageMissing, refusalProblem, startProblem } from '../compile/dockerErrors';
import { DEFAULT_IMAGE, pickImage } from '../compile/images';
import { capture, streamEnd, type Captured, type ProcessLauncher } from '../compile/process';
import type { DockerSettings } from '../compile/runner';

export interface DriverJob {
  /** The script in the driver folder, e.g. hailo_noise.py. */
  driverFile: string;
  /** A short name for the container (`hailo-compile-<label>-<hex>`). */
  label: string;
  /** The model file recorded in the container's label. */
  model: string;
  /** Host folders mounted read-only at IN_CONTAINER.input(i), in order. */
  folders: string[];
  /** Driver arguments; `inContainer(i, file)` gives a path under folder i. */
  args: (inContainer: (i: number, file: string) => string, out: string) => string[];
  /** Host folder for the staging folder. */
  workDir: string;
  hwArch?: string;
}

export interface DriverJobEnv {
  launch: ProcessLauncher;
  driverDir: string;
  user?: string;
  signal?: AbortSignal;
  onOutput?(text: string, stream: 'stdout' | 'stderr'): void;
  nameSuffix?: string;
}

export interface DriverJobRun {
  status: 'finished' | 'docker-failed' | 'cancelled';
  /** One sentence when docker refused. */
  message?: string;
  /** The host staging folder the driver wrote into (finished runs). */
  staging?: string;
  container?: { name: string; image: string; removed: boolean };
  exit?: { code: number | null; signal: string | null };
  /** Removes the staging folder. */
  cleanup(): void;
}

/** A container ready to start: its argv spec, and docker as the job reaches it. */
export interface PreparedDriverRun {
  status: 'ready';
  spec: RunSpec;
  target: DockerTarget;
  ctx: { dockerPath: string; context?: string; memoryLimit?: string };
  docker: (args: string[], timeoutMs?: number) => Promise<Captured>;
  staging: string;
  cleanup(): void;
}

/**
 * docker's checks before a driver container starts (daemon, local context, image, GPUs), then the
 * labelled container's spec and a fresh staging folder. Shared by one-shot jobs and the parser
 * bisection's long-lived container.
 */
export async function prepareDriverRun(
  job: DriverJob,
  settings: DockerSettings,
  env: DriverJobEnv,
): Promise<PreparedDriverRun | { status: 'docker-failed' | 'cancelled'; message?: string }> {
  const target = { dockerPath: settings.dockerPath, context: settings.context || undefined };
  const ctx = { dockerPath: settings.dockerPath, context: target.context, memoryLimit: settings.memoryLimit };
  const docker = (args: string[], timeoutMs = 30_000) => capture(env.launch, ...dockerCommand(target, args), { timeoutMs });
  const version = await docker(versionArgs(), 20_000);
  const vp = daemonProblem(version, ctx) ?? (version.code !== 0 ? refusalProblem(version, ctx) : undefined);
  if (vp) return { status: 'docker-failed', message: vp.message };
  const host = await docker(contextHostArgs(target.context));
  if (host.code !== 0) return { status: 'docker-failed', message: (daemonProblem(host, ctx) ?? refusalProblem(host, ctx)).message };
  if (!/"(unix|npipe):\/\//.test(host.stdout)) {
    return {
      status: 'docker-failed',
      message: `The docker context${target.context ? ` '${target.context}'` : ''} is not this machine (${host.stdout.trim()}); this analysis bind-mounts its input files, so it needs a local docker (unset hailo.dfc.dockerContext, or --context).`,
    };
  }
  let image = settings.image?.trim();
  if (!image) {
    const ls = await docker(imagesArgs());
    if (ls.code !== 0) return { status: 'docker-failed', message: (daemonProblem(ls, ctx) ?? refusalProblem(ls, ctx)).message };
    image = pickImage(ls.stdout, job.hwArch ?? 'hailo10h') ?? DEFAULT_IMAGE;
  }
  const inspect = await docker(imageInspectArgs(image));
  if (inspect.code !== 0) return { status: 'docker-failed', message: (daemonProblem(inspect, ctx) ?? imageMissing({ ...ctx, image })).message };
  let gpus = settings.gpus === 'all';
  if (settings.gpus === 'auto') {
    const info = await docker(infoArgs());
    try {
      const parsed = JSON.parse(info.stdout.trim()) as { Runtimes?: Record<string, unknown> };
      gpus = Object.keys(parsed.Runtimes ?? {}).some((r) => /nvidia/i.test(r));
    } catch {
      gpus = false;
    }
  }
  if (env.signal?.aborted) return { status: 'cancelled' };

  const name = containerName(job.label, env.nameSuffix ?? randomBytes(4).toString('hex'));
  mkdirSync(job.workDir, { recursive: true });
  const staging = join(job.workDir, `.${name}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 });
  const cleanup = () => rmSync(staging, { recursive: true, force: true });
  const spec: RunSpec = {
    name,
    image,
    owner: `${hostname()}:${process.pid}`,
    model: basename(job.model),
    inputs: job.folders.map((source, i) => ({ source, target: IN_CONTAINER.input(i) })),
    staging,
    stagingHost: staging,
    driverDir: env.driverDir,
    driverFile: job.driverFile,
    user: env.user,
    memoryLimit: settings.memoryLimit?.trim() || undefined,
    gpus,
    extraRunArgs: settings.extraRunArgs,
    driverArgs: job.args((i, file) => `${IN_CONTAINER.input(i)}/${file}`, IN_CONTAINER.out),
  };
  return { status: 'ready', spec, target, ctx, docker, staging, cleanup };
}

export async function runDriverJob(job: DriverJob, settings: DockerSettings, env: DriverJobEnv): Promise<DriverJobRun> {
  const none = { cleanup: () => undefined };
  const prepared = await prepareDriverRun(job, settings, env);
  if (prepared.status !== 'ready') return { ...prepared, ...none };
  const { spec, target, ctx, docker, staging, cleanup } = prepared;
  const { name, image } = spec;
  const container = { name, image, removed: false };
  let removal: Promise<{ code: number | null; stderr: string }> | undefined;
  const remove = () => (removal ??= docker(removeArgs(name), 60_000));
  const onAbort = () => void remove();
  env.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const p = env.launch(...dockerCommand(target, runArgs(spec)));
    p.stdout.setEncoding('utf8').on('data', (d: string) => env.onOutput?.(d, 'stdout'));
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-65536);
      env.onOutput?.(d, 'stderr');
    });
    const exit = await p.exit;
    await Promise.all([streamEnd(p.stdout), streamEnd(p.stderr)]);
    if (env.signal?.aborted) {
      cleanup();
      return { status: 'cancelled', container, exit, cleanup };
    }
    // docker's own refusal (125: bad option, name clash, no GPU runtime) is never the driver's exit
    const refused =
      startProblem(exit, ctx) ?? (exit.code === 125 ? refusalProblem({ ...exit, stdout: '', stderr }, { ...ctx, image, container: name }) : undefined);
    if (refused) {
      cleanup();
      return { status: 'docker-failed', message: refused.message, container, exit, cleanup };
    }
    return { status: 'finished', staging, container, exit, cleanup };
  } finally {
    env.signal?.removeEventListener('abort', onAbort);
    removal = undefined;
    const rm = await remove();
    container.removed = rm.code === 0 || /No such container/i.test(rm.stderr);
  }
}

// Pure builders of the docker command lines the compile runner uses. Every value is one argv
// entry; nothing is ever joined into a shell string. Facts: docker/cli `opts/mount.go` parses
// `--mount` with Go's encoding/csv (a field holding `,` `"` or a line break must be quoted, `"`
// doubled); `--pull never` keeps docker from trying to pull a multi-GB Hailo image from a registry.

/** Label every compile container carries: `docker ps -a --filter label=…` finds leftovers. */
export const LABEL = 'dev.hailo-tools.compile';
/** `host:pid` of the process that started the container (a leftover is one whose owner is gone). */
export const OWNER_LABEL = 'dev.hailo-tools.owner';
export const MODEL_LABEL = 'dev.hailo-tools.model';
/** The host staging folder of a bind-mounted run, removed with a leftover container. */
export const STAGING_LABEL = 'dev.hailo-tools.staging';
/** Staging folders are `<out>/.hailo-compile-…` (the container's name with a dot). */
export const STAGING_PREFIX = '.hailo-compile-';

/** Where things live inside the container (same layout for bind mounts and docker cp). */
export const IN_CONTAINER = {
  root: '/tmp/hailo-tools',
  driver: '/tmp/hailo-tools/driver',
  out: '/tmp/hailo-tools/out',
  home: '/tmp/hailo-tools/home',
  input: (i: number) => (i === 0 ? '/tmp/hailo-tools/model' : `/tmp/hailo-tools/in${i}`),
} as const;

export const DRIVER_FILE = 'hailo_compile.py';
/** The module the analysis drivers (emulate, noise, interlayer) import from their own folder: copied in beside them. */
export const DRIVER_MODULE = 'hailo_tools_driver.py';

export interface DockerTarget {
  dockerPath: string;
  /** `docker --context NAME` (a remote docker host); undefined: docker's current context. */
  context?: string;
}

/** `docker [--context NAME] ARGS…` as [file, argv]. */
export function dockerCommand(target: DockerTarget, args: readonly string[]): [string, string[]] {
  return [target.dockerPath, [...(target.context ? ['--context', target.context] : []), ...args]];
}

/** One Go encoding/csv field: quoted (with `"` doubled) when it holds a comma, quote or line break. */
export function csvField(field: string): string {
  return /[",\r\n]/.test(field) || /^\s/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** `--mount` value for a bind mount: CSV, so a path with spaces, commas or quotes stays one path. */
export function bindMount(source: string, target: string, readonly: boolean): string {
  return ['type=bind', csvField(`source=${source}`), csvField(`target=${target}`), ...(readonly ? ['readonly'] : [])].join(',');
}

/** A docker container name for a network: `[a-zA-Z0-9][a-zA-Z0-9_.-]+`, unique by a random suffix. */
export function containerName(net: string, suffix: string): string {
  const slug = net
    .replace(/[^a-zA-Z0-9_.-]+/g, '-')
    .replace(/^[^a-zA-Z0-9]+/, '')
    .slice(0, 40);
  return `hailo-compile-${slug ? `${slug}-` : ''}${suffix}`;
}

export interface RunSpec {
  name: string;
  image: string;
  owner: string;
  model: string;
  /** Host folder → container folder, read-only. Empty with docker cp. */
  inputs: { source: string; target: string }[];
  /** Host staging folder mounted read-write at IN_CONTAINER.out; undefined with docker cp. */
  staging?: string;
  /** The host staging folder (both transfers), recorded in a label for leftover cleanup. */
  stagingHost?: string;
  /** Host folder of the driver script; undefined with docker cp. */
  driverDir?: string;
  /** `--user uid:gid` so files written into the bind-mounted staging folder belong to the user. */
  user?: string;
  memoryLimit?: string;
  gpus: boolean;
  extraRunArgs: readonly string[];
  /** Driver arguments (container paths). */
  driverArgs: readonly string[];
  /** The script in the driver folder to run (default DRIVER_FILE; the accuracy table runs hailo_emulate.py). */
  driverFile?: string;
  /** `--interactive`: the driver reads requests on stdin (the parser bisection's one container for all cuts). */
  interactive?: boolean;
}

/**
 * Options shared by `docker run` and `docker create`. Our options come first and the user's extra
 * run arguments after them, so an extra `--user` or `--memory` overrides ours (docker keeps the last).
 */
export function containerOptions(spec: RunSpec): string[] {
  const a = ['--name', spec.name, '--label', `${LABEL}=1`, '--label', `${OWNER_LABEL}=${spec.owner}`, '--label', `${MODEL_LABEL}=${spec.model}`];
  if (spec.stagingHost) a.push('--label', `${STAGING_LABEL}=${spec.stagingHost}`);
  a.push('--pull', 'never', '--env', 'PYTHONUNBUFFERED=1', '--workdir', IN_CONTAINER.out);
  if (spec.interactive) a.push('--interactive');
  if (spec.user) a.push('--user', spec.user, '--env', `HOME=${IN_CONTAINER.home}`);
  if (spec.driverDir) a.push('--mount', bindMount(spec.driverDir, IN_CONTAINER.driver, true));
  for (const m of spec.inputs) a.push('--mount', bindMount(m.source, m.target, true));
  if (spec.staging) a.push('--mount', bindMount(spec.staging, IN_CONTAINER.out, false));
  if (spec.memoryLimit) a.push('--memory', spec.memoryLimit);
  if (spec.gpus) a.push('--gpus', 'all');
  a.push(...spec.extraRunArgs);
  // The DFC runs as a plain python program: no shell and no image entrypoint script in between.
  a.push('--entrypoint', 'python3', spec.image, `${IN_CONTAINER.driver}/${spec.driverFile ?? DRIVER_FILE}`, ...spec.driverArgs);
  return a;
}

export const runArgs = (spec: RunSpec) => ['run', ...containerOptions(spec)];
export const createArgs = (spec: RunSpec) => ['create', ...containerOptions(spec)];
export const startAttachedArgs = (name: string) => ['start', '--attach', name];
/** `docker cp - NAME:/tmp` reads a tar archive from stdin and unpacks it there. */
export const copyInArgs = (name: string) => ['cp', '-', `${name}:/tmp`];
/** `docker cp NAME:DIR -` writes DIR as a tar archive to stdout (entries start with its basename). */
export const copyOutArgs = (name: string) => ['cp', `${name}:${IN_CONTAINER.out}`, '-'];
export const removeArgs = (name: string) => ['rm', '--force', name];
export const stateArgs = (name: string) => ['inspect', '--format', '{{json .State}}', name];
export const versionArgs = () => ['version', '--format', '{{json .}}'];
/** Runtimes (is `nvidia` configured, for --gpus auto) and security options (rootless docker). */
export const INFO_FORMAT = '{"Runtimes":{{json .Runtimes}},"SecurityOptions":{{json .SecurityOptions}}}';
export const infoArgs = () => ['info', '--format', INFO_FORMAT];
export const imagesArgs = () => ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}'];
/** The Id, then the labels (a DFC version label tells the compiler line before anything runs). */
export const imageInspectArgs = (image: string) => ['image', 'inspect', '--format', '{{.Id}} {{json .Config.Labels}}', image];
export const contextHostArgs = (context?: string) => ['context', 'inspect', ...(context ? [context] : []), '--format', '{{json .Endpoints.docker.Host}}'];
/** One line per compile container: ID, name, state, owner, staging folder, model (tab-separated; the model last: a path may hold a tab). */
export const PS_FORMAT = `{{.ID}}\t{{.Names}}\t{{.State}}\t{{.Label "${OWNER_LABEL}"}}\t{{.Label "${STAGING_LABEL}"}}\t{{.Label "${MODEL_LABEL}"}}`;
export const leftoverArgs = () => ['ps', '--all', '--filter', `label=${LABEL}`, '--format', PS_FORMAT];

// Docker's own failures, each turned into one sentence that names the setting (and the CLI flag)
// or command that fixes it. A `docker run` exit of 125 is docker refusing to start the container,
// never a DFC failure; 137 is a SIGKILL (the out-of-memory killer unless the user cancelled).
// Message texts matched here are docker's (moby daemon/names.go "Conflict. The container name %q is
// already in use by container"; "could not select device driver"; the client's "Cannot connect to
// the Docker daemon at … Is the docker daemon running?"; "permission denied while trying to connect
// to the Docker daemon socket"; "No such image"; "bind source path does not exist").
import type { Captured, ProcessExit } from './process';

export type DockerProblemKind =
  | 'docker-missing'
  | 'docker-not-executable'
  | 'daemon-down'
  | 'permission-denied'
  | 'context-missing'
  | 'image-missing'
  | 'image-wrong-line'
  | 'no-gpu-runtime'
  | 'name-clash'
  | 'path-not-visible'
  | 'refused'
  | 'out-of-memory'
  | 'killed-outside'
  | 'copy-failed'
  | 'timeout';

export interface DockerProblem {
  kind: DockerProblemKind;
  /** One sentence: what happened and what fixes it. */
  message: string;
  /** The setting that fixes it, when one does (the CLI flag is in the message). */
  setting?: string;
}

export interface ProblemContext {
  dockerPath: string;
  context?: string;
  image?: string;
  container?: string;
  memoryLimit?: string;
}

const firstLine = (s: string) =>
  s
    .split('\n')
    .map((l) => l.replace(/^docker:\s*/, '').trim())
    .find((l) => l && !/^(See|Run) 'docker/.test(l)) ?? '';

/** A process that could not start at all (the docker executable itself). */
export function startProblem(exit: ProcessExit, ctx: ProblemContext): DockerProblem | undefined {
  if (!exit.error) return undefined;
  if (exit.error.code === 'ENOENT') {
    return {
      kind: 'docker-missing',
      setting: 'hailo.dfc.dockerPath',
      message: `Docker was not found ('${ctx.dockerPath}'): install Docker, or point hailo.dfc.dockerPath (CLI: --docker PATH) at the docker executable.`,
    };
  }
  if (exit.error.code === 'EACCES') {
    return {
      kind: 'docker-not-executable',
      setting: 'hailo.dfc.dockerPath',
      message: `'${ctx.dockerPath}' cannot be executed (permission denied): point hailo.dfc.dockerPath (CLI: --docker PATH) at the docker executable.`,
    };
  }
  return { kind: 'refused', message: `Docker ('${ctx.dockerPath}') could not be started: ${exit.error.message}.` };
}

/** Problems any docker command can hit before it reaches the container: daemon, socket, context. */
export function daemonProblem(r: Captured, ctx: ProblemContext): DockerProblem | undefined {
  const started = startProblem(r, ctx);
  if (started) return started;
  if (r.timedOut)
    return {
      kind: 'timeout',
      message: `'${ctx.dockerPath}' did not answer within the time limit: is the docker daemon${ctx.context ? ` of context '${ctx.context}'` : ''} hung or unreachable?`,
    };
  const err = r.stderr;
  if (/permission denied[^\n]*docker/i.test(err)) {
    return {
      kind: 'permission-denied',
      message: `Permission denied on the docker daemon's socket: add yourself to the docker group ('sudo usermod -aG docker $USER', then log in again), or use a docker you may run (hailo.dfc.dockerPath, CLI: --docker).`,
    };
  }
  if (/context "?[^\n"]*"?[^\n]*(not found|does not exist)/i.test(err)) {
    return {
      kind: 'context-missing',
      setting: 'hailo.dfc.dockerContext',
      message: `Docker context '${ctx.context ?? ''}' does not exist: create it with 'docker context create', or change hailo.dfc.dockerContext (CLI: --context).`,
    };
  }
  // A remote context whose host cannot be reached: docker's ssh connection helper says why at the end
  // (docker/for-win#13569: `… docker system dial-stdio] has exited with exit status 255, … stderr=ssh: …`).
  const ssh = /error during connect:[^\n]*dial-stdio\][^\n]*?stderr=([^\n]+)/i.exec(err);
  const tcp = /error during connect:[^\n]*?(dial tcp [^\n]+)/i.exec(err);
  if (ssh || tcp) {
    return {
      kind: 'daemon-down',
      setting: 'hailo.dfc.dockerContext',
      message: `The docker host${ctx.context ? ` of context '${ctx.context}'` : ''} cannot be reached (${(ssh ? ssh[1] : tcp![1]).trim().replace(/\\r\\n|\s+$/g, '')}): check that the host is up${ssh ? " and that 'ssh' to it works" : ''}, or use another docker context (hailo.dfc.dockerContext, CLI: --context).`,
    };
  }
  if (/Cannot connect to the Docker daemon|Is the docker daemon running|error during connect/i.test(err)) {
    return {
      kind: 'daemon-down',
      message: `The docker daemon is not reachable${ctx.context ? ` (context '${ctx.context}')` : ''}: start Docker ('sudo systemctl start docker', or Docker Desktop) and try again.`,
    };
  }
  return undefined;
}

/** Why `docker run`/`create`/`start` refused (exit 125, or a failed create). */
export function refusalProblem(r: Captured, ctx: ProblemContext): DockerProblem {
  const known = daemonProblem(r, ctx);
  if (known) return known;
  const err = r.stderr;
  if (/Conflict\. The container name/i.test(err)) {
    const name = ctx.container ?? '';
    return {
      kind: 'name-clash',
      message: `A container named '${name}' already exists: remove it with 'docker rm -f ${name}' (or Hailo: Remove Leftover Compile Containers) and compile again.`,
    };
  }
  if (/could not select device driver|nvidia-container-cli|unknown or invalid runtime name: nvidia/i.test(err)) {
    return {
      kind: 'no-gpu-runtime',
      setting: 'hailo.dfc.gpus',
      message: `Docker has no NVIDIA runtime for '--gpus all': install the NVIDIA Container Toolkit, or set hailo.dfc.gpus to "none" (CLI: --gpus none; the DFC then optimizes on the CPU, slowly).`,
    };
  }
  if (/No such image|Unable to find image|pull access denied/i.test(err)) return imageMissing(ctx);
  if (/bind source path does not exist|invalid mount config/i.test(err)) {
    return {
      kind: 'path-not-visible',
      setting: 'hailo.dfc.dockerContext',
      message: `The docker host cannot see a local folder (${firstLine(err)}): on a remote docker context the files are copied with 'docker cp' — check hailo.dfc.dockerContext (CLI: --context).`,
    };
  }
  const detail = firstLine(err) || `exit code ${r.code}`;
  return { kind: 'refused', message: `Docker refused to start the container (exit ${r.code ?? r.signal}; not a DFC failure): ${detail}` };
}

export function imageMissing(ctx: ProblemContext): DockerProblem {
  return {
    kind: 'image-missing',
    setting: 'hailo.dfc.image',
    message: `Docker image '${ctx.image}' is not loaded${ctx.context ? ` on docker context '${ctx.context}'` : ''}: load Hailo's AI Software Suite image ('docker load -i <suite>.tar.gz'), or set hailo.dfc.image (CLI: --image) to one 'docker image ls' lists.`,
  };
}

export function outOfMemory(ctx: ProblemContext, oomKilled: boolean | undefined): DockerProblem {
  const limit = ctx.memoryLimit ? `the ${ctx.memoryLimit} limit` : "docker's memory";
  return {
    kind: 'out-of-memory',
    setting: 'hailo.dfc.memoryLimit',
    message: `The container was killed (exit 137${oomKilled ? ', out of memory' : ''}) — the DFC needs more than ${limit}: raise hailo.dfc.memoryLimit (CLI: --memory, e.g. 40g; a large vision backbone peaked at 39.87 GiB) and, on Docker Desktop/WSL, the VM's memory.`,
  };
}

/**
 * The container ended by something other than this compile and not by the memory limit: docker
 * recorded no out-of-memory kill for the SIGKILL (`docker kill`; `docker stop`, whose SIGTERM the
 * driver — the container's PID 1, no handler — ignores until docker's SIGKILL; `docker rm -f` when
 * the run's exit is seen before the removal; a daemon restart), or the container vanished under the
 * run (`docker rm -f`, a prune).
 */
export function killedOutside(ctx: ProblemContext, how: 'killed' | 'removed'): DockerProblem {
  const name = ctx.container ? `'${ctx.container}'` : 'the compile container';
  const what =
    how === 'removed'
      ? `Docker container ${name} was removed from outside this compile while it ran ('docker rm -f' or a prune)`
      : `Docker container ${name} was killed from outside this compile (exit 137 with no out-of-memory kill recorded by docker: 'docker kill', 'docker stop', 'docker rm -f' or a docker daemon restart)`;
  return { kind: 'killed-outside', message: `${what}; nothing was delivered and earlier outputs are untouched — compile again.` };
}

// Values that become docker arguments must never be read as flags: `docker image inspect -v` or
// `docker run … --privileged` from an image setting. An image is checked against the reference
// grammar of docker's distribution/reference package (domain[:port]/path[:tag][@digest]); a
// context name against docker's own name rule (first character a letter or digit).
const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const PATH_PART = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const IMAGE_REFERENCE = new RegExp(
  `^(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*(?::[0-9]+)?/)?${PATH_PART}(?:/${PATH_PART})*(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`,
);
const CONTEXT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.+-]*$/;

/** Why `image` cannot be passed to docker (not an image reference, e.g. it starts with `-`), or undefined. */
export function imageProblem(image: string): DockerProblem | undefined {
  if (image.length <= 255 && IMAGE_REFERENCE.test(image)) return undefined;
  return {
    kind: 'refused',
    setting: 'hailo.dfc.image',
    message: `'${image}' is not a docker image reference (repository[:tag], e.g. hailo_ai_sw_suite_2026-04:1), so it was not passed to docker: set hailo.dfc.image (CLI: --image) to the image's name.`,
  };
}

/** Why `context` cannot be passed to docker (e.g. it starts with `-`), or undefined. */
export function contextProblem(context: string | undefined): DockerProblem | undefined {
  if (!context || CONTEXT_NAME.test(context)) return undefined;
  return {
    kind: 'context-missing',
    setting: 'hailo.dfc.dockerContext',
    message: `'${context}' is not a docker context name (letters, digits, '_', '.', '+', '-', starting with a letter or digit), so it was not passed to docker: set hailo.dfc.dockerContext (CLI: --context) to a name 'docker context ls' lists.`,
  };
}

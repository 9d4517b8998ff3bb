// Containers a crashed editor or a killed CLI left behind: every compile container carries the
// LABEL and an owner label `host:pid`; one whose owner process is gone (or that is not running any
// more) is a leftover, found by `docker ps --all --filter label=…` and removed with `docker rm -f`.
import { FileRoots } from '../../core/common/confined';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { dockerCommand, leftoverArgs, removeArgs, STAGING_PREFIX, type DockerTarget } from './dockerArgs';
import { daemonProblem, type DockerProblem } from './dockerErrors';
import { capture, type ProcessLauncher } from './process';

export interface CompileContainer {
  id: string;
  name: string;
  state: string;
  owner: string;
  /** The host staging folder the run wrote into ('' if unknown). */
  staging: string;
  model: string;
}

export function parsePs(stdout: string): CompileContainer[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [id = '', name = '', state = '', owner = '', staging = '', ...model] = l.split('\t');
      return { id, name, state, owner, staging, model: model.join('\t') };
    });
}

/** True when `owner` (host:pid) names a live process on this machine other than a finished one. */
export function ownerAlive(owner: string, isAlive: (pid: number) => boolean = pidAlive): boolean {
  const k = owner.lastIndexOf(':');
  if (k < 0) return false;
  const host = owner.slice(0, k);
  const pid = Number(owner.slice(k + 1));
  if (host !== hostname()) return true; // another machine's compile: not ours to judge
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Compile containers on the docker host that no live process of ours owns (plus, when given,
 * those owned by this process but not in `active`: a run that lost track of its container).
 */
export async function findLeftovers(
  launch: ProcessLauncher,
  target: DockerTarget,
  active: ReadonlySet<string> = new Set(),
): Promise<{ leftovers: CompileContainer[]; problem?: DockerProblem }> {
  const r = await capture(launch, ...dockerCommand(target, leftoverArgs()), { timeoutMs: 20_000 });
  if (r.code !== 0) {
    const problem = daemonProblem(r, { dockerPath: target.dockerPath, context: target.context }) ?? {
      kind: 'refused' as const,
      message: `'docker ps' failed: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}.`,
    };
    return { leftovers: [], problem };
  }
  const me = `${hostname()}:${process.pid}`;
  const leftovers = parsePs(r.stdout).filter((c) => !active.has(c.name) && (c.owner === me || !ownerAlive(c.owner)));
  return { leftovers };
}

/**
 * `docker rm --force` each, and remove the staging folder its run left (only a folder named like
 * one, `.hailo-compile-…`). Returns the containers that could not be removed, with docker's reason.
 */
export async function removeContainers(
  launch: ProcessLauncher,
  target: DockerTarget,
  containers: (CompileContainer | string)[],
): Promise<{ name: string; reason: string }[]> {
  const failed: { name: string; reason: string }[] = [];
  for (const c of containers) {
    const name = typeof c === 'string' ? c : c.name;
    const r = await capture(launch, ...dockerCommand(target, removeArgs(name)), { timeoutMs: 60_000 });
    if (r.code !== 0 && !/No such container/i.test(r.stderr)) {
      failed.push({ name, reason: r.stderr.trim().split('\n')[0] || `exit ${r.code}` });
      continue;
    }
    const staging = typeof c === 'string' ? '' : c.staging;
    if (staging && basename(staging) === `.${name}` && basename(staging).startsWith(STAGING_PREFIX))
      FileRoots.of([dirname(staging)]).remove(staging, { recursive: true });
  }
  return failed;
}

// The sweep's docker contexts while it runs (docs/sweep.md "Hosts"): at the start each is asked
// `docker version` (one that does not answer is left out with its sentence), whether its endpoint
// is this machine, and for the containers a killed run of this sweep left (removed); later a context
// goes down when a compile finds it gone, and its waiting variants go elsewhere (the queue's part).
// docker's read-only answers are kept once per context for the whole sweep (`queryCache`) and
// forgotten for a context that went down.
import { relative } from 'node:path';
import { capture, type Captured, type ProcessLauncher } from '../compile/process';
import { contextHostArgs, dockerCommand, versionArgs, type DockerTarget } from '../compile/dockerArgs';
import { daemonProblem, refusalProblem, type DockerProblem } from '../compile/dockerErrors';
import { findLeftovers, removeContainers } from '../compile/leftovers';
import type { CompilePool } from '../compile/pool';
import { contextLabel, type ContextState } from '../../core/sweep/schedule';

/** docker's problems that mean the host, not the variant: the variant waits for another context. */
export const HOST_GONE_KINDS = new Set<DockerProblem['kind']>([
  'daemon-down',
  'timeout',
  'context-missing',
  'permission-denied',
  'docker-missing',
  'docker-not-executable',
]);

export interface ContextsEnv {
  launch: ProcessLauncher;
  dockerPath: string;
  removeLeftovers?: boolean;
}

export class SweepContexts {
  /** docker's read-only answers (version, endpoint, images, info), once per context for the whole sweep. */
  readonly queryCache = new Map<string, Promise<Captured>>();

  constructor(
    readonly states: readonly ContextState[],
    private readonly env: ContextsEnv,
    private readonly hooks: {
      say(line: string): void;
      /** A context's state changed (after the variants waiting only for a context that went down were moved). */
      changed(c: ContextState): void;
      /** A context went down: the variants waiting for it go elsewhere. */
      down(name: string): void;
    },
  ) {}

  byName(name: string): ContextState {
    return this.states.find((c) => c.name === name)!;
  }

  /** Asks every context whether it answers, opens the pool's slots of those that do, removes leftovers under `out`. */
  async open(pool: CompilePool, out: string): Promise<void> {
    await Promise.all(
      this.states.map(async (c) => {
        const target: DockerTarget = { dockerPath: this.env.dockerPath, context: c.name || undefined };
        const problem = await probe(this.env.launch, target);
        if (problem) {
          this.markDown(c, problem.message, false);
          return;
        }
        c.state = 'up';
        c.local = await isLocalContext(this.env.launch, target);
        this.hooks.changed(c);
        pool.setWidth(c.name, Math.max(pool.width(c.name), c.width));
        if (this.env.removeLeftovers === false) return;
        const { leftovers } = await findLeftovers(this.env.launch, target);
        const ours = leftovers.filter((l) => l.staging && !relative(out, l.staging).startsWith('..'));
        if (ours.length) {
          const failed = await removeContainers(this.env.launch, target, ours);
          this.hooks.say(
            `context ${contextLabel(c.name)}: removed ${ours.length - failed.length} container${ours.length - failed.length === 1 ? '' : 's'} an earlier run of this sweep left${failed.length ? ` (could not remove ${failed.map((f) => f.name).join(', ')})` : ''}`,
          );
        }
      }),
    );
  }

  /** `c` is not used any more: at the start (`lostDuringRun` false) or because it went away during a compile. */
  markDown(c: ContextState, message: string, lostDuringRun: boolean): void {
    if (c.state === 'down') return;
    c.state = 'down';
    for (const k of [...this.queryCache.keys()]) if (k.includes(JSON.stringify(c.name))) this.queryCache.delete(k);
    c.message = message;
    this.hooks.say(`context ${contextLabel(c.name)}: ${lostDuringRun ? 'went away' : 'not used'}: ${message}`);
    this.hooks.down(c.name);
    this.hooks.changed(c);
  }

  /** Whether the context still answers (undefined), else why not. */
  probe(name: string): Promise<DockerProblem | undefined> {
    return probe(this.env.launch, { dockerPath: this.env.dockerPath, context: name || undefined });
  }
}

/** `docker version` on the context: undefined when its daemon answers, else why not. */
async function probe(launch: ProcessLauncher, target: DockerTarget): Promise<DockerProblem | undefined> {
  const r = await capture(launch, ...dockerCommand(target, versionArgs()), { timeoutMs: 20_000 });
  const ctx = { dockerPath: target.dockerPath, context: target.context };
  return daemonProblem(r, ctx) ?? (r.code !== 0 ? refusalProblem(r, ctx) : undefined);
}

/** Whether a context's endpoint is this machine (bind mounts work: the emulator can run there). */
export async function isLocalContext(launch: ProcessLauncher, target: DockerTarget): Promise<boolean> {
  const r = await capture(launch, ...dockerCommand(target, contextHostArgs(target.context)), { timeoutMs: 20_000 });
  return r.code === 0 && /^"(unix|npipe):\/\//.test(r.stdout.trim());
}

// One DFC container for a whole parser bisection: `docker run --interactive` of driver/hailo_bisect.py,
// which answers one cut request per stdin line (a fresh ClientRunner and translate_onnx_model each).
// Starting the DFC's Python and importing hailo_sdk_client once instead of per parse is most of a
// short parse's time. The container is labelled like every compile container (leftovers.ts finds it
// if this process dies) and always removed by close() — also on cancel and on error.
import type { Cut } from '../../core/onnx/bisect';
import { dockerCommand, removeArgs, runArgs } from '../compile/dockerArgs';
import { refusalProblem, startProblem } from '../compile/dockerErrors';
import { streamEnd, type LaunchedProcess, type ProcessExit } from '../compile/process';
import type { DriverJobEnv, PreparedDriverRun } from '../noise/driverJob';

/** The driver's answer line prefix (driver/hailo_bisect.py ANSWER). */
export const ANSWER_PREFIX = 'hailo-tools bisect-answer: ';

export interface ParseAnswer {
  outcome: 'parsed' | 'refused';
  seconds: number;
  layers?: number | null;
  exception?: string;
  module?: string;
  message?: string;
  frames?: string[];
  /** The container's console while this cut was parsed (the DFC's log lines and traceback). */
  console: string;
}

type Pending = { id: number; resolve: (a: ParseAnswer | { failed: string }) => void; console: string };

export class ParserContainer {
  private buffer = '';
  private pending: Pending | undefined;
  private nextId = 1;
  private exited: ProcessExit | undefined;
  private stderrTail = '';
  private removal: Promise<boolean> | undefined;
  dfcVersion: string | null = null;

  private constructor(
    private readonly prepared: PreparedDriverRun,
    private readonly p: LaunchedProcess,
    private readonly env: DriverJobEnv,
  ) {
    // A write after the container went away fails with EPIPE; the exit handler reports why it went.
    p.stdin?.on('error', () => undefined);
  }

  get name(): string {
    return this.prepared.spec.name;
  }

  /** Starts the container and waits for the driver's ready line; on any failure the container is removed. */
  static async start(prepared: PreparedDriverRun, env: DriverJobEnv): Promise<ParserContainer | { failed: string }> {
    const p = env.launch(...dockerCommand(prepared.target, runArgs({ ...prepared.spec, interactive: true })), { stdin: 'pipe' });
    const c = new ParserContainer(prepared, p, env);
    const ready = c.listen();
    const onAbort = () => void c.close();
    env.signal?.addEventListener('abort', onAbort, { once: true });
    const first = await ready;
    env.signal?.removeEventListener('abort', onAbort);
    if ('failed' in first) {
      await c.close();
      return first;
    }
    return c;
  }

  /** Reads the container's output; resolves with the ready line or why there was none. */
  private listen(): Promise<{ ready: true } | { failed: string }> {
    return new Promise((resolveReady) => {
      let readyDone = false;
      this.p.stdout.setEncoding('utf8').on('data', (d: string) => {
        this.buffer += d;
        let nl: number;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          const line = this.buffer.slice(0, nl + 1);
          this.buffer = this.buffer.slice(nl + 1);
          const at = line.indexOf(ANSWER_PREFIX);
          if (at < 0) {
            this.console(line, 'stdout');
            continue;
          }
          if (at > 0) this.console(line.slice(0, at) + '\n', 'stdout');
          let msg: Record<string, unknown>;
          try {
            msg = JSON.parse(line.slice(at + ANSWER_PREFIX.length)) as Record<string, unknown>;
          } catch {
            this.console(line, 'stdout');
            continue;
          }
          if (!readyDone && 'ready' in msg) {
            readyDone = true;
            if (msg.ready === true) {
              this.dfcVersion = typeof msg.dfcVersion === 'string' ? msg.dfcVersion : null;
              resolveReady({ ready: true });
            } else resolveReady({ failed: `The DFC container cannot parse: ${String(msg.message)}` });
            continue;
          }
          this.answer(msg);
        }
      });
      this.p.stderr.setEncoding('utf8').on('data', (d: string) => {
        this.stderrTail = (this.stderrTail + d).slice(-65536);
        this.console(d, 'stderr');
      });
      void this.p.exit.then(async (exit) => {
        await Promise.all([streamEnd(this.p.stdout), streamEnd(this.p.stderr)]);
        this.exited = exit;
        const why = this.exitReason(exit);
        if (!readyDone) {
          readyDone = true;
          resolveReady({ failed: why });
        }
        const pending = this.pending;
        this.pending = undefined;
        pending?.resolve({ failed: why });
      });
    });
  }

  private exitReason(exit: ProcessExit): string {
    if (this.env.signal?.aborted) return 'cancelled';
    const ctx = { dockerPath: this.prepared.ctx.dockerPath, context: this.prepared.ctx.context, memoryLimit: this.prepared.ctx.memoryLimit };
    const refused =
      startProblem(exit, ctx) ??
      (exit.code === 125
        ? refusalProblem({ ...exit, stdout: '', stderr: this.stderrTail }, { ...ctx, image: this.prepared.spec.image, container: this.name })
        : undefined);
    if (refused) return refused.message;
    const tail = this.stderrTail.trim().split('\n').slice(-1)[0];
    return `The DFC container stopped (exit ${exit.code ?? exit.signal ?? '?'})${exit.code === 3 ? ': no Dataflow Compiler in this image' : ''}${tail ? `: ${tail}` : ''}`;
  }

  private console(text: string, stream: 'stdout' | 'stderr'): void {
    if (this.pending) this.pending.console += text;
    this.env.onOutput?.(text, stream);
  }

  private answer(msg: Record<string, unknown>): void {
    const pending = this.pending;
    if (!pending || msg.id !== pending.id) return;
    this.pending = undefined;
    if (msg.outcome !== 'parsed' && msg.outcome !== 'refused') {
      pending.resolve({ failed: `The bisection driver did not understand the request: ${String(msg.message)}` });
      return;
    }
    pending.resolve({
      outcome: msg.outcome,
      seconds: typeof msg.seconds === 'number' ? msg.seconds : 0,
      layers: typeof msg.layers === 'number' ? msg.layers : null,
      exception: typeof msg.exception === 'string' ? msg.exception : undefined,
      module: typeof msg.module === 'string' ? msg.module : undefined,
      message: typeof msg.message === 'string' ? msg.message : undefined,
      frames: Array.isArray(msg.frames) ? msg.frames.filter((f): f is string => typeof f === 'string') : undefined,
      console: pending.console,
    });
  }

  /** Parses one cut; a container that stops or a cancel answers `failed`. */
  parse(cut: Cut): Promise<ParseAnswer | { failed: string }> {
    if (this.exited) return Promise.resolve({ failed: this.exitReason(this.exited) });
    if (this.env.signal?.aborted) return Promise.resolve({ failed: 'cancelled' });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending = { id, resolve, console: '' };
      const onAbort = () => {
        if (this.pending?.id === id) {
          this.pending = undefined;
          resolve({ failed: 'cancelled' });
        }
        void this.close();
      };
      this.env.signal?.addEventListener('abort', onAbort, { once: true });
      const done = (a: ParseAnswer | { failed: string }) => {
        this.env.signal?.removeEventListener('abort', onAbort);
        resolve(a);
      };
      this.pending.resolve = done;
      this.p.stdin?.write(`${JSON.stringify({ id, start: cut.start.length ? cut.start : null, end: cut.end })}\n`);
    });
  }

  /** Ends the driver and removes the container (idempotent); true when docker says it is gone. */
  close(): Promise<boolean> {
    this.removal ??= (async () => {
      try {
        this.p.stdin?.end(`${JSON.stringify({ quit: true })}\n`);
      } catch {
        // the pipe is already closed: the container is going or gone; rm --force below settles it
      }
      const rm = await this.prepared.docker(removeArgs(this.name), 60_000);
      await this.p.exit;
      this.prepared.cleanup();
      return rm.code === 0 || /No such container/i.test(rm.stderr);
    })();
    return this.removal;
  }
}

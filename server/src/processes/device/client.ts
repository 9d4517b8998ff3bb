// DeviceClient: the host side of the device worker, used by the CLI and the extension. It forks
// dist/deviceWorker.js (which loads the native shim with koffi), sends typed requests over node's
// IPC channel, times them out, and when the worker dies (a crash in native code, an abort inside
// HailoRT) fails the pending requests with the reason — signal or exit code plus the worker's last
// stderr line — and starts a fresh worker on the next request. A crash never reaches the host.
//
// It refuses to start without a TrustToken (workspace trust in the extension, the terminal for the
// CLI): native code runs only where the user allowed it.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { isTrustToken, type TrustToken } from '../../core/common/trust';
import { errorFromKind } from '../../core/device/errors';
import { nativeBindingProblem } from './nativeBinding';
import { ensureShim, type ShimLocation } from './nativeBuild';
import type {
  ChatContext,
  ChatEvent,
  ChatGenerateRequest,
  ChatModelInfo,
  ChatOpenOptions,
  DeviceError,
  DeviceState,
  InputSpec,
  ModelInfo,
  OpenOptions,
  RunOptions,
  RunReport,
  RuntimeInfo,
  ScanResult,
  TranscribeRequest,
  TranscribeResult,
  WorkerMethod,
  WorkerMethods,
  WorkerChatEvent,
  WorkerProgress,
  WorkerResponse,
} from '../../core/device/protocol';

export interface DeviceClientOptions {
  /** Proof that running native code was allowed. Required. */
  trust: TrustToken;
  /** The bundled worker (default: deviceWorker.js beside this bundle). */
  workerPath?: string;
  /** A built shim to load; default: found or built for the installed HailoRT by nativeBuild. */
  shim?: ShimLocation;
  /** Where HailoRT is installed (setting `hailo.hailort.path`; else env, CMake config, usual paths). */
  hailortRoot?: string;
  /** Folder for HailoRT's log file (HAILORT_LOGGER_PATH); default: none written. Never the workspace. */
  hailortLogDir?: string;
  /** Timeout of a request without its own (scan, open, infer …). */
  requestTimeoutMs?: number;
  /** Extra environment for the worker (tests use it to configure the fake libhailort). */
  env?: Record<string, string | undefined>;
  /** Progress of long requests, stderr lines of the worker, crashes. */
  onEvent?: (event: DeviceClientEvent) => void;
}

export type DeviceClientEvent =
  | { type: 'progress'; phase: string; done?: number; total?: number }
  | { type: 'stderr'; line: string }
  | { type: 'crash'; error: DeviceError; restarts: number }
  | { type: 'build'; message: string };

/** A request that failed: carries the DeviceError with its one-sentence explanation. */
export class DeviceRequestError extends Error {
  constructor(readonly error: DeviceError) {
    super(error.sentence);
    this.name = 'DeviceRequestError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: DeviceRequestError): void;
  timer: NodeJS.Timeout;
  method: WorkerMethod;
  /** Starts the silence limit again: the worker reported progress on this request. */
  rearm(): void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** LLM/VLM::create streams a multi-gigabyte HEF to the device before it answers. */
const CHAT_OPEN_TIMEOUT_MS = 15 * 60_000;
/** Opening the speech model (the HEF streamed to the device) plus HailoRT 5.3's 10-minute generate. */
const TRANSCRIBE_TIMEOUT_MS = 25 * 60_000;

export class DeviceClient {
  private child: ChildProcess | undefined;
  private shim: ShimLocation | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private lastStderr = '';
  private stderrTail = '';
  private disposed = false;
  /** How many times the worker died and was (or will be) started again. */
  restarts = 0;
  /** The last crash, if any. */
  lastCrash: DeviceError | undefined;
  private readonly chatListeners = new Set<(event: ChatEvent) => void>();
  /** Generations started and not yet ended, by "session:generation" (they keep the worker referenced). */
  private readonly generating = new Set<string>();

  constructor(private readonly options: DeviceClientOptions) {
    if (!isTrustToken(options?.trust)) {
      throw new DeviceRequestError(errorFromKind('untrusted', 'DeviceClient was created without a TrustToken'));
    }
  }

  hello(): Promise<RuntimeInfo> {
    return this.request('hello', {});
  }

  scan(): Promise<ScanResult> {
    return this.request('scan', {});
  }

  /** A whole run: open, checks, statistics, latency, FPS by queue depth, close. */
  run(options: RunOptions): Promise<RunReport> {
    // Latency + FPS sweep + checks: budget per frame on top of the per-call timeout.
    const frames = Math.max(1, options.frames);
    const budget = options.timeoutMs * 4 + frames * 50 + 60_000;
    return this.request('run', { ...options, hef: resolvePath(options.hef), input: absoluteInput(options.input) }, budget);
  }

  open(hef: string, options: OpenOptions): Promise<ModelInfo & { handle: number }> {
    return this.request('open', { ...options, hef: resolvePath(hef) });
  }

  infer(handle: number, inputs: Record<string, string>): Promise<{ outputs: Record<string, string>; ms: number }> {
    return this.request('infer', { handle, inputs });
  }

  resource(handle: number, name: string): Promise<{ base64: string } | null> {
    return this.request('resource', { handle, name });
  }

  close(handle: number): Promise<null> {
    return this.request('close', { handle });
  }

  // ---- GenAI chat ----

  /** Opens an LLM/VLM on the device (the HEF is classified and streamed to the device first). */
  chatOpen(options: ChatOpenOptions): Promise<ChatModelInfo> {
    return this.request('chatOpen', { ...options, hef: resolvePath(options.hef) }, CHAT_OPEN_TIMEOUT_MS);
  }

  /** Starts a generation; its chunks and its end arrive through onChat. */
  async chatGenerate(request: ChatGenerateRequest): Promise<{ generation: number }> {
    const started = await this.request('chatGenerate', request, 120_000);
    this.generating.add(`${request.session}:${started.generation}`);
    // A generation keeps the worker (and a CLI's event loop) alive until its end event.
    if (this.child) this.setBusy(this.child, true);
    return started;
  }

  chatAbort(session: number): Promise<null> {
    return this.request('chatAbort', { session });
  }

  chatContext(session: number): Promise<ChatContext | null> {
    return this.request('chatContext', { session });
  }

  chatClear(session: number): Promise<ChatContext | null> {
    return this.request('chatClear', { session });
  }

  chatSave(session: number): Promise<{ base64: string }> {
    return this.request('chatSave', { session }, 120_000);
  }

  chatLoad(session: number, base64: string): Promise<ChatContext | null> {
    return this.request('chatLoad', { session, base64 }, 120_000);
  }

  chatTokenize(session: number, text: string): Promise<{ ids: number[] }> {
    return this.request('chatTokenize', { session, text });
  }

  chatTimed(request: ChatGenerateRequest & { timeoutMs: number }): Promise<{ firstTokenMs: number; totalMs: number; chunks: number }> {
    return this.request('chatTimed', request, 10 * 60_000);
  }

  chatClose(session: number): Promise<null> {
    return this.request('chatClose', { session });
  }

  chatHealth(session: number): Promise<{ devices: DeviceState[] }> {
    return this.request('chatHealth', { session });
  }

  // ---- Speech2Text ----

  /** Opens the speech model, transcribes one WAV recording and closes the model (paths resolved here). */
  transcribe(request: TranscribeRequest): Promise<TranscribeResult> {
    return this.request('transcribe', { ...request, hef: resolvePath(request.hef), audio: resolvePath(request.audio) }, TRANSCRIBE_TIMEOUT_MS);
  }

  /** Listens to every chat event of this client's worker; answers the unsubscribe. */
  onChat(listener: (event: ChatEvent) => void): () => void {
    this.chatListeners.add(listener);
    return () => this.chatListeners.delete(listener);
  }

  /** Stops the current worker (its open models are lost); the next request starts a new one. */
  stop(): void {
    const child = this.child;
    if (child) this.kill(child);
  }

  /** Stops the worker (closing whatever it had open). */
  dispose(): void {
    this.disposed = true;
    this.failAll(errorFromKind('worker-crashed', 'the device client was disposed'));
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private async request<M extends WorkerMethod>(method: M, params: WorkerMethods[M]['params'], timeoutMs?: number): Promise<WorkerMethods[M]['result']> {
    if (this.disposed) throw new DeviceRequestError(errorFromKind('worker-crashed', 'the device client was disposed'));
    const child = await this.ensureWorker();
    const id = this.nextId++;
    const limit = timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      // The limit is on silence, not on the whole request: a run reports each phase (and every few
      // frames), so a slow model or a loaded machine is not mistaken for a hung worker.
      const expire = () => {
        this.pending.delete(id);
        // A worker stuck inside native code cannot answer later requests either: stop it.
        const error = errorFromKind('timeout', `the device worker did not answer '${method}' (nor report progress) within ${limit} ms`);
        reject(new DeviceRequestError(error));
        this.kill(child);
      };
      const entry: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: setTimeout(expire, limit),
        method,
        rearm: () => {
          clearTimeout(entry.timer);
          entry.timer = setTimeout(expire, limit);
        },
      };
      this.pending.set(id, entry);
      this.setBusy(child, true);
      child.send({ id, method, params });
    });
  }

  private async ensureWorker(): Promise<ChildProcess> {
    if (this.child && this.child.connected && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    const workerPath = this.options.workerPath ?? join(__dirname, 'deviceWorker.js');
    const launcher = workerLauncher({ ...process.env, ...this.options.env });
    if ('error' in launcher) throw new DeviceRequestError(launcher.error);
    // A package without koffi's binary for this platform: said before a shim is compiled for nothing.
    // Only a packaged worker (koffi's loader beside it) is checked; under a launcher the worker may
    // run another platform's Node, and checks for itself.
    const packaged = existsSync(join(dirname(workerPath), 'koffi', 'index.cjs'));
    const native = launcher.execPath || !packaged ? undefined : nativeBindingProblem(dirname(workerPath));
    if (native) throw new DeviceRequestError(native);
    if (!this.shim) {
      const located =
        this.options.shim ??
        (await ensureShim(this.options.trust, {
          hailortRoot: this.options.hailortRoot,
          log: (message) => this.options.onEvent?.({ type: 'build', message }),
          env: { ...process.env, ...this.options.env },
        }));
      if ('error' in located) throw new DeviceRequestError(located.error);
      this.shim = located;
    }
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...this.options.env,
      HAILO_TOOLS_SHIM: this.shim.shimPath,
      HAILO_TOOLS_HAILORT_LIBRARY: this.shim.libraryPath,
      // The worker's one-line proof that a guard allowed it (it refuses to start without).
      HAILO_TOOLS_TRUSTED_ACTION: this.options.trust.action,
      // HailoRT writes hailort.log into the process CWD unless told otherwise; never the workspace.
      HAILORT_LOGGER_PATH: this.options.hailortLogDir ?? 'NONE',
    };
    // The extension's log folder appears only once VS Code writes its first line; a missing cwd
    // fails the fork with a misleading "spawn node ENOENT".
    if (this.options.hailortLogDir) mkdirSync(this.options.hailortLogDir, { recursive: true });
    const child = fork(workerPath, [], {
      cwd: this.options.hailortLogDir ?? tmpdir(),
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      ...(launcher.execPath ? { execPath: launcher.execPath, execArgv: launcher.execArgv } : {}),
    });
    this.child = child;
    this.lastStderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.onStderr(chunk));
    child.on('message', (msg: WorkerResponse | WorkerProgress) => this.onMessage(msg));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    child.on('error', (err) => this.onExit(child, null, null, err));
    return child;
  }

  private onStderr(chunk: string): void {
    this.stderrTail += chunk;
    const lines = this.stderrTail.split('\n');
    this.stderrTail = lines.pop() ?? '';
    for (const line of lines) {
      const t = line.trim();
      if (!t) continue;
      this.lastStderr = t;
      this.options.onEvent?.({ type: 'stderr', line: t });
    }
    if (this.stderrTail.length > 4096) this.stderrTail = this.stderrTail.slice(-4096);
  }

  private onMessage(msg: WorkerResponse | WorkerProgress | WorkerChatEvent): void {
    if ('chat' in msg) {
      const e = msg.chat;
      if (e.type === 'end') {
        this.generating.delete(`${e.session}:${e.generation}`);
        if (this.pending.size === 0 && this.generating.size === 0 && this.child) this.setBusy(this.child, false);
      }
      for (const l of this.chatListeners) l(e);
      return;
    }
    if ('progress' in msg) {
      const { phase, done, total } = msg.progress;
      this.pending.get(msg.progress.id)?.rearm();
      this.options.onEvent?.({ type: 'progress', phase, done, total });
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (this.pending.size === 0 && this.generating.size === 0 && this.child) this.setBusy(this.child, false);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new DeviceRequestError(msg.error));
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, err?: Error): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.stderrTail.trim()) this.lastStderr = this.stderrTail.trim();
    this.stderrTail = '';
    if (this.disposed) return;
    const how = err ? `could not start (${err.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const last = this.lastStderr ? `; its last words: ${this.lastStderr}` : '';
    const error = errorFromKind('worker-crashed', `the device worker ${how}${last}`);
    if (this.pending.size > 0 || signal || (code !== 0 && code !== null)) {
      this.restarts++;
      this.lastCrash = error;
      this.options.onEvent?.({ type: 'crash', error, restarts: this.restarts });
    }
    this.failAll(error);
  }

  private failAll(error: DeviceError): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new DeviceRequestError(error));
    }
    // A generation whose worker is gone ends with that error (its listeners are waiting for an end).
    for (const key of [...this.generating]) {
      this.generating.delete(key);
      const [session, generation] = key.split(':').map(Number);
      const end: ChatEvent = {
        session,
        generation,
        type: 'end',
        reason: 'error',
        stats: { tokens: 0, firstTokenMs: null, tokensPerSecond: null, totalMs: 0 },
        context: null,
        error,
      };
      for (const l of this.chatListeners) l(end);
    }
  }

  /** An idle worker does not keep the host's event loop alive (a CLI exits when it is done). */
  private setBusy(child: ChildProcess, busy: boolean): void {
    const channel = (child as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
    if (busy) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }

  /** Stops a worker on purpose (stuck request): its exit is then no crash to report. */
  private kill(child: ChildProcess): void {
    if (this.child === child) {
      this.child = undefined;
      this.failAll(errorFromKind('worker-crashed', 'the device worker was stopped while requests were pending'));
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * The worker runs in another folder (HailoRT's log folder): a path the caller named relative to its
 * own folder is resolved before it crosses.
 */
function absoluteInput(input: InputSpec): InputSpec {
  return input.kind === 'npy' || input.kind === 'image' ? { ...input, path: resolvePath(input.path) } : input;
}

/**
 * HAILO_TOOLS_WORKER_LAUNCHER: a JSON array, the program and arguments that run the worker script
 * in place of this Node (the arm64 test runs `["qemu-aarch64-static", "-L", sysroot, arm64-node]`:
 * without binfmt_misc an emulated Node cannot fork another). Read from the process environment
 * only — like CXX, never from a setting a folder could carry.
 */
export function workerLauncher(env: Record<string, string | undefined>): { execPath?: string; execArgv: string[] } | { error: DeviceError } {
  const raw = env.HAILO_TOOLS_WORKER_LAUNCHER;
  if (!raw) return { execArgv: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((a) => typeof a === 'string' && a !== '')) {
    return { error: errorFromKind('worker-crashed', 'HAILO_TOOLS_WORKER_LAUNCHER is not a JSON array of the program and its arguments') };
  }
  const [execPath, ...execArgv] = parsed as string[];
  return { execPath, execArgv };
}

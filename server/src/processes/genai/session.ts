// The host side of one chat (CLI, extension, bench): an LLM/VLM opened in the device worker through
// a DeviceClient, asked one turn at a time; chunks arrive as worker events and are handed on as they
// come. The host measures time to first token and tokens/s itself too (what the user sees: worker
// + IPC), beside the worker's figures, and keeps them over the session for health(): the devices'
// state and a warning when the rate decays. A failed answer resolves with its DeviceError, never throws.
import type {
  ChatContext,
  ChatEndReason,
  ChatEvent,
  ChatModelInfo,
  ChatOpenOptions,
  ChatStats,
  DeviceError,
  DeviceState,
  GeneratorParams,
} from '../../core/device/protocol';
import { deviceLine, healthWarnings, rateLine, type AnswerFigures } from '../../core/genai/health';
import { DeviceRequestError, type DeviceClient } from '../device/client';

export interface Turn {
  /** JSON messages of this turn (messages.ts). */
  messages: string[];
  /** A VLM's frames, one per image entry (frames.ts). */
  frames?: Uint8Array[];
  params?: GeneratorParams;
}

export interface Answer {
  text: string;
  reason: ChatEndReason;
  /** Measured in the worker. */
  stats: ChatStats;
  /** Measured here: ask() → first chunk, and first → last chunk. */
  host: { firstTokenMs: number | null; tokensPerSecond: number | null; totalMs: number; chunks: number };
  context: ChatContext | null;
  error?: DeviceError;
}

/** The session's health: the devices' state, the answers' rates, and what is going wrong (health.ts). */
export interface SessionHealth {
  devices: DeviceState[];
  /** "52.0 °C · memory 3.1 of 8.0 GiB · NNC 80 % · 41.0 tokens/s (first 125.0) · first token 240 ms". */
  line: string;
  warnings: string[];
  /** Why the device's state is missing (HailoRT refused the query), when it is. */
  unavailable?: string;
}

export class ChatSession {
  private running: { generation?: number; stop?: boolean } | undefined;
  private readonly figures: AnswerFigures[] = [];

  private constructor(
    private readonly client: DeviceClient,
    readonly info: ChatModelInfo,
  ) {}

  static async open(client: DeviceClient, options: ChatOpenOptions): Promise<ChatSession> {
    return new ChatSession(client, await client.chatOpen(options));
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** One turn: resolves when the answer ends (end, max tokens, stopped, or failed). */
  async ask(turn: Turn, onChunk?: (text: string) => void): Promise<Answer> {
    if (this.running) throw new Error('an answer is still being generated');
    const run: { generation?: number; stop?: boolean } = {};
    this.running = run;
    const early: ChatEvent[] = [];
    let text = '';
    let chunks = 0;
    let firstAt: number | null = null;
    let lastAt: number | null = null;
    const t0 = performance.now();
    let settle: (a: Answer) => void = () => undefined;
    const done = new Promise<Answer>((resolve) => (settle = resolve));
    const handle = (e: ChatEvent) => {
      if (e.type === 'chunk') {
        const now = performance.now();
        text += e.text;
        chunks++;
        firstAt ??= now;
        lastAt = now;
        onChunk?.(e.text);
        return;
      }
      const end = performance.now();
      const host = {
        firstTokenMs: firstAt === null ? null : firstAt - t0,
        tokensPerSecond: chunks >= 2 && firstAt !== null && lastAt !== null && lastAt > firstAt ? ((chunks - 1) * 1000) / (lastAt - firstAt) : null,
        totalMs: end - t0,
        chunks,
      };
      if (!e.error) this.figures.push({ firstTokenMs: host.firstTokenMs, tokensPerSecond: host.tokensPerSecond, tokens: e.stats.tokens, context: e.context });
      settle({ text, reason: e.reason, stats: e.stats, host, context: e.context, ...(e.error ? { error: e.error } : {}) });
    };
    const unsubscribe = this.client.onChat((e) => {
      if (e.session !== this.info.session) return;
      if (run.generation === undefined) early.push(e);
      else if (e.generation === run.generation) handle(e);
    });
    try {
      const started = await this.client.chatGenerate({
        session: this.info.session,
        messages: turn.messages,
        frames: turn.frames?.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('base64')),
        params: turn.params,
      });
      run.generation = started.generation;
      for (const e of early.splice(0)) if (e.generation === started.generation) handle(e);
      if (run.stop) void this.client.chatAbort(this.info.session).catch(() => undefined);
      return await done;
    } finally {
      unsubscribe();
      this.running = undefined;
    }
  }

  /** Stops the answer being generated (abort); its ask() resolves with reason 'aborted'. */
  async stop(): Promise<void> {
    const run = this.running;
    if (!run) return;
    run.stop = true;
    if (run.generation !== undefined) await this.client.chatAbort(this.info.session);
  }

  /** Every answer's figures so far (the session's rate history). */
  get answers(): readonly AnswerFigures[] {
    return this.figures;
  }

  /**
   * The devices' state now and the session's rates, with warnings. A HailoRT that does not report the
   * state (4.x, a device that lacks the query) leaves `devices` empty and says why in `unavailable`.
   */
  async health(): Promise<SessionHealth> {
    let devices: DeviceState[] = [];
    let unavailable: string | undefined;
    try {
      devices = (await this.client.chatHealth(this.info.session)).devices;
    } catch (err) {
      if (!(err instanceof DeviceRequestError)) throw err;
      unavailable = err.error.sentence;
    }
    const line = [...devices.map(deviceLine), rateLine(this.figures)].filter(Boolean).join(' · ');
    return { devices, line, warnings: healthWarnings(this.figures, devices), ...(unavailable ? { unavailable } : {}) };
  }

  context(): Promise<ChatContext | null> {
    return this.client.chatContext(this.info.session);
  }

  clear(): Promise<ChatContext | null> {
    return this.client.chatClear(this.info.session);
  }

  async save(): Promise<Uint8Array> {
    return Buffer.from((await this.client.chatSave(this.info.session)).base64, 'base64');
  }

  load(blob: Uint8Array): Promise<ChatContext | null> {
    return this.client.chatLoad(this.info.session, Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('base64'));
  }

  async tokenize(text: string): Promise<number[]> {
    return (await this.client.chatTokenize(this.info.session, text)).ids;
  }

  async close(): Promise<void> {
    await this.client.chatClose(this.info.session);
  }
}

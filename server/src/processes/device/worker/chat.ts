// What the device worker does for a chat: open an LLM/VLM (our HEF reader says first whether it is
// one, which LoRAs it has and whether it fits the device), start generations, and pump their tokens
// to the host as ChatEvents. No callback crosses from native code: the pump calls the bridge's read
// with a short timeout and yields to the event loop between reads, so a Stop request (abort) is
// served within one read slice. One generation per model at a time.
import { basename } from 'node:path';
import { releaseHas } from '../../../core/releases';
import { classifyGenAiFile, countImageEntries, validateParams } from '../../../core/genai';
import { errorFromKind, errorFromStatus, HailoStatus, statusName } from '../../../core/device/errors';
import { formatOrderName, formatTypeName } from '../../../core/device/names';
import { hefFileGate } from '../../../core/device/runGate';
import type {
  ChatContext,
  ChatEndReason,
  ChatEvent,
  ChatGenerateRequest,
  ChatModelInfo,
  ChatOpenOptions,
  DeviceError,
  DeviceState,
  GeneratorParams,
  RuntimeInfo,
} from '../../../core/device/protocol';
import { paramMask } from '../../../core/genai/params';
import type { HefReport } from '../../../core/hef';
import { ShimError, type Bridge, type ShimGenAiInfo, type ShimGeneratorArgs, type ShimHealth } from './bridge';
import { DeviceFailure, limitFailure, type HailortSession } from './hailortSession';
import { LimitError } from '../../../core/common/limits';

/** How long one read blocks: the longest a Stop waits before the worker sees it. */
export const READ_SLICE_MS = 50;
/** No token for this long: the generation is reported as timed out (status 4). */
const SILENCE_LIMIT_MS = 120_000;

interface Generation {
  id: number;
  t0: number;
  reads: number;
  chunks: number;
  firstAt: number | null;
  lastAt: number | null;
  lastProgressAt: number;
  done: boolean;
}

interface Session {
  handle: number;
  info: ChatModelInfo;
  shim: ShimGenAiInfo;
  generation?: Generation;
}

export class ChatService {
  private readonly sessions = new Map<number, Session>();
  private nextGeneration = 1;

  constructor(
    private readonly bridge: Bridge,
    private readonly runtime: RuntimeInfo,
    private readonly devices: HailortSession,
    private readonly emit: (event: ChatEvent) => void,
  ) {}

  async open(o: ChatOpenOptions): Promise<ChatModelInfo> {
    // Read without hashing: an LLM's HEF is gigabytes, and HailoRT checks its own hashes.
    const { report, genai } = await classifyGenAiFile(o.hef);
    refuseFileOrHailort4(
      report,
      o.hef,
      this.runtime,
      `Chatting with an LLM or VLM needs a Hailo-10H with HailoRT 5.x; HailoRT ${this.runtime.hailortVersion} runs the Hailo-8 family, which has no GenAI runtime.`,
    );
    if (!genai.kind) throw new DeviceFailure(withSentence(errorFromKind('not-genai', genai.evidence.join('; ')), genai.summary));
    const kind = o.kind ?? genai.kind;
    const lora = o.lora ?? '';
    if (lora) {
      if (kind === 'vlm')
        throw new DeviceFailure(
          withSentence(errorFromKind('lora-missing', `LoRA '${lora}' asked of a VLM`), `A VLM takes no LoRA adapter, and '${lora}' was asked for.`),
        );
      if (!genai.loras.includes(lora)) {
        const has = genai.loras.length ? `it has ${genai.loras.map((l) => `'${l}'`).join(', ')}` : 'it has none (no <lora>__prefill network group)';
        throw new DeviceFailure(
          withSentence(errorFromKind('lora-missing', `no network group ${lora}__prefill`), `The HEF has no LoRA adapter '${lora}': ${has}.`),
        );
      }
    }
    // The pre-run gate (core/device/runGate.ts): the file under this HailoRT, the device, the pair.
    const { device } = await this.devices.gate(o.hef, report);
    // One LLM or VLM per device (HailoRT 5.4 documents it; 5.x's GenAI server already answered 6,
    // "KV-Cache is already in use by another model!"): when this worker holds it, say whose it is.
    const held = [...this.sessions.values()][0];
    if (held) {
      throw new DeviceFailure(
        withSentence(
          errorFromKind('genai-busy', `session ${held.handle} (${held.info.hef}) is open`, HailoStatus.INVALID_OPERATION, 'HAILO_INVALID_OPERATION'),
          `This chat's ${held.info.kind.toUpperCase()} ${basename(held.info.hef)} holds the ${device.architecture} (HailoRT runs one LLM or VLM per device${releaseHas('hailort', this.runtime.hailortVersion, 'genai-one-per-device') ? `, as HailoRT ${this.runtime.hailortVersion} documents` : ''}): close that chat first.`,
        ),
      );
    }
    let handle: number;
    try {
      handle = this.bridge.genaiOpen(o.hef, lora, kind, o.groupId);
    } catch (err) {
      throw this.openFailure(err, kind, lora, o.groupId);
    }
    let shim: ShimGenAiInfo;
    try {
      shim = this.bridge.genaiInfo(handle);
    } catch (err) {
      this.bridge.genaiClose(handle);
      throw failure(err, 'the model info');
    }
    const d = shim.defaults;
    const info: ChatModelInfo = {
      session: handle,
      hef: o.hef,
      kind,
      lora,
      runtime: this.runtime,
      defaults: {
        temperature: float32Text(d.temperature),
        topP: float32Text(d.topP),
        topK: d.topK,
        frequencyPenalty: float32Text(d.frequencyPenalty),
        maxTokens: d.maxTokens,
        doSample: d.doSample,
        seed: d.seed,
      },
      template: shim.template,
      context:
        shim.contextCalls && shim.contextUsage !== null && shim.contextCapacity !== null ? { usage: shim.contextUsage, capacity: shim.contextCapacity } : null,
      frame: shim.frame
        ? { size: shim.frame.size, shape: shim.frame.shape, type: formatTypeName(shim.frame.type), order: formatOrderName(shim.frame.order) }
        : null,
    };
    this.sessions.set(handle, { handle, info, shim });
    return info;
  }

  private openFailure(err: unknown, kind: 'llm' | 'vlm', lora: string, groupId: string): DeviceFailure {
    if (!(err instanceof ShimError)) return failure(err, 'open');
    const what = kind === 'vlm' ? 'VLM' : 'LLM';
    switch (err.status) {
      case HailoStatus.NOT_IMPLEMENTED:
        return new DeviceFailure(tooOld(err));
      case HailoStatus.INVALID_OPERATION:
        // After our own checks, 6 from LLM/VLM::create is the device's one-model rule (llm_server.cpp:1171).
        return new DeviceFailure(
          this.devices.explainBusy(
            errorFromKind(
              'genai-busy',
              `${err.detail} (HailoRT's log says why; "KV-Cache is already in use by another model!" when another model holds it)`,
              err.status,
              err.statusName,
            ),
            groupId,
          ),
        );
      case HailoStatus.OUT_OF_PHYSICAL_DEVICES: {
        const count = this.devices.scan().devices.length;
        return new DeviceFailure(
          this.devices.explainBusy(
            errorFromStatus(err.status, err.detail, { scanCount: count, during: 'open', system: this.devices.system() }, err.statusName),
            groupId,
          ),
        );
      }
      case HailoStatus.NOT_FOUND:
        return new DeviceFailure(
          withSentence(
            errorFromKind(lora ? 'lora-missing' : 'not-genai', err.detail, err.status, err.statusName),
            `HailoRT did not find the network group it runs this ${what} with${lora ? ` (LoRA '${lora}')` : ''} in the HEF, or its hailo-config.json (status 61).`,
          ),
        );
      case HailoStatus.INVALID_ARGUMENT:
        return new DeviceFailure(
          withSentence(
            errorFromKind('not-genai', err.detail, err.status, err.statusName),
            `HailoRT refused the ${what}'s hailo-config.json (status 2): it lacks a field HailoRT's GenAI server needs.`,
          ),
        );
      default:
        return new DeviceFailure(errorFromStatus(err.status, err.detail, { during: 'open', system: this.devices.system() }, err.statusName));
    }
  }

  /** The devices' state under the session's model; a figure HailoRT reports as -1 (could not read) is null. */
  health(session: number): { devices: DeviceState[] } {
    const s = this.session(session);
    let shim: ShimHealth;
    try {
      shim = this.bridge.genaiHealth(s.handle);
    } catch (err) {
      throw failure(err, 'device state');
    }
    const known = (v: number | undefined) => (v === undefined || v < 0 ? null : v);
    return {
      devices: shim.devices.map((d) => ({
        id: d.id,
        temperatureC: d.health ? known(d.health.onDie) : d.temperature ? known(Math.max(d.temperature.ts0, d.temperature.ts1)) : null,
        ramUsedKib: known(d.performance?.ramUsedKib),
        ramTotalKib: known(d.performance?.ramTotalKib),
        nncUtilization: known(d.performance?.nnc),
        cpuUtilization: known(d.performance?.cpu),
        unavailable: Object.entries(d.errors).map(([call, status]) => `${call}: ${statusName(status)} (${status})`),
      })),
    };
  }

  generate(req: ChatGenerateRequest): { generation: number } {
    const s = this.session(req.session);
    if (s.generation && !s.generation.done) {
      throw new DeviceFailure(
        withSentence(
          errorFromKind('hailort-error', 'generate while generating', HailoStatus.INVALID_OPERATION),
          'An answer is still being generated: wait for it or stop it first.',
        ),
      );
    }
    const params = req.params ?? {};
    const bad = validateParams(params);
    if (bad.length) throw new DeviceFailure(withSentence(errorFromKind('bad-params', bad.map((b) => b.error).join('; ')), `${bad[0].error}.`));
    if (!Array.isArray(req.messages) || req.messages.length === 0)
      throw new DeviceFailure(withSentence(errorFromKind('bad-input', 'no messages'), 'There is nothing to send: the message is empty.'));
    const frames = (req.frames ?? []).map((b) => Buffer.from(b, 'base64'));
    const images = req.messages.reduce((n, m) => n + countImageEntries(m), 0);
    if (s.info.kind === 'llm' && (frames.length || images)) {
      throw new DeviceFailure(
        withSentence(
          errorFromKind('wrong-frames', `${frames.length} frame(s) for an LLM`),
          'This model is an LLM: it takes text only, so the images were not sent.',
        ),
      );
    }
    if (s.info.kind === 'vlm') {
      const size = s.info.frame?.size ?? 0;
      if (frames.length !== images) {
        throw new DeviceFailure(
          withSentence(
            errorFromKind('wrong-frames', `${frames.length} frames, ${images} image entries`),
            `The message has ${images} image entr${images === 1 ? 'y' : 'ies'} but ${frames.length} frame${frames.length === 1 ? '' : 's'} came with it; a VLM takes one frame per image.`,
          ),
        );
      }
      const wrong = frames.findIndex((f) => f.length !== size);
      if (wrong >= 0) {
        throw new DeviceFailure(
          withSentence(
            errorFromKind('wrong-frames', `frame ${wrong + 1}: ${frames[wrong].length} bytes`),
            `Image ${wrong + 1} is ${frames[wrong].length} bytes as a frame, but this VLM takes frames of exactly ${size} bytes (VLM::input_frame_size()).`,
          ),
        );
      }
    }
    const g: Generation = {
      id: this.nextGeneration++,
      t0: performance.now(),
      reads: 0,
      chunks: 0,
      firstAt: null,
      lastAt: null,
      lastProgressAt: performance.now(),
      done: false,
    };
    try {
      this.bridge.genaiGenerate(s.handle, shimArgs(params), req.messages, frames);
    } catch (err) {
      throw generateFailure(err);
    }
    s.generation = g;
    // After this request's answer is sent: the host learns the generation's id before its chunks.
    setImmediate(() => void this.pump(s, g));
    return { generation: g.id };
  }

  /** Reads the generation to its end, a chunk per event; yields between reads. */
  private async pump(s: Session, g: Generation): Promise<void> {
    while (!g.done) {
      let r: ReturnType<Bridge['genaiTryRead']>;
      try {
        r = this.bridge.genaiTryRead(s.handle, READ_SLICE_MS);
      } catch (err) {
        // a chunk past LIMITS.hailortAnswerBytes: the shim would hold it forever, so the generation stops
        try {
          this.bridge.genaiAbort(s.handle);
        } catch {
          // the failure below is the answer
        }
        this.finish(s, g, 'error', failure(err, 'read').error);
        return;
      }
      const now = performance.now();
      if ('error' in r) {
        if (r.error === HailoStatus.TIMEOUT && now - g.lastProgressAt < SILENCE_LIMIT_MS) {
          await yieldToEvents();
          continue;
        }
        if (g.done) return; // aborted while the read was blocked
        const e = this.bridge.lastError();
        const error =
          r.error === HailoStatus.TIMEOUT
            ? errorFromKind('timeout', `no token for ${SILENCE_LIMIT_MS / 1000} s`, r.error, e.statusName)
            : withSentence(
                errorFromStatus(r.error, e.detail || 'read', {}, e.statusName),
                `The generation failed: HailoRT answered ${e.statusName || 'status'} (status ${r.error}) to the read of the next token.`,
              );
        this.finish(s, g, 'error', error);
        return;
      }
      g.reads++;
      g.lastProgressAt = now;
      if (r.text) {
        g.chunks++;
        g.firstAt ??= now;
        g.lastAt = now;
        this.emit({ session: s.handle, generation: g.id, type: 'chunk', text: r.text });
      }
      if (r.status !== 0) {
        this.finish(s, g, r.status === 1 ? 'max-tokens' : r.status === 3 ? 'aborted' : 'end');
        return;
      }
      await yieldToEvents();
    }
  }

  private finish(s: Session, g: Generation, reason: ChatEndReason, error?: DeviceError): void {
    if (g.done) return;
    g.done = true;
    const end = performance.now();
    const stats = {
      tokens: g.reads,
      firstTokenMs: g.firstAt === null ? null : g.firstAt - g.t0,
      tokensPerSecond:
        g.chunks >= 2 && g.lastAt !== null && g.firstAt !== null && g.lastAt > g.firstAt ? ((g.chunks - 1) * 1000) / (g.lastAt - g.firstAt) : null,
      totalMs: end - g.t0,
    };
    let context: ChatContext | null = null;
    if (s.info.context) {
      try {
        context = this.bridge.genaiContext(s.handle);
        s.info.context = context;
      } catch {
        context = null; // the answer stands; the bar keeps its last value
      }
    }
    this.emit({ session: s.handle, generation: g.id, type: 'end', reason, stats, context, ...(error ? { error } : {}) });
  }

  abort(session: number): null {
    const s = this.session(session);
    const g = s.generation;
    if (!g || g.done) return null;
    // The pump is parked between reads (this runs on the same thread): finish() marks the
    // generation done, and the pump stops at its next turn.
    try {
      this.bridge.genaiAbort(s.handle);
    } catch (err) {
      this.finish(s, g, 'error', failure(err, 'abort').error);
      return null;
    }
    this.finish(s, g, 'aborted');
    return null;
  }

  context(session: number): ChatContext | null {
    const s = this.idle(session, 'read the context');
    if (!s.info.context) return null;
    try {
      return (s.info.context = this.bridge.genaiContext(s.handle));
    } catch (err) {
      throw failure(err, 'context');
    }
  }

  clear(session: number): ChatContext | null {
    const s = this.idle(session, 'clear the context');
    try {
      this.bridge.genaiClear(s.handle);
    } catch (err) {
      throw failure(err, 'clear_context');
    }
    return this.context(session);
  }

  save(session: number): { base64: string } {
    const s = this.idle(session, 'save the context');
    if (!s.info.context) throw new DeviceFailure(tooOldFor('saving the conversation context (save_context)', '5.1.1', this.runtime.hailortVersion));
    try {
      return { base64: Buffer.from(this.bridge.genaiSave(s.handle)).toString('base64') };
    } catch (err) {
      throw failure(err, 'save_context');
    }
  }

  load(session: number, base64: string): ChatContext | null {
    const s = this.idle(session, 'load a context');
    if (!s.info.context) throw new DeviceFailure(tooOldFor('loading a conversation context (load_context)', '5.1.1', this.runtime.hailortVersion));
    try {
      this.bridge.genaiLoad(s.handle, Buffer.from(base64, 'base64'));
    } catch (err) {
      if (err instanceof ShimError && err.status === HailoStatus.INVALID_ARGUMENT) {
        throw new DeviceFailure(
          withSentence(
            errorFromKind('bad-input', err.detail, err.status, err.statusName),
            'HailoRT refused that context (status 2): it was saved from another model, or it is damaged.',
          ),
        );
      }
      throw failure(err, 'load_context');
    }
    return this.context(session);
  }

  tokenize(session: number, text: string): { ids: number[] } {
    const s = this.session(session);
    try {
      return { ids: this.bridge.genaiTokenize(s.handle, text) };
    } catch (err) {
      throw failure(err, 'tokenize');
    }
  }

  timed(req: ChatGenerateRequest & { timeoutMs: number }): { firstTokenMs: number; totalMs: number; chunks: number } {
    const s = this.idle(req.session, 'run the timed loop');
    try {
      return this.bridge.genaiTimed(s.handle, shimArgs(req.params ?? {}), req.messages, req.timeoutMs);
    } catch (err) {
      throw generateFailure(err);
    }
  }

  close(session: number): null {
    const s = this.session(session);
    if (s.generation && !s.generation.done) s.generation.done = true;
    this.sessions.delete(session);
    try {
      this.bridge.genaiClose(s.handle);
    } catch (err) {
      throw failure(err, 'close');
    }
    return null;
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) {
      try {
        this.close(id);
      } catch {
        // Best effort on shutdown: the process is exiting and the device releases the model with it.
      }
    }
  }

  private session(id: number): Session {
    const s = this.sessions.get(id);
    if (!s)
      throw new DeviceFailure(
        withSentence(
          errorFromKind('hailort-error', `no open chat session ${id}`, HailoStatus.INVALID_ARGUMENT),
          "The chat's model is no longer open (the worker was restarted): open the chat again.",
        ),
      );
    return s;
  }

  private idle(id: number, what: string): Session {
    const s = this.session(id);
    if (s.generation && !s.generation.done) {
      throw new DeviceFailure(
        withSentence(
          errorFromKind('hailort-error', `${what} while generating`, HailoStatus.INVALID_OPERATION),
          `Cannot ${what} while an answer is being generated: stop it first.`,
        ),
      );
    }
    return s;
  }
}

/** The shortest decimal that is the same float32 (the shim prints %.9g: 0.699999988 is 0.7 to HailoRT). */
export function float32Text(v: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const short = Number(v.toPrecision(digits));
    if (Math.fround(short) === Math.fround(v)) return short;
  }
  return v;
}

function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function withSentence(e: DeviceError, sentence: string): DeviceError {
  return { ...e, sentence };
}

function shimArgs(p: GeneratorParams): ShimGeneratorArgs {
  return {
    mask: paramMask(p),
    temperature: p.temperature ?? 0,
    topP: p.topP ?? 0,
    topK: p.topK ?? 0,
    frequencyPenalty: p.frequencyPenalty ?? 0,
    maxTokens: p.maxTokens ?? 0,
    doSample: p.doSample ?? false,
    seed: p.seed ?? 0,
  };
}

/**
 * Before a GenAI model (LLM, VLM, Speech2Text) is opened: the file alone first (a missing path is said
 * before anything else; the whole gate follows at open), then HailoRT's line — 4.x, the Hailo-8
 * family's runtime, has no hailort::genai of the shape the bridge speaks. `sentence` says what needs 5.x.
 */
export function refuseFileOrHailort4(report: HefReport, hef: string, runtime: RuntimeInfo, sentence: string): void {
  const unreadable = hefFileGate(report, basename(hef) || '(no path)', null);
  if (unreadable) throw new DeviceFailure(unreadable.error);
  const major = Number(runtime.hailortVersion.split('.')[0]);
  if (major > 0 && major < 5) throw new DeviceFailure(withSentence(errorFromKind('hailort-too-old', `HailoRT ${runtime.hailortVersion}`), sentence));
}

export function tooOld(err: ShimError): DeviceError {
  const m = /needs HailoRT (\d+\.\d+\.\d+) or newer; this bridge was built against (\d+\.\d+\.\d+)/.exec(err.detail);
  const sentence = m
    ? `${capitalise(err.detail.split(' needs ')[0])} needs HailoRT ${m[1]} or newer, and the installed HailoRT is ${m[2]}: update HailoRT (hailo.hailort.path, CLI --hailort).`
    : `The installed HailoRT is too old for this: ${err.detail}.`;
  return withSentence(errorFromKind('hailort-too-old', err.detail, err.status, err.statusName), sentence);
}

function tooOldFor(what: string, version: string, installed: string): DeviceError {
  return withSentence(
    errorFromKind('hailort-too-old', `${what} needs HailoRT ${version}`, HailoStatus.NOT_IMPLEMENTED),
    `${capitalise(what)} needs HailoRT ${version} or newer, and the installed HailoRT is ${installed}: update HailoRT (hailo.hailort.path, CLI --hailort).`,
  );
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function generateFailure(err: unknown): DeviceFailure {
  if (err instanceof ShimError) {
    if (err.status === HailoStatus.INVALID_ARGUMENT && /refused before HailoRT/.test(err.detail)) {
      return new DeviceFailure(
        withSentence(
          errorFromKind('wrong-frames', err.detail, err.status, err.statusName),
          `The images were refused before they reached the device: ${err.detail.replace(/^refused before HailoRT: /, '')}.`,
        ),
      );
    }
    if (err.status === HailoStatus.INVALID_ARGUMENT) {
      return new DeviceFailure(
        withSentence(
          errorFromKind('bad-params', err.detail, err.status, err.statusName),
          'HailoRT refused the message or a generator parameter (status 2); its log says which.',
        ),
      );
    }
    if (err.status === HailoStatus.NOT_IMPLEMENTED) return new DeviceFailure(tooOld(err));
  }
  return failure(err, 'generate');
}

export function failure(err: unknown, what: string): DeviceFailure {
  if (err instanceof DeviceFailure) return err;
  if (err instanceof LimitError) return limitFailure(err);
  if (err instanceof ShimError) {
    if (err.status === HailoStatus.NOT_IMPLEMENTED) return new DeviceFailure(tooOld(err));
    return new DeviceFailure(errorFromStatus(err.status, err.detail || what, {}, err.statusName));
  }
  return new DeviceFailure(errorFromKind('hailort-error', `${what}: ${(err as Error)?.message ?? String(err)}`));
}

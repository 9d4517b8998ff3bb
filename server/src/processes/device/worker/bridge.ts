// The koffi binding of native/hailo_shim.cpp, used only inside the device worker process. Every
// call returns plain values; failures become ShimError with the shim's last status, its name and
// text. Nothing here holds a JavaScript callback for native code: HailoRT's completions stay in
// the shim, and this side polls (waitDone) or blocks (infer, runPipelined).
//
// Loaded only by the worker, which refuses to start without a TrustToken (see main.ts).
import { koffi } from './koffi';
import type { TrustToken } from '../../../core/common/trust';
import { boundedCount, type LimitName } from '../../../core/common/limits';

/**
 * A size HailoRT answered through the shim, checked before anything is allocated by it: a LimitError
 * (one sentence, LIMITS[name]) past the bound, instead of relying on Node's own buffer limit.
 */
function answered(name: LimitName, what: string, n: number | bigint): number {
  return boundedCount(name, `HailoRT's answer for ${what}`, n);
}

export class ShimError extends Error {
  constructor(
    readonly status: number,
    readonly statusName: string,
    readonly detail: string,
  ) {
    super(`${detail} [${statusName || 'status'} ${status}]`);
    this.name = 'ShimError';
  }
}

/** hts_open's refusal of a frame over its bound: the direction and the bytes, or undefined for any other failure. */
export function shimFrameRefusal(err: unknown): { direction: 'input' | 'output'; bytes: number } | undefined {
  if (!(err instanceof ShimError) || err.status !== 2) return undefined;
  const m = /^open: the (input|output) frame is (\d+) bytes, over the bound of \d+ bytes; refused before any frame is allocated/.exec(err.detail);
  return m ? { direction: m[1] as 'input' | 'output', bytes: Number(m[2]) } : undefined;
}

export interface ShimStream {
  name: string;
  shape: [number, number, number];
  order: number;
  type: number;
  flags: number;
  frameSize: number;
  nms: boolean;
  quant: [number, number, number, number][];
}

export interface ShimModel {
  inputs: ShimStream[];
  outputs: ShimStream[];
  queueSize: number;
  slots: number;
  inputBytes: number;
  outputBytes: number;
  resources: string[];
  archs: number[];
}

export interface ShimScanEntry {
  id: string;
  ok: boolean;
  architecture?: number;
  fw?: [number, number, number];
  release?: boolean;
  board?: string;
  serial?: string;
  part?: string;
  product?: string;
  status?: number;
  statusName?: string;
  message?: string;
}

export const SHIM_ABI = 4;
const HAILO_SUCCESS = 0;

export class Bridge {
  private readonly fn;
  private jsonBuffer = Buffer.alloc(64 << 10);
  private textBuffer = Buffer.alloc(16 << 10);

  constructor(
    _trust: TrustToken,
    readonly shimPath: string,
  ) {
    const lib = koffi(_trust).load(shimPath);
    this.fn = {
      abi: lib.func('uint32_t hts_abi_version(void)'),
      compiledVersion: lib.func('uint32_t hts_compiled_version(void)'),
      libraryVersion: lib.func('int hts_library_version(_Out_ uint32_t *major, _Out_ uint32_t *minor, _Out_ uint32_t *revision)'),
      lastStatus: lib.func('int hts_last_status(void)'),
      lastStatusName: lib.func('const char *hts_last_status_name(void)'),
      lastError: lib.func('const char *hts_last_error(void)'),
      scanJson: lib.func('int64_t hts_scan_json(void *buf, size_t cap)'),
      open: lib.func(
        'int32_t hts_open(const char *hef, int format, uint32_t batch, uint32_t queue, const char *group, uint32_t timeout_ms, uint64_t max_frame_bytes, uint64_t max_slot_bytes)',
      ),
      modelJson: lib.func('int64_t hts_model_json(int32_t handle, void *buf, size_t cap)'),
      infer: lib.func('int hts_infer(int32_t handle, const void *input, size_t in_size, void *output, size_t out_size)'),
      runPipelined: lib.func(
        'int hts_run_pipelined(int32_t handle, const void *input, size_t in_size, uint32_t frames, uint32_t depth, _Out_ double *elapsed)',
      ),
      submit: lib.func('int hts_submit(int32_t handle, uint32_t slot, const void *input, size_t in_size)'),
      waitDone: lib.func('int32_t hts_wait_done(int32_t handle, void *slots, void *statuses, uint32_t max, uint32_t timeout_ms)'),
      readOutput: lib.func('int hts_read_output(int32_t handle, uint32_t slot, void *output, size_t out_size)'),
      resource: lib.func('int64_t hts_resource(int32_t handle, const char *name, void *buf, size_t cap)'),
      close: lib.func('int hts_close(int32_t handle)'),
      // GenAI (native/hailo_genai.cpp)
      genaiOpen: lib.func('int32_t hts_genai_open(const char *hef, const char *lora, int kind, const char *group)'),
      genaiInfo: lib.func('int64_t hts_genai_info_json(int32_t handle, void *buf, size_t cap)'),
      genaiGenerate: lib.func(
        'int hts_genai_generate(int32_t handle, uint32_t mask, float temperature, float top_p, uint32_t top_k, float frequency_penalty, uint32_t max_tokens, int do_sample, uint32_t seed, const void *messages, size_t messages_size, uint32_t message_count, const void *frames, size_t frames_size, uint32_t frame_count)',
      ),
      genaiRead: lib.func('int64_t hts_genai_read(int32_t handle, void *buf, size_t cap, uint32_t timeout_ms, _Out_ int32_t *status)'),
      genaiAbort: lib.func('int hts_genai_abort(int32_t handle)'),
      genaiContext: lib.func('int hts_genai_context(int32_t handle, _Out_ int64_t *usage, _Out_ int64_t *capacity)'),
      genaiClear: lib.func('int hts_genai_clear_context(int32_t handle)'),
      genaiSave: lib.func('int64_t hts_genai_save_context(int32_t handle, void *buf, size_t cap)'),
      genaiLoad: lib.func('int hts_genai_load_context(int32_t handle, const void *blob, size_t size)'),
      genaiTokenize: lib.func('int64_t hts_genai_tokenize(int32_t handle, const char *text, void *ids, size_t cap)'),
      genaiTimed: lib.func(
        'int hts_genai_generate_timed(int32_t handle, uint32_t mask, float temperature, float top_p, uint32_t top_k, float frequency_penalty, uint32_t max_tokens, int do_sample, uint32_t seed, const void *messages, size_t messages_size, uint32_t message_count, uint32_t timeout_ms, _Out_ double *first_ms, _Out_ double *total_ms, _Out_ uint32_t *chunks)',
      ),
      genaiClose: lib.func('int hts_genai_close(int32_t handle)'),
      genaiHealth: lib.func('int64_t hts_genai_health_json(int32_t handle, void *buf, size_t cap)'),
      // Speech2Text (native/hailo_speech.cpp)
      speechOpen: lib.func('int32_t hts_speech_open(const char *hef, const char *group)'),
      speechGenerate: lib.func(
        'int hts_speech_generate(int32_t handle, const float *audio, size_t count, int task, const char *language, float repetition_penalty, uint32_t timeout_ms)',
      ),
      speechResult: lib.func('int64_t hts_speech_result_json(int32_t handle, void *buf, size_t cap)'),
      speechClose: lib.func('int hts_speech_close(int32_t handle)'),
    };
    const abi = this.fn.abi() as number;
    if (abi !== SHIM_ABI) throw new ShimError(8, 'HAILO_INTERNAL_FAILURE', `the shim at ${shimPath} speaks ABI ${abi}, this worker ${SHIM_ABI}: rebuild it`);
  }

  private fail(fallbackStatus = 8): never {
    throw this.lastError(fallbackStatus);
  }

  private check(status: number): void {
    if (status !== HAILO_SUCCESS) this.fail(status);
  }

  /**
   * Calls a size-then-copy export: once without room (it answers the size), then with a buffer of
   * that size, bounded by LIMITS.hailortBlobBytes. `absentStatus`: the status that means "there is
   * none" (then null).
   */
  private blob(what: string, call: (buf: Buffer | null, cap: number) => number | bigint, absentStatus?: number): Buffer | null {
    const answer = Number(call(null, 0));
    if (answer < 0) {
      if (absentStatus !== undefined && (this.fn.lastStatus() as number) === absentStatus) return null;
      this.fail();
    }
    const size = answered('hailortBlobBytes', what, answer);
    const buf = Buffer.alloc(size);
    if (Number(call(buf, size)) < 0) this.fail();
    return buf;
  }

  /** Calls a JSON-answering export, growing the buffer (up to LIMITS.hailortAnswerBytes) when the answer is longer. */
  private json<T>(what: string, call: (buf: Buffer, cap: number) => number | bigint): T {
    for (;;) {
      const n = Number(call(this.jsonBuffer, this.jsonBuffer.length));
      if (n < 0) this.fail();
      if (n < this.jsonBuffer.length) return JSON.parse(this.jsonBuffer.toString('utf8', 0, n)) as T;
      this.jsonBuffer = Buffer.alloc(answered('hailortAnswerBytes', what, n) + 1);
    }
  }

  libraryVersion(): string {
    const major = [0];
    const minor = [0];
    const revision = [0];
    this.check(this.fn.libraryVersion(major, minor, revision) as number);
    return `${major[0]}.${minor[0]}.${revision[0]}`;
  }

  compiledVersion(): string {
    const v = this.fn.compiledVersion() as number;
    return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
  }

  scan(): ShimScanEntry[] {
    return this.json<{ devices: ShimScanEntry[] }>('the device scan', (b, c) => this.fn.scanJson(b, c) as number).devices;
  }

  /**
   * Opens a HEF; the shim refuses (status 2, before any buffer is made) an input or output frame in
   * `format` over `maxFrameBytes` (0: no bound; the worker gives LIMITS.deviceFrameBytes): see
   * shimFrameRefusal; and keeps fewer async slots when (slots + 1) × (input + output frame) would
   * pass `maxSlotBytes` (0: no bound; the worker gives LIMITS.deviceSlotBytes).
   */
  open(
    hef: string,
    format: 'uint8' | 'float32',
    batch: number,
    queue: number,
    groupId: string,
    timeoutMs: number,
    maxFrameBytes: number,
    maxSlotBytes: number,
  ): number {
    const handle = this.fn.open(hef, format === 'float32' ? 1 : 0, batch, queue, groupId, timeoutMs, maxFrameBytes, maxSlotBytes) as number;
    if (handle <= 0) this.fail();
    return handle;
  }

  model(handle: number): ShimModel {
    return this.json<ShimModel>("the model's streams", (b, c) => this.fn.modelJson(handle, b, c) as number);
  }

  /** One frame; `input` may be any size (the shim refuses a wrong one with status 2). */
  infer(handle: number, input: Uint8Array, output: Uint8Array): void {
    this.check(this.fn.infer(handle, input, input.length, output, output.length) as number);
  }

  /** Status of one frame without throwing (for the refusal check). */
  inferStatus(handle: number, input: Uint8Array, output: Uint8Array): { status: number; statusName: string; detail: string } {
    const status = this.fn.infer(handle, input, input.length, output, output.length) as number;
    return { status, statusName: status ? ((this.fn.lastStatusName() as string) ?? '') : '', detail: status ? ((this.fn.lastError() as string) ?? '') : '' };
  }

  /** The shim's own C loop: answers elapsed milliseconds. */
  runPipelined(handle: number, inputs: Uint8Array, frames: number, depth: number): number {
    const elapsed = [0];
    this.check(this.fn.runPipelined(handle, inputs, inputs.length, frames, depth, elapsed) as number);
    return elapsed[0];
  }

  submit(handle: number, slot: number, input: Uint8Array): void {
    this.check(this.fn.submit(handle, slot, input, input.length) as number);
  }

  /** Finished frames as (slot, status) pairs, waiting up to timeoutMs for at least one. */
  waitDone(handle: number, slots: Uint32Array, statuses: Int32Array, timeoutMs: number): number {
    const n = this.fn.waitDone(handle, slots, statuses, Math.min(slots.length, statuses.length), timeoutMs) as number;
    if (n < 0) this.fail();
    return n;
  }

  readOutput(handle: number, slot: number, output: Uint8Array): void {
    this.check(this.fn.readOutput(handle, slot, output, output.length) as number);
  }

  /** An embedded resource's bytes, or null when the HEF has none of that name (status 61). */
  resource(handle: number, name: string): Uint8Array | null {
    return this.blob(`the resource '${name}'`, (buf, cap) => this.fn.resource(handle, name, buf, cap) as number | bigint, 61);
  }

  close(handle: number): void {
    this.check(this.fn.close(handle) as number);
  }

  // ---- GenAI ----

  genaiOpen(hef: string, lora: string, kind: 'llm' | 'vlm', groupId: string): number {
    const handle = this.fn.genaiOpen(hef, lora, kind === 'vlm' ? 2 : 1, groupId) as number;
    if (handle <= 0) this.fail();
    return handle;
  }

  genaiInfo(handle: number): ShimGenAiInfo {
    return this.json<ShimGenAiInfo>("the model's info", (b, c) => this.fn.genaiInfo(handle, b, c) as number);
  }

  /** Starts a generation; `messages` are JSON strings, `frames` one buffer per frame. */
  genaiGenerate(handle: number, p: ShimGeneratorArgs, messages: string[], frames: Uint8Array[]): void {
    const block = messageBlock(messages);
    const all = frames.length ? Buffer.concat(frames) : null;
    this.check(this.fn.genaiGenerate(handle, ...generatorArgs(p), block, block.length, messages.length, all, all?.length ?? 0, frames.length) as number);
  }

  /**
   * The next chunk, waiting up to timeoutMs: { text, status } (0 generating, 1 max tokens, 2 end,
   * 3 aborted), or a ShimError (4: nothing in time; 6: the generation is over).
   */
  genaiRead(handle: number, timeoutMs: number): { text: string; status: number } {
    const r = this.genaiTryRead(handle, timeoutMs);
    if ('error' in r) this.fail();
    return r;
  }

  /** Like genaiRead, but a failed read answers its status instead of throwing (the pump's hot path). */
  genaiTryRead(handle: number, timeoutMs: number): { text: string; status: number } | { error: number } {
    const status = [0];
    for (;;) {
      const n = Number(this.fn.genaiRead(handle, this.textBuffer, this.textBuffer.length, timeoutMs, status));
      if (n < 0) return { error: (this.fn.lastStatus() as number) || 8 };
      if (n < this.textBuffer.length) return { text: this.textBuffer.toString('utf8', 0, n), status: status[0] };
      this.textBuffer = Buffer.alloc(answered('hailortAnswerBytes', 'a generated chunk', n) + 1); // the shim keeps the chunk until it fits
    }
  }

  /** The shim's last failure as a ShimError (`fallbackStatus` when it recorded no status). */
  lastError(fallbackStatus = 8): ShimError {
    return new ShimError((this.fn.lastStatus() as number) || fallbackStatus, (this.fn.lastStatusName() as string) ?? '', (this.fn.lastError() as string) ?? '');
  }

  genaiAbort(handle: number): void {
    this.check(this.fn.genaiAbort(handle) as number);
  }

  genaiContext(handle: number): { usage: number; capacity: number } {
    const usage = [0];
    const capacity = [0];
    this.check(this.fn.genaiContext(handle, usage, capacity) as number);
    return { usage: Number(usage[0]), capacity: Number(capacity[0]) };
  }

  genaiClear(handle: number): void {
    this.check(this.fn.genaiClear(handle) as number);
  }

  genaiSave(handle: number): Uint8Array {
    return this.blob('the saved context', (buf, cap) => this.fn.genaiSave(handle, buf, cap) as number | bigint)!;
  }

  genaiLoad(handle: number, blob: Uint8Array): void {
    this.check(this.fn.genaiLoad(handle, blob, blob.length) as number);
  }

  genaiTokenize(handle: number, text: string): number[] {
    const answer = Number(this.fn.genaiTokenize(handle, text, null, 0));
    if (answer < 0) this.fail();
    const n = answered('hailortTokens', 'the token count', answer);
    const ids = new Int32Array(n);
    if (n > 0 && Number(this.fn.genaiTokenize(handle, text, ids, n)) < 0) this.fail();
    return [...ids];
  }

  /** The bridge's own read loop (bench baseline): first-chunk and total milliseconds, chunks read. */
  genaiTimed(handle: number, p: ShimGeneratorArgs, messages: string[], timeoutMs: number): { firstTokenMs: number; totalMs: number; chunks: number } {
    const block = messageBlock(messages);
    const first = [0];
    const total = [0];
    const chunks = [0];
    this.check(this.fn.genaiTimed(handle, ...generatorArgs(p), block, block.length, messages.length, timeoutMs, first, total, chunks) as number);
    return { firstTokenMs: first[0], totalMs: total[0], chunks: chunks[0] };
  }

  genaiClose(handle: number): void {
    this.check(this.fn.genaiClose(handle) as number);
  }

  /** What HailoRT reports of the devices under an open LLM/VLM (native/hailo_health.cpp). */
  genaiHealth(handle: number): ShimHealth {
    return this.json<ShimHealth>('device health', (b, c) => this.fn.genaiHealth(handle, b, c) as number);
  }

  // ---- Speech2Text ----

  speechOpen(hef: string, groupId: string): number {
    const handle = this.fn.speechOpen(hef, groupId) as number;
    if (handle <= 0) this.fail();
    return handle;
  }

  /** generate_all_segments over 16 kHz mono float32 samples; `repetitionPenalty` ≤ 0 keeps the model's default. */
  speechGenerate(
    handle: number,
    audio: Float32Array,
    task: 'transcribe' | 'translate',
    language: string,
    repetitionPenalty: number,
    timeoutMs: number,
  ): ShimSegment[] {
    this.check(this.fn.speechGenerate(handle, audio, audio.length, task === 'translate' ? 1 : 0, language, repetitionPenalty, timeoutMs) as number);
    return this.json<{ segments: ShimSegment[] }>('the transcript', (b, c) => this.fn.speechResult(handle, b, c) as number).segments;
  }

  speechClose(handle: number): void {
    this.check(this.fn.speechClose(handle) as number);
  }
}

/** hts_genai_health_json's answer: a null section is a call that failed, its status in `errors`. */
export interface ShimHealth {
  devices: {
    id: string;
    temperature: { ts0: number; ts1: number } | null;
    health: { onDie: number; voltageMv: number; bistFailureMask: number } | null;
    performance: { cpu: number; ramTotalKib: number; ramUsedKib: number; nnc: number; dsp: number } | null;
    errors: Record<string, number>;
  }[];
}

/** One Speech2Text::SegmentInfo. */
export interface ShimSegment {
  start: number;
  end: number;
  text: string;
}

/** hts_genai_info_json's answer. */
export interface ShimGenAiInfo {
  kind: 'llm' | 'vlm';
  defaults: { temperature: number; topP: number; topK: number; frequencyPenalty: number; maxTokens: number; doSample: boolean; seed: number };
  template: string | null;
  contextUsage: number | null;
  contextCapacity: number | null;
  contextCalls: boolean;
  frame: { size: number; shape: [number, number, number]; type: number; order: number } | null;
}

/** The generator arguments of hts_genai_generate: `mask` says which override the model's defaults. */
export interface ShimGeneratorArgs {
  mask: number;
  temperature: number;
  topP: number;
  topK: number;
  frequencyPenalty: number;
  maxTokens: number;
  doSample: boolean;
  seed: number;
}

/** The generator arguments in the order hts_genai_generate and hts_genai_generate_timed take them. */
function generatorArgs(p: ShimGeneratorArgs): [number, number, number, number, number, number, number, number] {
  return [p.mask, p.temperature, p.topP, p.topK, p.frequencyPenalty, p.maxTokens, p.doSample ? 1 : 0, p.seed];
}

/** The messages as one block of NUL-terminated UTF-8 strings (what the shim splits). */
function messageBlock(messages: string[]): Buffer {
  return Buffer.concat(messages.flatMap((m) => [Buffer.from(m, 'utf8'), Buffer.alloc(1)]));
}

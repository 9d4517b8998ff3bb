// The device protocol: every type that crosses between the device worker (which loads the native
// HailoRT shim with koffi) and its hosts (the CLI, the VS Code extension). JSON-safe only: these
// travel over node's IPC channel. Pure: no imports, no I/O — the webview and the tests read them too.

/** Host-side I/O format of the model's streams (HailoRT `hailo_format_type_t`). */
export type IoFormat = 'uint8' | 'float32';

/** What the host knows about HailoRT and the shim, before any device is touched. */
export interface RuntimeInfo {
  /** `X.Y.Z` from `hailo_get_library_version`. */
  hailortVersion: string;
  /** The shim library the worker loaded. */
  shimPath: string;
  /** The libhailort the shim was linked against (as the build found it). */
  libraryPath: string;
  /** True when the library is the fake under test/ (its version string says so). */
  fake: boolean;
}

/** One physical device, as `Device::scan` + `Device::identify` describe it. */
export interface DeviceInfo {
  /** The id `scan()` returned (PCIe BDF such as `0000:3c:00.0`, or a USB/IP id). */
  id: string;
  /** `HAILO10H`, `HAILO15H`, … (hailo_device_architecture_t by name). */
  architecture: string;
  /** hailo_device_architecture_t value (HAILO10H = 6). */
  architectureId: number;
  /** `5.2.0 (release,app)`, as hailortcli prints it. */
  firmware: string;
  serial: string;
  boardName: string;
  partNumber: string;
  productName: string;
  /** Set when identify() failed (the device was listed by scan but could not be asked). */
  identifyError?: DeviceError;
}

export interface ScanResult {
  runtime: RuntimeInfo;
  devices: DeviceInfo[];
  /** The Hailo PCIe kernel driver (hailo1x_pci / hailo_pci) on Linux; `unknown` elsewhere. */
  driver: 'loaded' | 'missing' | 'unknown';
  /** The loaded module's name and version (/sys/module/<name>/version), when known. */
  driverModule?: string;
  driverVersion?: string;
}

/** Options for opening a HEF on a device. */
export interface OpenOptions {
  format: IoFormat;
  /** `set_batch_size`; 0 = HailoRT's automatic choice. */
  batch: number;
  /** Frames in flight when pipelining; 0 = the model's async queue size. Capped at it. */
  queue: number;
  /**
   * VDevice group id. `UNIQUE` (HailoRT's default) takes the device exclusively; any other value
   * (e.g. `SHARED`) shares it with other processes that pass the same id (on HailoRT 4.x through hailort.service).
   */
  groupId: string;
  /** Per-call timeout handed to HailoRT (wait_for_async_ready, run, wait). */
  timeoutMs: number;
}

export const DEFAULT_OPEN_OPTIONS: OpenOptions = { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 5000 };

export interface QuantParams {
  zp: number;
  scale: number;
  limMin: number;
  limMax: number;
}

/** One input or output of the configured model, as InferModel::InferStream reports it. */
export interface StreamInfo {
  name: string;
  direction: 'input' | 'output';
  /** [height, width, features] (hailo_3d_image_shape_t). */
  shape: [number, number, number];
  /** Host format order, e.g. `NHWC`, `NC`, `HAILO_NMS_BY_CLASS`. */
  order: string;
  /** Host format type after the requested format: `UINT8`, `UINT16`, `FLOAT32`. */
  type: string;
  /** Bytes of one frame. */
  frameSize: number;
  /** One entry, or one per feature. */
  quant: QuantParams[];
  isNms: boolean;
}

/** What `open` answers: the configured model. */
export interface ModelInfo {
  hef: string;
  device: DeviceInfo;
  format: IoFormat;
  batch: number;
  /** `ConfiguredInferModel::get_async_queue_size()`. */
  asyncQueueSize: number;
  inputs: StreamInfo[];
  outputs: StreamInfo[];
  /** Names of the HEF's embedded external resources (`get_external_resource_names`). */
  resources: string[];
}

/** How run inputs are made. `seed` makes random/normal inputs reproducible. */
export type InputSpec = { kind: 'random'; seed?: number } | { kind: 'normal'; seed?: number } | { kind: 'npy'; path: string } | { kind: 'image'; path: string };

export interface RunOptions extends OpenOptions {
  /** Absolute path of the HEF. */
  hef: string;
  input: InputSpec;
  /** Frames for the latency/FPS measurement. */
  frames: number;
  /** Queue depths to measure FPS at (default: 1, 2, 4, … up to the async queue size). */
  queueDepths?: number[];
  /** Return the first frame's input and output bytes (base64) — for a float reference run. */
  keepTensors?: boolean;
}

export interface OutputStats {
  name: string;
  shape: [number, number, number];
  type: string;
  /** Values per frame. */
  count: number;
  /** Statistics of the values as HailoRT returned them (uint8, uint16 or float32), not de-quantised. */
  mean: number;
  std: number;
  min: number;
  max: number;
  /** Flat index of the first maximum. */
  argmax: number;
  /** First 16 hex digits of the SHA-256 of the output bytes (as the published rung3 probe prints). */
  sha256: string;
  /** A 32-bin histogram of the values between min and max (for charts). */
  histogram: { min: number; max: number; counts: number[] };
}

export type CheckId = 'different-inputs' | 'same-input-twice' | 'undersized-refused';

export interface CheckResult {
  id: CheckId;
  name: string;
  pass: boolean;
  detail: string;
}

export interface LatencyStats {
  /** One synchronous frame at a time (queue depth 1), milliseconds. */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
  /** A 32-bin histogram of the single-frame latencies in ms (the results page's latency chart). */
  histogram?: { min: number; max: number; counts: number[] };
}

export interface FpsPoint {
  queueDepth: number;
  frames: number;
  fps: number;
  msPerFrame: number;
}

/** Where the inputs came from, in words and numbers (shown beside the results). */
export interface InputDescription {
  kind: InputSpec['kind'];
  /** e.g. `uniform uint8 0..255, seeds 1171 and 2026`, `cat.png resized 640x480 → 224x224`. */
  text: string;
  source?: string;
  seeds?: number[];
}

export interface RunTensors {
  /** base64 of the bytes of each input / output of the first frame, by stream name. */
  inputs: Record<string, string>;
  outputs: Record<string, string>;
}

export interface RunReport {
  hef: string;
  runtime: RuntimeInfo;
  model: ModelInfo;
  input: InputDescription;
  /** Statistics of the first frame's outputs. */
  outputs: OutputStats[];
  checks: CheckResult[];
  latency: LatencyStats;
  /** Pipelined throughput at the requested queue depth over `frames` frames. */
  fps: FpsPoint;
  /** Throughput by queue depth (1, 2, 4, …). */
  fpsByQueue: FpsPoint[];
  tensors?: RunTensors;
  /** What HailoRT accepts but warns about (e.g. a Hailo-8L HEF on a Hailo-8 runs at lower performance). */
  notes?: string[];
  /** ISO time the run finished. */
  finishedAt: string;
}

/** Every failure the user can meet, each with one sentence (DeviceError.sentence). */
export type DeviceErrorKind =
  | 'hailort-missing'
  | 'build-failed'
  | 'driver-missing'
  | 'no-device'
  | 'busy'
  | 'arch-mismatch'
  | 'hef-not-compatible'
  | 'hef-corrupted'
  | 'hef-not-supported'
  | 'hef-unreadable'
  | 'wrong-input-size'
  | 'bad-input'
  | 'timeout'
  | 'worker-crashed'
  | 'untrusted'
  | 'hailort-error'
  // the pieces of a setup that disagree (issue 19): driver vs library, device family vs library,
  // firmware vs library, hailort.service (4.x sharing), a HEF path that is not there
  | 'driver-mismatch'
  | 'runtime-mismatch'
  | 'firmware-mismatch'
  | 'service-missing'
  | 'service-mismatch'
  | 'hef-missing'
  // chatting with an LLM/VLM (issue 13)
  | 'not-genai'
  | 'genai-busy'
  | 'lora-missing'
  | 'wrong-frames'
  | 'bad-params'
  | 'hailort-too-old'
  // what this machine lacks to run native code at all (issue 37): koffi's binary for its platform
  // in this package, a C++ compiler for the bridge
  | 'native-missing'
  | 'compiler-missing'
  // speech-to-text (issue 33)
  | 'not-speech'
  | 'bad-audio';

export interface DeviceError {
  kind: DeviceErrorKind;
  /** hailo_status value, or null when the failure is not HailoRT's (missing library, crash …). */
  status: number | null;
  /** hailo_status name (`HAILO_OUT_OF_PHYSICAL_DEVICES`) or our own label. */
  name: string;
  /** The technical detail (HailoRT call that failed, stderr line, signal …). */
  message: string;
  /** One sentence for the user: what happened and what to do. */
  sentence: string;
  /** Set when the pre-run gate (runGate.ts) refused: the rule that decided. */
  gate?: GateRule;
}

/** The pre-run gate's rules (runGate.ts), in the order it asks them. */
export type GateRule =
  | 'hailort-crashes'
  | 'hailort-refuses'
  | 'hef-unreadable'
  | 'frame-too-large'
  | 'config-damaged'
  | 'driver-missing'
  | 'no-device'
  | 'device-unidentified'
  | 'runtime-refuses-device'
  | 'arch-mismatch';

// ---- the IPC wire: host → worker requests, worker → host responses ----

// ---- GenAI chat (hailort::genai LLM / VLM) ----

/** Generator parameters (LLMGeneratorParams); unset = the model's default (from its hailo-config.json). */
export interface GeneratorParams {
  /** > 0. */
  temperature?: number;
  /** In [0, 1]. */
  topP?: number;
  /** Integer ≥ 1. */
  topK?: number;
  /** ≠ 0 (hailo-config.json calls it repetition_penalty). */
  frequencyPenalty?: number;
  /** Integer ≥ 1: tokens generated, special tokens included. */
  maxTokens?: number;
  /** true: statistical sampling; false: greedy. */
  doSample?: boolean;
  /** 0 … 4294967294; 4294967295 (HAILO_RANDOM_SEED) or unset: a random seed. */
  seed?: number;
}

/** A VLM's frame, as VLM::input_frame_* report it. */
export interface FrameFormat {
  size: number;
  /** [height, width, features]. */
  shape: [number, number, number];
  /** `UINT8`, `UINT16`, `FLOAT32`. */
  type: string;
  /** `NHWC`, `NCHW`, … */
  order: string;
}

export interface ChatOpenOptions {
  hef: string;
  /** `llm` or `vlm`; default: what the HEF's network groups say (a `…encoder` group = VLM). */
  kind?: 'llm' | 'vlm';
  /** A LoRA adapter in the HEF (`<lora>__prefill` group); empty = the base model. */
  lora?: string;
  /** VDevice group id, as for runs. */
  groupId: string;
}

export interface ChatContext {
  /** Tokens in the conversation context (get_context_usage_size). */
  usage: number;
  /** max_context_capacity (the model's KV cache size). */
  capacity: number;
}

export interface ChatModelInfo {
  session: number;
  hef: string;
  kind: 'llm' | 'vlm';
  lora: string;
  runtime: RuntimeInfo;
  /** The model's generator defaults (create_generator_params). */
  defaults: Required<GeneratorParams>;
  /** The prompt template HailoRT renders messages with, when the model has one. */
  template: string | null;
  /** null when the HailoRT is older than 5.1.1 (no context calls). */
  context: ChatContext | null;
  frame: FrameFormat | null;
}

export interface ChatGenerateRequest {
  session: number;
  /** JSON messages for this turn only ({"role": …, "content": …}); the context keeps the earlier ones. */
  messages: string[];
  /** A VLM's frames, base64, one per image entry, each FrameFormat.size bytes. */
  frames?: string[];
  params?: GeneratorParams;
}

export type ChatEndReason = 'end' | 'max-tokens' | 'aborted' | 'error';

export interface ChatStats {
  /** Tokens read (HailoRT returns one per read; the end-of-sequence one is empty). */
  tokens: number;
  /** generate → first non-empty chunk, in the worker. */
  firstTokenMs: number | null;
  /** First → last chunk: (tokens - 1) / seconds, in the worker. */
  tokensPerSecond: number | null;
  totalMs: number;
}

/** Streamed by the worker while a generation runs (not a response to a request). */
export type ChatEvent =
  | { session: number; generation: number; type: 'chunk'; text: string }
  | { session: number; generation: number; type: 'end'; reason: ChatEndReason; stats: ChatStats; context: ChatContext | null; error?: DeviceError };

/** One physical device's state while a model runs; null where HailoRT did not report it. */
export interface DeviceState {
  id: string;
  /** The hotter of the two on-die sensors (get_chip_temperature), °C. */
  temperatureC: number | null;
  ramUsedKib: number | null;
  ramTotalKib: number | null;
  /** Neural-core utilisation, % (query_performance_stats). */
  nncUtilization: number | null;
  cpuUtilization: number | null;
  /** Calls HailoRT refused, as "query_performance_stats: HAILO_INVALID_DEVICE_ARCHITECTURE (75)". */
  unavailable: string[];
}

// ---- Speech2Text (hailort::genai::Speech2Text) ----

export type SpeechTask = 'transcribe' | 'translate';

export interface TranscribeRequest {
  hef: string;
  /** A WAV file; the worker decodes it to what Speech2Text takes (16 kHz mono float32). */
  audio: string;
  task?: SpeechTask;
  /** ISO-639-1 code ("en", "fr"); unset: the model detects the language. */
  language?: string;
  /** VDevice group id, as for runs. */
  groupId: string;
  /** Passed to generate_all_segments (HailoRT 5.2 does not use it; 5.3 raised its default to 10 min). */
  timeoutMs?: number;
}

/** One Speech2Text::SegmentInfo: seconds from the start of the recording. */
export interface SpeechSegment {
  start: number;
  end: number;
  text: string;
}

export interface TranscribeResult {
  hef: string;
  audio: string;
  runtime: RuntimeInfo;
  task: SpeechTask;
  language: string | null;
  /** What the recording was before it was converted (encoding, rate, channels, seconds). */
  source: { encoding: string; sampleRate: number; channels: number; seconds: number };
  segments: SpeechSegment[];
  /** The segments' texts joined, as generate_all_text answers. */
  text: string;
  /** Time the model took (open excluded): the real-time factor is ms / 1000 / source.seconds. */
  ms: number;
  openMs: number;
}

export interface WorkerChatEvent {
  chat: ChatEvent;
}

export interface WorkerMethods {
  hello: { params: Record<string, never>; result: RuntimeInfo };
  scan: { params: Record<string, never>; result: ScanResult };
  run: { params: RunOptions; result: RunReport };
  /** Open a HEF and keep it open (handle); for callers that run frames themselves. */
  open: { params: OpenOptions & { hef: string }; result: ModelInfo & { handle: number } };
  /** One frame; inputs by stream name (base64); answers outputs by name (base64). */
  infer: { params: { handle: number; inputs: Record<string, string> }; result: { outputs: Record<string, string>; ms: number } };
  resource: { params: { handle: number; name: string }; result: { base64: string } | null };
  close: { params: { handle: number }; result: null };
  chatOpen: { params: ChatOpenOptions; result: ChatModelInfo };
  /** Starts a generation; its chunks and end arrive as ChatEvents. */
  chatGenerate: { params: ChatGenerateRequest; result: { generation: number } };
  chatAbort: { params: { session: number }; result: null };
  chatContext: { params: { session: number }; result: ChatContext | null };
  chatClear: { params: { session: number }; result: ChatContext | null };
  /** save_context: the blob, base64. */
  chatSave: { params: { session: number }; result: { base64: string } };
  chatLoad: { params: { session: number; base64: string }; result: ChatContext | null };
  chatTokenize: { params: { session: number; text: string }; result: { ids: number[] } };
  chatClose: { params: { session: number }; result: null };
  /** The bridge's own read loop (bench baseline): generate and read to the end in C++. */
  chatTimed: { params: ChatGenerateRequest & { timeoutMs: number }; result: { firstTokenMs: number; totalMs: number; chunks: number } };
  /** The state of the devices under an open LLM/VLM (temperature, memory, utilisation). */
  chatHealth: { params: { session: number }; result: { devices: DeviceState[] } };
  /** Open a speech model, transcribe one recording, close it. */
  transcribe: { params: TranscribeRequest; result: TranscribeResult };
}

export type WorkerMethod = keyof WorkerMethods;

export interface WorkerRequest<M extends WorkerMethod = WorkerMethod> {
  id: number;
  method: M;
  params: WorkerMethods[M]['params'];
}

export type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: DeviceError };

/** Unsolicited progress from the worker (a run's phase), for progress bars. */
export interface WorkerProgress {
  progress: { id: number; phase: string; done?: number; total?: number };
}

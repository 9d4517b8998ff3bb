// Every bound the readers and the language server put on what a file can make them do, as data:
// the value, why it is that value (measured against real files), and what a user sees when a file
// crosses it. Readers, the LSP routing and the CLI take their numbers from here; SECURITY.md lists
// the same table (a test keeps the two equal). A limit never crashes or hangs anything: it turns
// into one diagnostic/finding with the sentence built by `limitMessage`, and the rest of the file is
// handled as the `onHit` column says.

export type LimitUnit = 'bytes' | 'characters' | 'tokens' | 'lines' | 'levels' | 'items' | 'errors' | 'entries' | 'ms' | 'times' | 'pixels';

export interface Limit {
  readonly value: number;
  readonly unit: LimitUnit;
  /** Who applies it. */
  readonly where: string;
  /** Why this value: what real files need, what the bound protects. */
  readonly reason: string;
  /** What happens when a file crosses it. */
  readonly onHit: string;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export const LIMITS = {
  // ---- reading files ---------------------------------------------------------------------------
  readChunkBytes: {
    value: 64 * MiB,
    unit: 'bytes',
    where: 'every file read (HEF, ONNX, HAR, .alls)',
    reason: 'Node aborts the whole process on a single read longer than 2 GiB − 1 bytes; every read is split into pieces of at most this size.',
    onHit: 'nothing visible: the read goes on in pieces',
  },
  // ---- .alls -----------------------------------------------------------------------------------
  documentChars: {
    value: 16 * MiB,
    unit: 'characters',
    where: 'every document of the language server (.alls, ONNX graph views); .alls files in the CLI',
    reason: "16× the largest real script (Hailo's 1 MB vit_base_bn.alls allocator dump); an ONNX graph view of 10⁵ nodes is about 10 MB.",
    onHit: 'the file is not analysed (one diagnostic on line 1)',
  },
  allsTokens: {
    value: 2_000_000,
    unit: 'tokens',
    where: '.alls (language server and CLI)',
    reason: '16× the most tokens of a real script (125,578 in vit_base_bn.alls); bounds the syntax tree and its memory.',
    onHit: 'the file is not analysed (one diagnostic on line 1)',
  },
  allsLines: {
    value: 100_000,
    unit: 'lines',
    where: '.alls (language server and CLI)',
    reason: '22× the longest real script (4,456 lines); a statement per line is the costliest shape of a script, so this bounds statements.',
    onHit: 'the file is not analysed (one diagnostic on line 1)',
  },
  allsNesting: {
    value: 32,
    unit: 'levels',
    where: '.alls parser',
    reason: 'Real scripts nest brackets at most 2 deep (a list inside a call); every later walk of the tree recurses once per level.',
    onHit: 'this bracket is skipped up to its closer; the rest of the file is still checked',
  },
  allsArguments: {
    value: 10_000,
    unit: 'items',
    where: '.alls parser (arguments of a call, items of a list or dictionary)',
    reason: 'Real scripts have at most 39 arguments in a call and 76 items in a list.',
    onHit: 'the rest of this bracket is skipped; the rest of the file is still checked',
  },
  allsErrorsPerStatement: {
    value: 10,
    unit: 'errors',
    where: '.alls parser',
    reason: 'A line of 10⁶ commas would otherwise hold 10⁶ error objects; past a few errors a statement is simply broken.',
    onHit: 'the first ones are listed, then one line says how many more there are',
  },
  allsNameSearches: {
    value: 256,
    unit: 'times',
    where: '.alls checks against a model (language server and CLI): "did you mean" searches for unknown names and globs checked against every layer',
    reason:
      'Each search walks every layer of the model (a HAR has up to 10⁴–10⁵): one per reference made a script of 10⁵ unknown names against a large HN quadratic. Real scripts have a handful of unknown names or globs; repeated ones are answered once.',
    onHit: 'later unknown names get no suggestion and later globs are not checked for matching nothing; every other check goes on',
  },
  // ---- HEF -------------------------------------------------------------------------------------
  hefProtoBytes: {
    value: 256 * MiB,
    unit: 'bytes',
    where: 'HEF reader (language server, inspector, CLI)',
    reason:
      'The protobuf body is decoded in memory. Real bodies are at most a few MB (3.3 MB in the corpus; V3 HEFs keep the weights in the CCW section), and protobuf cannot parse a message of 2 GiB.',
    onHit: 'the body is not decoded (error hef/limit); the header, the section layout and the checksums are still checked',
  },
  hefArchPrefixBytes: {
    value: 64 * KiB,
    unit: 'bytes',
    where: 'the architecture of a .alls script (the HEF beside it; language server and CLI)',
    reason:
      "Only the header's hw_arch is wanted: ProtoHEFHef.header is field 1, written first, about 100 bytes; an LLM HEF's body can be hundreds of MB, and this runs for every script edit (cached per file version).",
    onHit: 'a header not found in this prefix: the HEF says nothing, the next evidence (HAR, folder, setting) decides and the hover says why',
  },
  hefNetworkGroups: {
    value: 256,
    unit: 'items',
    where: 'HEF reader (network groups of a HEF)',
    reason:
      'HailoRT loads at most 8 network groups (HAILO_MAX_NETWORK_GROUPS in hailort.h); a crafted body can list millions, and every one is listed in the text output and the inspector.',
    onHit: 'the first ones are read; one error says how many were left out',
  },
  hefStreamsPerGroup: {
    value: 1024,
    unit: 'items',
    where: 'HEF reader (networks, boundary layers and post-process ops of one network group)',
    reason:
      'HailoRT refuses to configure more than 40 streams in a network group (HAILO_MAX_STREAMS_COUNT, "Too many streams in HEF") and has at most 8 networks in one (HAILO_MAX_NETWORKS_IN_NETWORK_GROUP); 200,000 vstreams overflowed the stack of the text output, and matching ops to streams is quadratic.',
    onHit: 'the first ones are read; one error says how many were left out',
  },
  // ---- ONNX ------------------------------------------------------------------------------------
  onnxGraphEntries: {
    value: 1_000_000,
    unit: 'entries',
    where: 'ONNX reader',
    reason:
      'Nodes, initializers, value infos and attributes of all graphs; a 7B-parameter LLM export has about 10⁵. An empty NodeProto is 2 bytes, so a 100 MB file could otherwise make 5·10⁷ objects.',
    onHit: 'the model is not indexed (one finding, onnx/limit)',
  },
  onnxSubgraphDepth: {
    value: 32,
    unit: 'levels',
    where: 'ONNX reader and analysis',
    reason: 'Real models nest If/Loop/Scan bodies a few levels deep; the reader recurses once per level.',
    onHit: 'the model is not indexed (one finding, onnx/limit)',
  },
  onnxRank: {
    value: 1024,
    unit: 'items',
    where: 'ONNX shape inference',
    reason:
      'Real tensors have rank ≤ 8; shapes computed from constants hold at most 1,024 values. A crafted attribute used as an axis made a shape of 10⁹ dims (44 s, then "Invalid string length").',
    onHit: "the tensor's shape is treated as unknown",
  },
  onnxViewShapeDims: {
    value: 64,
    unit: 'items',
    where: 'ONNX graph view, hovers and CLI text (shapes as text)',
    reason: 'A declared shape of 10⁶ dims repeated on every line that uses the tensor would make a view of terabytes.',
    onHit: 'the shape shows its first dims and its rank, e.g. [1,3,…] (rank 1000000)',
  },
  // ---- HAR -------------------------------------------------------------------------------------
  harJsonBytes: {
    value: 64 * MiB,
    unit: 'bytes',
    where: '.har reader (HN, metadata and original-model JSON members, summed over the archive)',
    reason: "The JSON members are kept in memory to be parsed; a real HN is tens of kB (35 kB for whisper-hailo8l) and a large model's a few MB.",
    onHit: 'the HAR is not read (one log line; the script gets no layers until the file changes)',
  },
  harInflatedBytes: {
    value: 256 * MiB,
    unit: 'bytes',
    where: '.har reader, gzip-compressed archives (total over the archive, not per member)',
    reason:
      "Real HARs are plain tar (the DFC writes them with Python's tarfile, uncompressed); gzip is only tolerated, for hand-compressed copies. A 1 MB gzip bomb inflates to gigabytes: seconds of CPU on every read.",
    onHit: 'the HAR is not read (one log line; the script gets no layers until the file changes)',
  },
  harParamEntries: {
    value: 200_000,
    unit: 'entries',
    where: 'HAR view (`hailo-tools har`): arrays listed from the .npz members of a .har',
    reason:
      'A quantized HAR holds a few dozen arrays per layer (kernel, bias, bits, scales, statistics); 10⁴ layers × 20 arrays stays below this. A hostile zip can list millions.',
    onHit: 'the arrays after the limit are not listed (one note; the layers still show)',
  },
  harParamValueBytes: {
    value: 16 * MiB,
    unit: 'bytes',
    where: 'HAR view (`hailo-tools har`): values of small arrays (at most 64 elements each) kept from the .npz members',
    reason:
      'Small arrays are scales, zero points, bit widths, ranges and SNR figures: a few hundred bytes per layer. Larger arrays (kernels) are only described (dtype, shape).',
    onHit: 'later small arrays are described without their values',
  },
  noiseJsonBytes: {
    value: 64 * MiB,
    unit: 'bytes',
    where: "noise-analysis results (`<net>.noise.json` beside a HAR, the driver's manifest)",
    reason: 'One figure per layer and output: a few hundred bytes per layer, tens of kB for a large model.',
    onHit: 'the results are not read (one sentence; the HAR view shows no SNR column)',
  },
  // ---- NMS configs and labels ------------------------------------------------------------------
  labelIndex: {
    value: 65_536,
    unit: 'items',
    where: 'labels files (a class index of a JSON object keyed by index, or the length of a list of names; language server and CLI)',
    reason:
      "The largest public label sets have 21,843 classes (ImageNet-21k) and the zoo's labels at most 1,203 (LVIS); hailo-apps keys labels by an 8-bit id. A 23-byte file naming index 150,000,000 made the language server allocate 1.6 GB and stop answering.",
    onHit: 'the labels file is not used, the other checks go on without it',
  },
  nmsSideFileBytes: {
    value: 4 * MiB,
    unit: 'bytes',
    where: 'NMS config JSON and labels files read beside a script or HEF (language server and CLI)',
    reason: "The model zoo's largest NMS config is 4 kB (SSD anchors) and a labels file of 10⁴ classes is about 200 kB; both are read whole and parsed.",
    onHit: 'the file is not read (one finding saying so; the other checks go on without it)',
  },
  // ---- JSON files ------------------------------------------------------------------------------
  jsonNesting: {
    value: 64,
    unit: 'levels',
    where:
      'every JSON file read from a folder (HN and metadata of a HAR, noise and divergence results, NMS configs, labels, sweep plans and results, manifests)',
    reason:
      'Real files nest at most 8 levels (an HN: layers → layer → params → a list of lists); every walk of the parsed value (printing, comparing, copying) recurses once per level, and JSON nested 10⁶ deep overflowed the stack with a stack trace.',
    onHit: 'the file is not read (one sentence naming it); the rest goes on without it',
  },
  // ---- images and arrays -----------------------------------------------------------------------
  imagePixels: {
    value: 64_000_000,
    unit: 'pixels',
    where:
      'PNG and JPEG inputs (hailo-tools run --input, Run on Device, chat --image, Chat with Model), and the VLM frame (from the HEF, through HailoRT) an image is resized to',
    reason:
      'An image is decoded whole to RGBA (4 bytes a pixel) before it is resized to the model input: a 1 MB PNG declaring 16384×16384 took 3.1 GB. 64 MP holds an 8K frame (33 MP) and the photos of most cameras; model inputs are below 1 MP.',
    onHit: 'the image is not decoded (one sentence); nothing runs on the device',
  },
  deviceFrameBytes: {
    value: 128 * MiB,
    unit: 'bytes',
    where:
      'device runs (Run on Device, hailo-tools run, sweeps, accuracy): the input frame and the output frame (all streams of each) of a HEF in the host format it is opened with (float32: 4 bytes an element), as our HEF reader computes them before the pre-run gate lets HailoRT open it, as the shim sees them inside hts_open before it allocates any, and as HailoRT reports them after',
    reason:
      "The frame sizes come from the HEF (its shapes, an NMS output's classes × boxes per class), so a crafted one names gigabytes; the worker holds five output frames at once (the checks compare three), and the shim (slots + 1) copies of each frame. 128 MiB holds a 3840×2160 RGB frame as float32 (99.5 MB).",
    onHit: 'the HEF is not opened, or is closed before any frame is made (one sentence); nothing runs',
  },
  deviceSlotBytes: {
    value: 1 * GiB,
    unit: 'bytes',
    where:
      "device runs: the page-aligned buffers the shim keeps for a model's asynchronous queue inside hts_open, (slots + 1) × (input frame + output frame), slots being HailoRT's async queue size",
    reason:
      "The queue size is HailoRT's answer (get_async_queue_size: its m_max_ongoing_transfers, docs/research/hailort5-api.md) and each slot holds a whole input and output frame, zero-filled: a large queue of large frames multiplies deviceFrameBytes. 1 GiB keeps a queue of 8 (the fake HailoRT's default) for frames up to 119 MB together, and hundreds of slots for a classifier's.",
    onHit: 'fewer slots are kept (one at least): the run goes on, and throughput is measured up to that queue depth',
  },
  hailortBlobBytes: {
    value: 256 * MiB,
    unit: 'bytes',
    where:
      "the device worker: bytes HailoRT hands over whole (a HEF's external resource, a saved LLM/VLM context), sized by HailoRT's own answer before they are copied",
    reason:
      "The size comes from the HEF or the model through HailoRT; the copy then travels to the extension as base64 in one message (4/3 of its size), and V8's longest string is 2²⁹ − 24 characters (512 MiB): 256 MiB is 341 MiB of text.",
    onHit: 'nothing is copied (one sentence); the model stays open',
  },
  hailortAnswerBytes: {
    value: 16 * MiB,
    unit: 'bytes',
    where:
      "the device worker: one text answer copied from the shim (the scan, a model's streams, an LLM's info, device health, a transcript; a chunk of generated text)",
    reason:
      'The answers are JSON of at most 40 streams (HAILO_MAX_STREAMS_COUNT) with their quantisation, a few devices, or a transcript (70 minutes of speech is about 100 kB); a generated chunk is a token or a few. The length is what the shim answers from HailoRT, and the buffer is grown to it.',
    onHit: 'the request fails with one sentence; nothing is allocated for it',
  },
  hailortTokens: {
    value: 16 * 1024 * 1024,
    unit: 'items',
    where: "the device worker: the token ids HailoRT's tokenizer answers for a text",
    reason:
      "The count is HailoRT's answer and sizes an array of 32-bit ids (64 MiB at the limit). A text the product sends is at most a document at documentChars (16 M characters), and a tokenizer makes about one token for every 3–4 characters of prose, so only a wrong answer reaches it.",
    onHit: 'the request fails with one sentence; nothing is allocated for it',
  },
  // ---- the setup doctor (server/src/core/doctor) -----------------------------------------------------
  elfTableBytes: {
    value: 64 * KiB,
    unit: 'bytes',
    where: 'setup doctor: the program-header table and the dynamic section of an ELF file (GStreamer plugin, _pyhailort, hailortcli)',
    reason:
      'The real libhailort.so.5.2.0 has 30 dynamic entries in a 544-byte dynamic section and 10 program headers (560 bytes); both tables are read whole, so a crafted file must not name a larger one.',
    onHit: 'the file is listed as unreadable (one sentence in its row); the other checks go on',
  },
  elfStringBytes: {
    value: 4 * KiB,
    unit: 'bytes',
    where: 'setup doctor: one string of an ELF dynamic section (a library name, a RUNPATH)',
    reason: 'A library name or search path is a file path: at most PATH_MAX (4,096 bytes) on Linux.',
    onHit: 'the file is listed as unreadable (one sentence in its row); the other checks go on',
  },
  doctorPackages: {
    value: 256,
    unit: 'items',
    where: "setup doctor: Hailo's Debian packages listed from dpkg's status file",
    reason:
      "A system has about ten of Hailo's packages (hailort, hailo-all, hailo-dkms, hailofw, python3-hailort, hailo-tappas-core…); 400,000 fake ones overflowed the stack of the report.",
    onHit: 'the first ones are listed and checked; one row says how many were left out',
  },
  // ---- language server -------------------------------------------------------------------------
  lspHeaderBytes: {
    value: 8 * KiB,
    unit: 'bytes',
    where: 'language server over stdio (hailo-tools lsp --stdio): the header of one LSP frame',
    reason:
      'A header is `Content-Length: N` and perhaps a Content-Type: under 100 bytes. An unterminated header of 32 MiB cost 17.8 s of CPU in the library reader, which searched it again on every chunk.',
    onHit: 'the connection ends with one log line on stderr (a frame that cannot be delimited cannot be skipped)',
  },
  lspMessageBytes: {
    value: 64 * MiB,
    unit: 'bytes',
    where: 'language server over stdio: the body of one LSP message (Content-Length)',
    reason:
      'The largest message is a document at the documentChars limit: 16 M characters, up to 48 MB of UTF-8 when every character takes 3 bytes. A Content-Length of terabytes was buffered without a cap.',
    onHit: 'the connection ends with one log line on stderr, before any of the body is buffered',
  },
  lspFeatureBudgetMs: {
    value: 1500,
    unit: 'ms',
    where: 'language server: semantic tokens, folding ranges and document symbols',
    reason:
      'These run on every edit and scroll; on a 1 MB script they take a few ms. A request that runs longer stops so that the diagnostics of other documents are not held up.',
    onHit: 'the answer covers the start of the document (one log line)',
  },
  // ---- sweeps (server/src/core/sweep) ---------------------------------------------------------------
  sweepPlanBytes: {
    value: 1 * MiB,
    unit: 'bytes',
    where: 'sweep plans (*.sweep.json)',
    reason: 'A plan names files and a few axes; a thousand variants spelled out take a few KB. The bound keeps a hostile plan from being parsed whole.',
    onHit: 'the plan is not read (one sentence)',
  },
  sweepVariants: {
    value: 1000,
    unit: 'items',
    where: 'sweep plans: the product of every axis',
    reason:
      'A compile takes minutes to an hour (59 min per context reported); the largest public campaign is 84 models on two DFC versions. A product of axes beyond a thousand is almost certainly a mistake in the plan.',
    onHit: 'the plan is refused before anything runs (one sentence with the count)',
  },
  sweepContextWidth: {
    value: 16,
    unit: 'items',
    where: 'sweep plans: compiles at once on one docker context',
    reason: 'One DFC optimize takes most of a host (a large backbone peaked at 39.87 GiB); 16 at once is beyond any host users reported.',
    onHit: 'the plan is refused (one sentence)',
  },
  // ---- audio (speech-to-text) ----------------------------------------------------------------
  audioFileBytes: {
    value: 128 * MiB,
    unit: 'bytes',
    where: 'audio files read for Speech2Text (transcribe, Hailo: Transcribe Audio)',
    reason:
      'The whole recording is decoded in memory (about 8 bytes a sample while resampling): 128 MiB is 70 minutes of 16 kHz mono 16-bit or 12 minutes of CD stereo, far beyond the 10-second chunks Whisper works in.',
    onHit: 'the file is not read (one sentence); split or down-sample the recording first',
  },
  audioSamples: {
    value: 64 * 1024 * 1024,
    unit: 'items',
    where: 'audio files read for Speech2Text: the samples of the recording resampled to 16 kHz mono',
    reason:
      "The resampled length is the file's duration × 16,000, and the duration is its frames over the sample rate its header declares: 300 kB of 8-bit samples declared at 1 Hz asked for 4.8·10⁹ samples (a RangeError with a stack trace; a little less allocates gigabytes). 67,108,864 samples are 70 minutes at 16 kHz, what audioFileBytes holds of 16 kHz mono 16-bit.",
    onHit: 'the file is not read (one sentence); split or down-sample the recording first',
  },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** The value of a limit (shorthand for readers). */
export function limit(name: LimitName): number {
  return LIMITS[name].value;
}

/** 16777216 → "16,777,216"; byte limits that are whole MiB/GiB read as such. */
export function formatLimit(name: LimitName): string {
  const l = LIMITS[name];
  if (l.unit === 'bytes') return formatBytes(l.value);
  return `${l.value.toLocaleString('en-US')} ${l.unit}`;
}

export function formatBytes(v: number): string {
  if (v >= GiB && v % GiB === 0) return `${v / GiB} GiB`;
  if (v >= MiB && v % MiB === 0) return `${v / MiB} MiB`;
  if (v >= KiB && v % KiB === 0) return `${v / KiB} KiB`;
  return `${v.toLocaleString('en-US')} bytes`;
}

/**
 * The one sentence a user sees when `what` crossed a limit:
 * "<what> has <actual>, over the limit of <limit>: <onHit>."
 */
export function limitMessage(name: LimitName, what: string, actual?: number | bigint | string): string {
  const l = LIMITS[name];
  const has = actual === undefined ? 'is' : `has ${typeof actual === 'string' ? actual : `${actual.toLocaleString('en-US')} ${l.unit}`},`;
  return `${what} ${has} over the limit of ${formatLimit(name)}: ${l.onHit}.`;
}

/**
 * A bound a file crossed, thrown by `boundedCount`/`boundedIndex`/`parseFileJson` and turned by each
 * reader into its one finding or sentence (`message` is `limitMessage`'s).
 */
export class LimitError extends Error {
  constructor(
    readonly limit: LimitName,
    message: string,
  ) {
    super(message);
    this.name = 'LimitError';
  }
}

/**
 * A count read from a file (a list length, a row count, a declared size), checked before anything
 * is allocated or looped over by it: a non-negative integer at most the limit, else a LimitError.
 */
export function boundedCount(name: LimitName, what: string, n: number | bigint): number {
  const v = typeof n === 'bigint' ? (n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= 0n ? Number(n) : NaN) : n;
  if (!Number.isSafeInteger(v) || v < 0) throw new LimitError(name, `${what} is not a count (${String(n)}): ${LIMITS[name].onHit}.`);
  if (v > LIMITS[name].value) throw new LimitError(name, limitMessage(name, what, v));
  return v;
}

/**
 * An index read from a file, used to place something in an array of index + 1 entries: below the
 * limit, else a LimitError ("<what> 150,000,000 is over the limit of 65,536 items: …").
 */
export function boundedIndex(name: LimitName, what: string, i: number): number {
  if (!Number.isSafeInteger(i) || i < 0) throw new LimitError(name, `${what} ${String(i)} is not an index: ${LIMITS[name].onHit}.`);
  if (i >= LIMITS[name].value)
    throw new LimitError(name, `${what} ${i.toLocaleString('en-US')} is over the limit of ${formatLimit(name)}: ${LIMITS[name].onHit}.`);
  return i;
}

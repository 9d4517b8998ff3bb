// One catalogue of what the Dataflow Compiler and HailoRT say (issue 30): every message some part
// of hailo-tools recognises or quotes as evidence — the DFC log reader (core/dfc), the `.alls`
// rules (core/alls), the NMS checks (core/nms) and the ONNX pre-flight (core/onnx) — is an entry
// here, so a message learned in one place is known everywhere. An entry gives the message's
// patterns (over a line already stripped of logger prefixes by core/dfc/normalise.ts), the
// exception classes it comes with, the stage that prints it, its severity, the layers or nodes it
// names (named capture groups), the reader's diagnostic code, the fix and the evidence (a public
// URL or a file in this repository). Pure data and matching: no I/O; core/common so that every
// domain may import it (eslint's layering rules; core/dfc depends on alls/ and onnx/, not back).

import {
  HAILORT_FAMILIES,
  HAILORT_STATUS_NAMES,
  hailortFamily,
  hailortFamilyValues,
  hailortStatusValue,
  pyhailortClasses,
  type HailortFamilyCode,
} from './hailortStatus';

export type MessageStage = 'parse' | 'optimize' | 'compile' | 'runtime';
export type MessageSeverity = 'error' | 'warning' | 'info';

export interface DfcMessage {
  /** Stable id other modules reference (`quoteDfc('nms-layer-missing', …)`). */
  id: string;
  /** The message as printed, `{name}` where it varies (what other modules quote). */
  text: string;
  tool: 'dfc' | 'hailort';
  /** Exception classes it is raised with (empty: printed as a line, or with any class). */
  classes: string[];
  /**
   * Patterns over the message (prefixes stripped; class and all may be anywhere in the line).
   * Named groups are what it names: `layer`, `node`, `nodes`, `context`, `keyword`, `why`.
   */
  patterns: RegExp[];
  /** Only when the traceback's frames include one of these functions (IndexError is many things). */
  frames?: string[];
  /** Its class alone identifies it, whatever the message says (a distinctive exception class). */
  anyMessage?: boolean;
  /**
   * Further classes of the entry by their name's form: the parser names a class per kind of layer it
   * refuses (`Unsupported<Kind>LayerError`), more than any list of seen ones holds.
   */
  classForm?: RegExp;
  stage: MessageStage | null;
  severity: MessageSeverity;
  /** The reader's diagnostic code (core/dfc/codes.ts), null for a line that only frames others. */
  code: string | null;
  /**
   * `cause`: a line that follows a header (`Mapping Failed`) and says why; the reader joins it
   * into the header's diagnostic (layer, resource, limit) and takes its advice.
   */
  role?: 'header' | 'cause';
  /**
   * The tool's verdict on the run, printed once when it gives up (not at each attempt of a search): a failure
   * whatever level its log gives the line — the DFC 3.33 compiler's hailo_sdk.core.log writes `Mapping Failed` at
   * info, in red, where 3.31's wrote it at error (dfc-corpus unseen9/23, unseen7/27).
   */
  verdict?: boolean;
  /**
   * The statuses HailoRT's check returns when it prints this message (its `CHECK(cond, status, msg)`): the
   * callers' `CHECK_SUCCESS failed with status=…` lines after it are this failure's, not another one.
   */
  statuses?: string[];
  /** What the cause is, in a few words (`microcode size`), for cause lines. */
  cause?: string;
  fix: string;
  evidence: string;
}

const CORPUS = 'test/fixtures/dfc-corpus/tune';
const CORPUS2 = 'test/fixtures/dfc-corpus/tune2';
const FIXTURES = 'test/fixtures/dfc';
/** HailoRT's public source (https://github.com/hailo-ai/hailort, v5.2.0 unless a release is named). */
const HAILORT = 'hailo-ai/hailort hailort';

/**
 * A family's statuses wherever a line names them: `HAILO_X`, `HAILO_X(N)`, `status=N`, `status = N`
 * (a number only after `status=`/`status:` — `exit status 1` is no HailoRT status).
 */
function statusPattern(code: HailortFamilyCode): RegExp {
  const values = code === 'hailort/status' ? null : new Set(hailortFamilyValues(code));
  const names = HAILORT_STATUS_NAMES.filter((n) => {
    const v = hailortStatusValue(n)!;
    return v !== 0 && (values ? values.has(v) : hailortFamily(v) === 'hailort/status');
  });
  const nums = [...new Set(names.map((n) => hailortStatusValue(n)!))].sort((a, b) => b - a);
  return new RegExp(`\\b(?<status>${names.join('|')})\\b|\\bstatus\\s*[=:]\\s*(?<value>${nums.join('|')})\\b(?![.\\d])`);
}

/** What to do about each family (the status's own meaning is said with it: hailortStatus.ts). */
const HAILORT_FIXES: Record<HailortFamilyCode, string> = {
  'hailort/hef-rejected':
    'HailoRT could not open or read the HEF, or does not support it: check the path, copy or compile the HEF again, and run it with the HailoRT release of the DFC that compiled it (hailo-tools hef explains which)',
  'hailort/hef-device-mismatch': "the HEF was compiled for another device architecture: compile it for this device's (the DFC's --hw-arch)",
  'hailort/version-mismatch':
    'driver, firmware, hailort.service and library must be of one HailoRT release: install the matching driver (and firmware) of the installed HailoRT, or that HailoRT of the driver, then reboot (hailo-tools doctor shows the versions)',
  'hailort/out-of-physical-devices':
    'another process (or a second VDevice of this one) holds the device: one VDevice per process, the multi-process service, or stop the other user (hailo-ollama, a run not ended)',
  'hailort/timeout':
    'the device did not answer in time: check that every input is written and every output read (a pipeline that stops reading stalls the device), raise the timeout for a slow model, and reset the device if it stays stuck',
  'hailort/driver':
    "the PCIe driver failed or is missing: read the driver's log (dmesg | grep hailo), check the driver is loaded and of HailoRT's release, and reset or re-seat the device",
  'hailort/connection-closed':
    "the other end of HailoRT's connection closed it — the device's own runtime (Hailo-10H), hailort.service, or a server: it ended, crashed or was reset; its log (dmesg, the service's journal) says why",
  'hailort/status': 'HailoRT refused the operation: the line before the status says which check failed',
};

/** A family's own advice (the reader prefers a status's own, hailortStatus.ts `hailortStatusAdvice`, over it). */
export function hailortFamilyFix(code: HailortFamilyCode): string {
  return HAILORT_FIXES[code];
}

/**
 * A GenAI model the device's server would not create (`Failed to create VLM` — the client's report of the
 * server's reply, whatever its status: common/genai/serializer/serializer.cpp v5.1.1–v5.2.0 `deserialize_reply`).
 * The reply carries only the status; the causes recorded for it: the KV-Cache held by another LLM/VLM
 * (HAILO_INVALID_OPERATION, hailort_server.cpp), a HEF made by a newer DFC than the device's HailoRT
 * (dfc-corpus unseen3/37: a 5.2.0 HEF on 5.1.1), a HEF not found (unseen3/36's thread). An author's own words
 * for the same failure (`VLM fails with HAILO_INVALID_OPERATION`, unseen5/18) name the model and its status the same way.
 */
export const GENAI_CREATE_FAILED =
  /\b(?:Failed to create (?:LLM|VLM|Speech2Text|Text2Image)\b|(?:LLM|VLM|Speech2Text|Text2Image) (?:fails|failed|failing|crashes|crashed) (?:with|on|at)\b)/;
export const GENAI_CREATE_FIX =
  "the device's GenAI server refused to create the model, and its reply carries only the status: check that the HEF's version matches the device's HailoRT (a HEF compiled by a newer DFC than the device's runtime and firmware is refused — hailo-tools hef shows the HEF's; install that HailoRT release, driver and firmware, or download the HEF made for the installed one), that no other LLM or VLM holds the KV-Cache (one at a time), and that the HEF path exists; the device's log (hailort.log) names the check";

/** No Hailo device found at all (none held by another process either). */
const NO_DEVICE_FIX =
  'no Hailo device was found at all, not one held by another process: it may not be connected or not detected on PCIe (lspci | grep -i hailo lists nothing; on a Raspberry Pi check the ribbon cable and the HAT are seated and PCIe is enabled), or its driver is not loaded (lsmod | grep hailo; reinstall it for the running kernel after a kernel update)';

export const DFC_MESSAGES: readonly DfcMessage[] = [
  // ---- parse ------------------------------------------------------------------------------------
  {
    id: 'misspelled-node',
    text: 'Unable to find end node names: [{nodes}]',
    tool: 'dfc',
    classes: ['MisspellNodeError'],
    anyMessage: true,
    patterns: [/Unable to find (?:end|start) node names?(?::\s*(?<nodes>\[[^\]]*\]?))?/],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/misspelled-node',
    fix: 'start/end_node_names take NodeProto names (the ONNX node), not tensor names',
    evidence: `dfc-flow.md §3.5; ${CORPUS}/17-end-nodes-conv2d`,
  },
  {
    id: 'end-node-absorbed',
    text: 'node name {node} in end_node_names is missing in the HN',
    tool: 'dfc',
    classes: ['InvalidHNError'],
    anyMessage: true,
    patterns: [/node name (?<node>\S+) in (?:end|start)_node_names is missing in the HN|in (?:end|start)_node_names is missing in the HN/],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/end-node-absorbed',
    fix: 'choose an end node that computes (conv, matmul, add) before the reshape-like node',
    evidence: 'dfc-flow.md §3.5',
  },
  {
    id: 'unsupported-layer',
    text: '{cls} in op {node}: {reason}',
    tool: 'dfc',
    // The parser's classes seen in public logs (the ONNX pre-flight quotes them as its evidence).
    classes: [
      'UnsupportedOperationError',
      'UnsupportedShuffleLayerError',
      'UnsupportedSoftmaxLayerError',
      'UnsupportedConcatLayerError',
      'UnsupportedGatherLayerError',
      'UnsupportedReduceMaxLayerError',
      'UnsupportedLSTMLayerError',
      'UnsupportedActivationLayerError',
      'UnsupportedSliceLayerError',
      'UnsupportedModelError',
      'UnexpectedNodeError',
    ],
    // The node ends at whitespace or at a colon followed by a space (node names contain `::`).
    patterns: [
      /\b(?<cls>(?:Unsupported|Unexpected)\w*Error) in op (?<node>\S+?):?(?:\s+(?<reason>.*))?$/,
      // DFC 5's form: the reason first, the ONNX node it was translated from after it.
      /(?<reason>\b(?:Unsupported|Unexpected)\b.*?)\s*\(translated from (?<node>[^)\s]+)\)/,
    ],
    // The parser's own classes say which stage refused whatever their message says.
    anyMessage: true,
    classForm: /^Unsupported[A-Z]\w*LayerError$/,
    stage: 'parse',
    severity: 'error',
    code: 'dfc/unsupported-layer',
    fix: 'cut the graph before the node (end node names) and run the rest on the host, or rewrite the op',
    evidence: `${FIXTURES}/SOURCES.md (C, F, G); ${CORPUS}/25-segformer-docstring`,
  },
  {
    // The DFC's check of a layer of its network (HN) against a rule of that layer's kind, in its words: `<kind> layer
    // <net>/<layer> (translated from <node>) … requires …` — run wherever the DFC builds or loads the HN (parsing, and a
    // later step on a HAR: DFC 5.4.0's `hailo profiler` on a compiled HAR, dfc-corpus unseen14/52), so no stage of its own.
    id: 'layer-requirement',
    text: '{kind} layer {layer} (translated from {node}) with {what} requires {rule}',
    tool: 'dfc',
    classes: [],
    patterns: [
      /\b(?<kind>[a-z][a-z_]{0,30}(?: [a-z][a-z_]{0,30})?) layer (?<layer>[\w.-]{1,120}\/[\w./-]{1,200})(?:\s*\(translated from (?<node>[^)\s]{1,300})\))?\s+(?<why>(?:with [^.]{0,120}?\s)?requires\b.*?)\s*$/,
    ],
    stage: null,
    severity: 'error',
    code: 'dfc/unsupported-layer',
    fix: "the DFC checks each layer of the network it holds against its kind's rules, whenever it builds or loads it: a parse refusing it needs the model changed at the ONNX node it names; a later step (compile, profiler) refusing a layer the compiler made (a `_sd<N>` piece of a layer it split) is the DFC's own doing — report it with these lines, and measure on the device meanwhile",
    evidence:
      'DFC 5.4.0 `hailo profiler` on a compiled hailo15h HAR: `conv layer hailo_stereo/conv78_sd0 (translated from …/Conv) with element-wise addition requires the output_shape of conv and of the add to be equal`, after a compile whose allocator split conv77 into 12 `_sd` pieces (test/fixtures/dfc-corpus/unseen14/52)',
  },
  {
    id: 'parsing-failed-list',
    text: 'Parsing failed. The errors found in the graph are:',
    tool: 'dfc',
    classes: ['ParsingWithRecommendationException'],
    patterns: [/^Parsing failed\. The errors found in the graph are:?$/],
    stage: 'parse',
    severity: 'error',
    code: null,
    fix: 'its entries (one line each) carry the diagnostics',
    evidence: `${FIXTURES}/SOURCES.md (C, F)`,
  },
  {
    id: 'parser-recommendation',
    text: 'Parsing failed with recommendations for end node names: [{nodes}]',
    tool: 'dfc',
    classes: [],
    patterns: [/recommendations for end node names: \[(?<nodes>.*)\]/, /using these end node names: (?<nodes>.+?)\s*$/],
    stage: 'parse',
    severity: 'info',
    code: null,
    fix: 'the nodes the parser can end at',
    evidence: 'https://github.com/ankandrew/fast-plate-ocr/issues/44',
  },
  {
    id: 'parser-prompt',
    text: 'Would you like to parse again with the recommendation? (y/n)',
    tool: 'dfc',
    classes: ['EOFError'],
    patterns: [/Would you like to parse again with the recommendation\? \(y\/n\)/],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/parser-prompt',
    fix: 'hailo parser -y, or --end-node-names with the recommended nodes',
    evidence: 'https://github.com/ankandrew/fast-plate-ocr/issues/44',
  },
  {
    id: 'end-nodes-retried',
    text: 'According to recommendations, retrying parsing with end node names: [{nodes}]',
    tool: 'dfc',
    classes: [],
    patterns: [/According to recommendations, retrying parsing with end node names: \[(?<nodes>.*)\]/],
    stage: 'parse',
    severity: 'warning',
    code: 'dfc/end-nodes-changed',
    fix: 'pass those end nodes explicitly, or change the model where the parser stopped',
    evidence: `${FIXTURES}/SOURCES.md (Q)`,
  },
  {
    id: 'concat-format',
    text: 'IndexError: list index out of range (get_concat_info)',
    tool: 'dfc',
    classes: ['IndexError'],
    patterns: [],
    frames: ['get_concat_info'],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/concat-format',
    fix: 'onnxsim at a fixed input shape folds the rank-1 shape Concats',
    evidence: 'dfc-flow.md §3.5, §4.1',
  },
  {
    id: 'axes-format',
    text: 'IndexError: list index out of range (_convert_axes_to_nhwc)',
    tool: 'dfc',
    classes: ['IndexError'],
    patterns: [],
    frames: ['_convert_axes_to_nhwc'],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/axes-format',
    fix: 'find the cause by parsing sub-graphs (end_node_names, onnx.utils.extract_model)',
    evidence: 'dfc-flow.md §3.5, §4.2',
  },
  {
    id: 'reshape-format',
    text: "ValueError: 'channels' is not in list",
    tool: 'dfc',
    classes: ['ValueError'],
    patterns: [/channels'?>? is not in list/],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/reshape-format',
    fix: 'look upstream of the Reshape for where the layout changed',
    evidence: 'dfc-flow.md §3.5',
  },
  {
    id: 'broadcast',
    text: 'operands could not be broadcast together with shapes {shapes}',
    tool: 'dfc',
    classes: ['ValueError'],
    patterns: [/operands could not be broadcast together/],
    stage: 'parse',
    severity: 'error',
    code: 'dfc/broadcast',
    fix: 'make the broadcast explicit at export (equal ranks)',
    evidence: 'dfc-flow.md §3.5',
  },
  {
    // The optimizer's element-wise ops (Acceleras) take inputs of one shape: a mask or scale broadcast
    // inside the graph that reached one with another shape (dfc-corpus unseen4/22: a softmax normalisation multiply).
    id: 'elementwise-input-shapes',
    text: "Input shapes {shapes} doesn't match each other in {layer}",
    tool: 'dfc',
    classes: ['InvalidInputShape'],
    patterns: [/Input shapes (?<shapes>[[(][\w\s,[\]()]{0,400}?) ?doesn't match each other in (?:\.{3}|…)?\/?(?<layer>[\w./-]*\w)/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/broadcast',
    fix: "the element-wise layer's inputs have different shapes where the optimizer needs equal ones: make the broadcast explicit in the graph (feed the op a tensor already tiled to the other's shape), or wire it to an input of that shape",
    evidence: 'test/fixtures/dfc-corpus/unseen4/22 (the author removed the in-graph broadcast and fed the head-tiled mask input directly)',
  },
  // ---- the model script (optimize) -------------------------------------------------------------
  {
    id: 'model-script-syntax',
    text: 'Expected {what}, found {found} (at char {n}), (line:{line}, col:{col})',
    tool: 'dfc',
    classes: [],
    patterns: [/Parsing failed at:|\(line:\d+, col:\d+\)/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script-syntax',
    fix: 'fix the statement the `>!<` echo points at',
    evidence: "dfc-flow.md §7.3; pyparsing's ParseBaseException",
  },
  {
    id: 'no-argument-named',
    text: 'No argument named {keyword}',
    tool: 'dfc',
    classes: [],
    patterns: [/No argument named ['"`]?(?<keyword>\w+)/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'use a keyword the command takes (nms_postprocess: nms_scores_th, nms_iou_th, config_path, …)',
    evidence: `${FIXTURES}/SOURCES.md (W, X)`,
  },
  {
    // The DFC's validation of a model-script setting's value, at the script's load (`Unsupported value
    // [PrecisionMode.a16_w8] for fields ['precision_mode']`, DFC 5.3.0 for hailo10h, dfc-corpus unseen14/58; `Unsupported
    // value [<PrecisionMode.a16_w16>]` for matmul layers, library file id 59218690720): the value in the DFC's brackets,
    // the fields it names are the script's keywords.
    id: 'unsupported-value',
    text: 'Unsupported value [{value}] for fields [{fields}]',
    tool: 'dfc',
    classes: [],
    patterns: [/\bUnsupported value (?<value>\[[^\]\n]{1,200}\])(?: for fields? \[(?<keyword>[^\]\n]{1,200})\])?/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: "the DFC does not take this value for that setting (for the layer's kind, the target or the release): use a value it accepts",
    evidence:
      "DFC 5.3.0 for hailo10h refusing precision_mode a16_w8 and a16_w4 set in the model script, though its release notes announce them as a preview (test/fixtures/dfc-corpus/unseen14/58; the same author's notes, library file id 62088025958); quantization_param(…, precision_mode=a16_w16) on matmul layers refused at script load, HailoMatmul taking a8_w8, a8_w8_a8, a8_w8_a16 (library file id 59218690720)",
  },
  {
    id: 'config-path-and-arguments',
    text: 'Both config path and config arguments were given',
    tool: 'dfc',
    classes: [],
    patterns: [/Both config path and config arguments were given/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'nms_postprocess takes the settings from the JSON or as keywords, not both',
    evidence: `${FIXTURES}/SOURCES.md (W)`,
  },
  {
    id: 'bbox-conv-infer',
    text: 'Cannot infer bbox conv layers automatically. Please specify the bbox layer in the json configuration file.',
    tool: 'dfc',
    classes: [],
    patterns: [/Cannot infer bbox conv layers automatically/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'name reg_layer/cls_layer in the NMS JSON with the HN layer names',
    evidence: `${FIXTURES}/SOURCES.md (W)`,
  },
  {
    id: 'nms-last-layers',
    text: 'Error in the last layers of the model, expected conv but found {found}',
    tool: 'dfc',
    classes: ['AllocatorScriptParserException'],
    patterns: [/Error in the last layers of the model, expected conv but found (?<why>.*?)\.?$/, /expected conv but found/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'parse with end nodes at the per-scale conv heads',
    evidence: `${FIXTURES}/SOURCES.md (J)`,
  },
  {
    id: 'nms-config-not-found',
    text: "Post-process config file isn't found in {path}",
    tool: 'dfc',
    classes: ['AllocatorScriptParserException'],
    patterns: [/Post-process config file isn't found/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'give nms_postprocess a config path that exists where the DFC runs',
    evidence: `${FIXTURES}/SOURCES.md (J)`,
  },
  {
    id: 'allocator-script',
    text: 'AllocatorScriptParserException: {message}',
    tool: 'dfc',
    classes: ['AllocatorScriptParserException'],
    patterns: [],
    anyMessage: true,
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: 'the model script asks for something the model does not allow',
    evidence: `${FIXTURES}/SOURCES.md (J)`,
  },
  {
    // The NMS config of nms_postprocess names a head layer the network has, but not in the form the config needs
    // (`layer yolov8s/conv41 doesn't have one output layer`): a model zoo recipe's config on another head (dfc-corpus unseen8/05).
    id: 'nms-config-postprocess',
    text: "NMSConfigPostprocessException: layer {layer} doesn't have one output layer",
    tool: 'dfc',
    classes: ['NMSConfigPostprocessException'],
    patterns: [/layer (?<layer>[\w/]{1,160}) doesn't have one output layer/],
    anyMessage: true,
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: "the NMS config of nms_postprocess does not fit this network's head",
    evidence: 'NMSConfigPostprocessException, hailo_sdk_client (dfc-corpus unseen8/05: a COCO recipe on a 16-class and a YOLO26 head)',
  },
  {
    // nms_postprocess(…, engine=nn_core) on a chip whose NN core cannot run that meta architecture's NMS (YOLOv8's on
    // the Hailo-8L): engine=cpu puts the NMS in the HEF for HailoRT to run on the host (dfc-corpus unseen8/06's thread).
    id: 'meta-arch-on-chip',
    text: 'UnsupportedMetaArchError: The specified meta architecture {arch} cannot be run on chip',
    tool: 'dfc',
    classes: ['UnsupportedMetaArchError'],
    patterns: [/The specified meta architecture (?<arch>\w{1,80}) cannot be run on chip/],
    anyMessage: true,
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: "this chip cannot run this architecture's NMS on its NN core: nms_postprocess(…, engine=cpu) keeps the NMS in the HEF and HailoRT runs it on the host",
    evidence: 'UnsupportedMetaArchError, hailo_sdk_client (dfc-corpus unseen8/06: YOLOv8 with engine=nn_core on a Hailo-8L; engine=cpu compiled)',
  },
  {
    id: 'nms-layer-missing',
    text: "The layer named {layer} doesn't exist in the HN",
    tool: 'dfc',
    classes: ['HailoNNException'],
    anyMessage: true,
    // An empty name (two spaces) is what the DFC's own generated NMS config gives (tune/09).
    patterns: [/The layer named (?<layer>\S*)\s*doesn't exist in the HN/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/nms-layer-missing',
    fix: "name the HN's layers in the NMS config (reg_layer/cls_layer per scale), read from the parsed HAR, not the ONNX",
    evidence: `${CORPUS}/07-nms-conv63-yolov5, ${CORPUS}/09-nms-empty-name-gate; core/nms/checks.ts`,
  },
  {
    id: 'nms-meta-arch',
    text: "'{arch}' is not a valid NMSMetaArchitectures",
    tool: 'dfc',
    classes: ['ValueError'],
    patterns: [/'(?<arch>\w+)' is not a valid NMSMetaArchitectures/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/version-mismatch',
    fix: 'the model zoo (or script) names a meta_arch this DFC does not know: use the model-zoo release made for the installed DFC version',
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/86',
  },
  {
    // Python's Enum refusing a value (CPython Lib/enum.py, EnumType.__call__ → `ValueError("%r is not a valid %s" % (value,
    // cls.__qualname__))`) for one of the optimizer's vocabularies — the enum named for what the model script's optimization
    // commands configure (`PostQuantizationFeature`, `…OptimizationLevel`, `…PrecisionMode`): the script named a feature or
    // mode this DFC does not have (dfc-corpus unseen18/07: `model_optimization_config(checker_cfg, layer_noise_analysis, …)`).
    id: 'optimizer-enum-value',
    text: "'{value}' is not a valid {enum}",
    tool: 'dfc',
    classes: ['ValueError'],
    patterns: [/'(?<value>[\w.-]{1,80})' is not a valid (?<enum>(?:[A-Z]\w{0,60})?(?:Quantization|Optimization|Precision|Calibration|Compression)\w{0,40})/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/model-script',
    fix: "the model script names a feature or mode the installed DFC's optimizer does not have: check the name against the DFC's Dataflow Compiler user guide for this release (model_optimization_config / pre_ / post_quantization_optimization)",
    evidence: "CPython Lib/enum.py's `%r is not a valid %s`; dfc-corpus unseen18/07 (`'layer_noise_analysis' is not a valid PostQuantizationFeature`)",
  },
  // ---- optimize ---------------------------------------------------------------------------------
  {
    id: 'gpu-memory',
    text: 'GPU memory has been exhausted. Please try to use Quantization-Aware Fine-Tuning with lower batch size.',
    tool: 'dfc',
    classes: ['AccelerasResourceError'],
    anyMessage: true,
    patterns: [/GPU memory has been exhausted|OOM when allocating tensor/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/gpu-memory',
    fix: 'lower the fine-tuning (or calibration) batch_size',
    evidence: 'dfc-flow.md §3.4',
  },
  {
    id: 'wraparound-a16w4',
    text: "AttributeError: 'function' object has no attribute 'set_wraparound_loss'",
    tool: 'dfc',
    classes: ['AttributeError'],
    patterns: [/has no attribute 'set_wraparound_loss'/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/wraparound-a16w4',
    fix: 'another precision mode than a16_w4',
    evidence: 'dfc-flow.md §3.5',
  },
  {
    id: 'quantization-failed',
    text: 'Quantization failed in layer {layer} due to unsupported required slope. Desired shift is {shift}, but op has only {bits} data bits.',
    tool: 'dfc',
    classes: ['NegativeSlopeExponentNonFixable'],
    anyMessage: true,
    // Its second sentence alone names the failure too (a note quotes `Desired shift is 10.0, but op has only 8 data bits`
    // beside the layer it fails on).
    patterns: [/Quantization failed in layer (?<layer>\S+?) due to (?<why>[^.]*)/, /\bDesired shift is -?\d+(?:\.\d+)?, but op has only \d+ data bits/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/quantization-failed',
    fix: "the layer's data or weight range is unbalanced — as the DFC says: mostly a random (synthetic) calibration set or random weights, a calibration set not normalized the way the model's input is (0-255 where training saw 0-1), or a model trained without batch normalization: calibrate with real images, preprocessed as in training (or normalize on the chip with the model script's normalization)",
    evidence: `the DFC's own message (${CORPUS2}/37, library file id 59685997022); users' notes: synthetic calibration frames made the DFC refuse, real frames cleared it (library file id 60183850446); 0-255 inputs for a 0-1 network (library file id 71269478379)`,
  },
  {
    // The optimizer's refusal of a shift its op cannot take between the ranges of its inputs (DFC 3.29–3.30, the
    // class AccelerasNumerizationError when it is quoted): the layer is named, and the matmul form says how to widen them.
    id: 'shift-delta',
    text: 'layer {layer} does not support shift delta. To overcome this issue you should force larger range at the inputs of the layer using command quantization_param([layer_name], force_range_in=[range_min, range_max], force_range_index=index)',
    tool: 'dfc',
    classes: [],
    patterns: [
      /\blayer (?<layer>[\w./-]{1,200}) does not support shift delta\b/,
      /\bShift delta in (?<layer>[\w./-]{1,200}) is larger than \d+(?:\.\d+)?, cannot quantize\b/,
    ],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/quantization-failed',
    fix: "the op cannot take the shift between its inputs' ranges: widen the ranges at its inputs as the DFC's own lines after the message say — quantization_param([layer], force_range_in=[min, max], force_range_index=i), one line per input, with the ranges it prints — or, for a global average pool, reduce it in steps first (pre_quantization_optimization(global_avgpool_reduction, layers=…, division_factors=[H, 1])); where the suggested ranges do not help (one recorded matmul), the layer's inputs need another form in the model",
    evidence:
      'the DFC 3.30.0 message and its suggested quantization_param lines (test/fixtures/dfc-corpus/unseen14/14, whose author found the suggested ranges did not help); DFC 3.29.0 AccelerasNumerizationError on a global average pool, fixed by global_avgpool_reduction at a smaller input (unseen14/56)',
  },
  {
    id: 'nan-params',
    text: 'Unsupported NaN values were found in params',
    tool: 'dfc',
    classes: ['BackendValueError'],
    patterns: [/NaN values were found in (?<why>\w+)/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/nan-params',
    fix: "the network's parameters contain NaN: check the model's weights (a diverged training, a broken export or conversion) and export it again",
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/136',
  },
  // The data the optimizer feeds the parsed model (HN) does not fit its inputs: keyed by other names than
  // the HN's input layers, or of other shapes than the HN gives a layer (dfc-corpus unseen3/20, 21, 23: DFC 3.33).
  {
    id: 'hn-input-key',
    text: "KeyError: '{net}/input_layer{n}'",
    tool: 'dfc',
    classes: ['KeyError'],
    // The KeyError's whole message is the key (str of a KeyError); on a line of its own, after its class.
    patterns: [/^'(?<layer>[\w.-]+\/input_layer\d+)'$/, /\bKeyError:\s*'(?<layer>[\w.-]+\/input_layer\d+)'/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/optimize-inputs',
    fix: "the optimizer looked its input layer up in the data it was given and found no such key: a calibration (or fine-tuning) set given as a dict must be keyed by the parsed model's input layer names (`<net>/input_layer1`, …), not by the ONNX model's input names",
    evidence: `test/fixtures/dfc-corpus/unseen3/20 (DFC 3.33.0: hailo_model.py build, stats_collection.py _setup; the author's fix from the SDK source)`,
  },
  {
    id: 'inference-shapes',
    text: 'Inference input shapes {shapes} for layer {layer} does not match HN shapes {hn}',
    tool: 'dfc',
    classes: ['AccelerasValueError'],
    // Shapes are digits, signs, commas and brackets (bounded: the pattern stays a scan on any line).
    patterns: [/Inference input shapes (?<shapes>\[[^A-Za-z]{0,400}?\])\s+for layer (?<layer>\S+) does not match HN shapes(?:\s+(?<hn>\[[^A-Za-z]{0,400}\]))?/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/optimize-inputs',
    fix: "the tensors the optimizer fed this layer are not of the shapes the parsed model (HN) gives it. When the layer takes the network's inputs, the calibration data is shaped or laid out unlike the HN's inputs (they are 4-D: a [batch, seq, hidden] sequence is [batch, 1, seq, hidden] there) — reshape the calibration set to the HN's input shapes; otherwise an optimizer rewrite made them (DFC 3.33's LayerNorm decomposition of an InstanceNormalization between Reshapes) — rewrite or remove that subgraph in the ONNX",
    evidence: `test/fixtures/dfc-corpus/unseen3/21 (calibration tensors reshaped to [batch, 1, seq, hidden] fixed it), unseen3/23 (the Reshape → InstanceNorm → Reshape subgraph removed)`,
  },
  {
    id: 'calibration-shape',
    text: "Data shape {data} for layer {layer} doesn't match network's input shape {shape}",
    tool: 'dfc',
    classes: ['BadInputsShape'],
    anyMessage: true,
    patterns: [/Data shape (?<data>\([^)]*\))(?: for layer (?<layer>\S+))?\s+doesn't match (?:the )?network's input shape (?<shape>\([^)]*\))/],
    stage: 'optimize',
    severity: 'error',
    code: 'dfc/calibration-shape',
    fix: "calibration in NHWC at the network's input size, N first",
    evidence: `${FIXTURES}/SOURCES.md (I); ${CORPUS}/19-yolov5seg-badinputs-nchw`,
  },
  {
    id: 'optimization-level-0',
    text: "Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because {why}",
    tool: 'dfc',
    classes: [],
    patterns: [/Reducing optimization level to 0\b.*?because (?<why>.*?)\s*$/],
    stage: 'optimize',
    severity: 'warning',
    code: 'dfc/optimization-level-0',
    fix: 'at least 1024 calibration images and a GPU, or an explicit optimization level',
    evidence: `${FIXTURES}/SOURCES.md (A, AD); ${CORPUS}/03-calib-doc-wrapped-warning`,
  },
  {
    // Ultralytics' `export(format="hailo")` prints this before it calibrates, whatever the count: its model script asks
    // for level 2 with `post_quantization_optimization(finetune, policy=enabled, dataset_size=N)`, so the DFC lowers
    // nothing and says nothing — fewer than 1024 images is the same accuracy risk as the DFC's own warning above.
    id: 'ultralytics-calibration-size',
    text: 'Hailo level-2 optimization will use {count} calibration images. Hailo recommends at least 1,024 representative images for best accuracy.',
    tool: 'dfc',
    classes: [],
    patterns: [/level-2 optimization will use (?<count>\d{1,9}) calibration images\b/],
    stage: 'optimize',
    severity: 'warning',
    code: 'dfc/optimization-level-0',
    fix: 'at least 1024 representative calibration images (`data=` a dataset with that many)',
    evidence:
      'ultralytics/engine/exporter.py export_hailo (Ultralytics PR #25231, https://github.com/ultralytics/ultralytics/pull/25231: 128 coco128 images gave mAP50 0.069 against 0.548)',
  },
  {
    id: 'calibration-range',
    text: 'The calibration set seems to not be normalized, because the values range is {range}',
    tool: 'dfc',
    classes: [],
    patterns: [/The calibration set seems to not be normalized/],
    stage: 'optimize',
    severity: 'info',
    code: 'dfc/calibration-range',
    fix: "calibrate with the input's own distribution",
    evidence: 'dfc-flow.md §3.4',
  },
  {
    // Hailo's optimization diagnostic tool (Hailo-Application-Code-Examples compilation/basic_optimization_diagnostic_tool,
    // run on a HAR with its calibration set): its NormInspector measures the data at each input (or, behind a normalization
    // layer, that layer's output) and reports a distribution other than a normalized one in two lines — the layer with its
    // per-channel mean and std, then its verdict (inspectors/norm_inspector.py: above the thresholds `Data might not be
    // noramlized`, its own spelling; below them `Data might be normalized twice`; else `not normalized correctly`) — or, where no
    // layer normalizes, data already normalized (`appears to be normalized, is it normalized twice?`). Its warning before them
    // (`Input layer X doesn't have normalization. Was the data normalized manually?`) only asks: the application may normalize
    // before the chip, and the tool's README says that is fine.
    id: 'input-not-normalized',
    text: 'Unexpected data distribution at {layer}. (expected normalized data) mean: […], std: […]',
    tool: 'dfc',
    classes: [],
    patterns: [
      /Unexpected data distribution at (?<layer>[\w./-]+?)\.? \(expected normalized data\)/,
      /Mean or std are (?<verdict>above) threshold\. Data might not be no\w{0,3}li[sz]ed/,
      /Mean or std are (?<verdict>below) threshold\. Data might be normalized twice/,
      /Une\w{0,3}ected normalized distribution\. Data might (?<verdict>not be normalized correctly)/,
      /The input data of (?<layer>[\w./-]+) appears to be normalized, is it (?<verdict>normalized twice)\?/,
    ],
    stage: 'optimize',
    severity: 'warning',
    code: 'dfc/calibration-range',
    fix: 'the data reaching this layer is not distributed as the model expects it: normalize it once, as the model was trained — in the model script (`normalization1 = normalization([mean per channel], [std per channel])`, on the 0–255 scale) or before the chip, not both — and calibrate with the data the application will feed',
    evidence:
      "the diagnostic tool's README and inspectors/norm_inspector.py (Hailo-Application-Code-Examples, compilation/basic_optimization_diagnostic_tool, DFC 3.25): its NormInspector searches for normalization layers at the model's start and checks the input's distribution; the README's example's two error lines mean the model had no normalization and the data was not normalized, and the fix it names is adding a normalization layer (docs alls-reference.md: `normalization`)",
  },
  {
    id: 'not-quantized',
    text: 'Model requires quantized weights in order to run on HW, but none were given. Did you forget to quantize?',
    tool: 'dfc',
    classes: [],
    patterns: [/Model requires quantized weights/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/not-quantized',
    fix: 'optimize first and compile the _optimized.har',
    evidence: `${FIXTURES}/SOURCES.md (L)`,
  },
  // ---- compile: allocation headers and the cause lines after them -------------------------------
  {
    id: 'mapping-failed',
    text: 'Mapping Failed (allocation time: {time})',
    tool: 'dfc',
    classes: [],
    // Alone on its line, or quoted in a sentence (`the compile ended in Mapping Failed`).
    patterns: [/(?:^|[^\w])Mapping Failed\b/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'header',
    verdict: true,
    fix: 'the cause line after it says what did not fit',
    evidence: `${FIXTURES}/SOURCES.md (I, AB)`,
  },
  {
    id: 'no-successful-assignments',
    text: 'No successful assignments: {layer} errors: {why}',
    tool: 'dfc',
    classes: [],
    patterns: [/No successful assignments(?: for)?:\s*(?<layer>[^\s:]+)(?:\s+errors:\s*(?<why>.*?))?\s*$/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'header',
    fix: 'the layer cannot be placed: smaller input or layer, other end nodes, or another hw arch',
    evidence: `${FIXTURES}/SOURCES.md (I); ${CORPUS}/21-concat24-inline`,
  },
  {
    id: 'agent-infeasible',
    text: 'Agent infeasible',
    tool: 'dfc',
    classes: [],
    // Alone on its line after a header, or quoted in a sentence (`… fails with PrePostAgent infeasible because …`, dfc-corpus unseen6/18).
    // The allocator's own form names the layer first (`conv12 errors: Agent infeasible`, as after `No successful assignments:`),
    // wherever the line is quoted (a note's bullet, dfc-corpus unseen8/02). A layer's name is bounded: a long word is none.
    patterns: [/(?:^|[^\w])(?:(?<layer>[A-Za-z_]\w{0,80}(?:\/\w{1,80})?) errors:\s*)?(?<agent>\w*)Agent infeasible\b/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'no agent can place it',
    fix: 'the layer does not fit the resources of one context',
    evidence: `${FIXTURES}/SOURCES.md (I)`,
  },
  {
    // The allocator's per-cluster budget of memory units (a fixed hardware figure, 128 on Hailo-10H):
    // no compiler setting raises it (dfc-corpus unseen4/20).
    id: 'memory-units-capacity',
    text: 'Memory units capacity exceeded (available: {available}, required: {required})',
    tool: 'dfc',
    classes: [],
    patterns: [/Memory units capacity exceeded(?: \(available: (?<available>\d+), required: (?<required>\d+)\))?/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    cause: 'memory units',
    fix: 'a node needs more memory units than one cluster has — a fixed hardware budget no max_memory_utilization or optimization level changes: split the network differently (fewer or other network groups, smaller layers) so the partitioner can place it',
    evidence: 'test/fixtures/dfc-corpus/unseen4/20 (the same under every compiler setting; compiling fewer network groups worked)',
  },
  {
    // Any other resource the allocator counts against a fixed budget, per context or cluster (`context X shmifo in
    // capacity exceeded (available: 20, required: 37)`, DFC 5.4.0, dfc-corpus unseen14/51). The allocator logs such a
    // line at each failed attempt of its search (at info in its log file, then not a failure: explain.ts `observe`).
    id: 'resource-capacity',
    text: 'context {context} {resource} capacity exceeded (available: {available}, required: {required})',
    tool: 'dfc',
    classes: [],
    // Named by its context, or with the allocator's counts: `capacity exceeded` alone is any program's words.
    patterns: [
      /\bcontext (?<context>[\w.-]{1,120}) (?<resource>[A-Za-z][\w-]{0,40}(?: [a-z][\w-]{0,40})?) capacity exceeded\b(?:\s*\(available: (?<available>\d+), required: (?<required>\d+)\))?/,
      /\b(?<resource>[A-Za-z][\w-]{0,40}(?: [a-z][\w-]{0,40})?) capacity exceeded \(available: (?<available>\d+), required: (?<required>\d+)\)/,
    ],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'a resource over its budget',
    fix: 'the allocator needs more of the named resource than a context (or cluster) has, a fixed hardware budget: let the partitioner split the network differently — in the recorded case (shmifo, the streams between contexts, on hailo15h) resources_param(max_utilization=0.95) packed fewer, denser contexts and compiled — or reduce what the resource carries (fewer tensors crossing a context boundary, narrower layers)',
    evidence:
      'a stereo model on DFC 5.4.0 for hailo15h: `context hailo_stereo_context_6 shmifo in capacity exceeded (available: 20, required: 37)` at the default utilization, resources_param(max_utilization=0.95) compiled (test/fixtures/dfc-corpus/unseen14/51)',
  },
  {
    // The allocator's first check of the resources a single context would need against the device's (`lcus=(180/80)`:
    // needed/available). The compiler says itself when it recovers — `Single context flow failed: Recoverable single
    // context error - Resources presolve failed: lcus=(>80)`, then `Using Multi-context flow` and a HEF (library file
    // id 59218690720) —, so that form is no failure here.
    id: 'resources-presolve',
    text: 'Resources presolve failed: {resource}=({needed}/{available})',
    tool: 'dfc',
    classes: [],
    patterns: [
      /(?<!Recoverable single context error - )\bResources presolve failed(?::\s*(?<why>[\w-]{1,40}=\(\S{1,40}\)(?:,\s*[\w-]{1,40}=\(\S{1,40}\)){0,8}))?/,
    ],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'resources over what one context has',
    fix: 'the network needs more of the named resources than one context of the device has (needed/available; lcus are the Layer-Controllers that schedule each layer): the compiler must split it into contexts — keep context switching enabled — and the line after this one says which resource the split could not fit',
    evidence:
      "DFC 5.4.0 for hailo15h, `Resources presolve failed: lcus=(180/80)` before the multi-context split's shmifo failure (test/fixtures/dfc-corpus/unseen14/51); the compiler's own `Recoverable single context error` form before a multi-context HEF (library file id 59218690720)",
  },
  {
    // The allocator rewrites some layers with a reshape around them (a large-stride conv as space-to-depth and a 1x1)
    // and says so when it cannot place that reshape (DFC 3.34, after translation and optimization succeeded).
    id: 'reshape-needed',
    text: 'Reshape is needed for layers: {layers}, but adding a reshape has failed',
    tool: 'dfc',
    classes: [],
    patterns: [/\bReshape is needed for layers:\s*(?<layers>[\w./-]{1,200}(?:,\s*(?!but\b)[\w./-]{1,200}){0,40})(?:,\s*but adding a reshape has failed)?/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'a reshape the allocator could not add',
    fix: 'the allocator wants to place these layers through a reshape (a large-stride convolution such as a 16x16 stride-16 patch embedding becomes a space-to-depth and a 1x1) and cannot add it; allocator_param(automatic_reshapes=enabled) and a smaller input did not change it in the recorded case — rewrite the layer in the model so it needs none (the patch convolution factored into smaller ones moved the failure on to the next layers there)',
    evidence:
      "OWLv2's image tower on DFC 3.34.0 for hailo8l: translation and optimization ok, compilation failed on conv1 at 960 and 640 px and with automatic_reshapes (test/fixtures/dfc-corpus/unseen14/62); another project's `Reshape is needed for layers: conv2, conv3` among its allocator failures (library file id 19586792410)",
  },
  {
    id: 'automri-context',
    text: 'Automri finished with too many resources on {context} with {n}/{m} failures.',
    tool: 'dfc',
    classes: [],
    patterns: [/too many resources on (?<context>context_\d+)/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'too many resources in one context',
    fix: 'that context needs more than the device has',
    evidence: `${FIXTURES}/SOURCES.md (H)`,
  },
  {
    id: 'partition-failed',
    text: 'Compiler could not find a valid partition to contexts.',
    tool: 'dfc',
    classes: [],
    patterns: [/could not find a valid partition/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'header',
    fix: 'no split into contexts fits',
    evidence: `${FIXTURES}/SOURCES.md (H); ${CORPUS}/13-bilstm-automri-context2`,
  },
  {
    id: 'too-many-scs',
    text: 'layer {layer} required too many SCs',
    tool: 'dfc',
    classes: [],
    patterns: [/layer (?<layer>\S+) required too many SCs/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'sub-clusters',
    fix: 'the layer needs more sub-clusters than one context has',
    evidence: 'dfc-flow.md §3.5',
  },
  {
    id: 'kernel-validation',
    text: '{layer} failed on kernel validation: {why}',
    tool: 'dfc',
    classes: [],
    patterns: [/(?<layer>\S+) failed on kernel validation: (?<why>.*?)\s*$/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'kernel validation',
    fix: "16x4 kernels come from 16-bit biases (optimization level 0, or end nodes cut after the heads' post-processing): optimize with a GPU, end at the heads' raw Conv outputs",
    evidence: `${CORPUS}/05-dw-16bit-activation2; ${CORPUS2}/33`,
  },
  {
    id: 'resources-calculation',
    text: 'DW resources calculation failed: more than 1 subclusters are needed for 16bit L2 biases and contexts at {layer}',
    tool: 'dfc',
    classes: [],
    patterns: [/resources calculation failed:\s*(?<why>.*?)(?:\s+at\s+(?<layer>[\w/.]+))?\s*$/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'resources of 16-bit biases',
    fix: "16-bit biases come from optimization level 0 (no GPU at optimize): optimize with a GPU; or from end nodes cut after the heads' post-processing (Sigmoid, Concat, Mul): end at the heads' raw Conv outputs",
    evidence: `${CORPUS}/05-dw-16bit-activation2; ${CORPUS2}/33 (a users' pitfalls note: the cut after post-processing, fixed by ending at the raw Convs)`,
  },
  {
    id: 'apus-over',
    text: '{layer} has {n} APUs but max allowed is {max}',
    tool: 'dfc',
    classes: [],
    patterns: [/(?<layer>[\w/.]+) has (?<n>\d+) APUs but max allowed is (?<max>\d+)/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'APUs',
    fix: 'the layer needs more APUs than the hardware allows for it',
    evidence: `${CORPUS}/39-v26seg-apus-concat23`,
  },
  {
    id: 'microcode-size',
    text: 'microcode exceeded size for {layer} (cluster_index={c}, layer_index={l})',
    tool: 'dfc',
    classes: [],
    patterns: [/microcode exceeded size for (?<layer>[\w/.]+)/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'microcode size',
    fix: 'the layer’s microcode is too large: a big one-step Resize (bilinear upsampling by a large, non-integer ratio) — split it (align_corners=True lets the DFC decompose it), or move the Resize out of the graph to the host',
    evidence: 'issue 30 (a DeepLab compile whose fix was moving the Resize out of the graph)',
  },
  {
    // The compiler's own exception after its verdict, its message verbatim: the layer it names is where it stopped.
    // Before required-fps: the compiler prints it after `Failed to reach required FPS on the following layers: ` (joined).
    id: 'compile-exception',
    text: 'Compilation failed with exception: {message}',
    tool: 'dfc',
    classes: [],
    patterns: [
      /Compilation failed with exception:\s*(?<why>[^\n]*?\blayer (?<layer>[\w/.-]+)(?:[^\n]*\S)?)/,
      /Compilation failed with exception:\s*(?<why>\S(?:[^\n]*\S)?)/,
    ],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: "the compiler's exception",
    fix: 'the compiler stopped on what its exception names — change the layer it names in the model (its outputs, its kind, its size), or cut the graph before it with end node names and run that part on the host',
    evidence:
      "the DFC 3.33 compiler's hailo_sdk.core.log: `Mapping Failed`, then `Compilation failed with exception: More than one output is not supported for layer matmul1` (dfc-corpus unseen9/23)",
  },
  {
    id: 'required-fps',
    text: 'Compilation failed: Failed to reach required FPS on the following layers: {layers}',
    tool: 'dfc',
    classes: [],
    patterns: [/Failed to reach (?:the )?required FPS\b(?:[^:]*:\s*(?<why>.*\S))?/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'the required FPS',
    fix: "the allocator could not give these layers the resources to run at the performance target (performance_param(fps=…), else the compiler's own): the device is too small for this model at that rate — lower the fps target or drop performance_param(fps=…), use a smaller model (or lower input resolution), or a device with more resources (a model that fits Hailo-10H can miss Hailo-8); a lower target may not free enough",
    evidence:
      "a YOLO benchmark's pitfalls note: yolo11n-seg for Hailo-8 fails mapping with this line and compiles for Hailo-10H (test/fixtures/dfc-corpus/unseen/28); the target as the model zoo's scripts set it, e.g. performance_param(fps=330) in hailo-ai/hailo_model_zoo cfg/alls/lprnet.alls",
  },
  {
    // The performance flow (performance_param(compiler_optimization_level=max)) steps the resource utilization itself; a
    // script that also sets it is refused (dfc-corpus unseen14/02: the script set resources_param beside level max). No
    // model-zoo script sets both (/work/shared/corpus/alls, alls-history: none with level max has resources_param).
    id: 'performance-flow-resources',
    text: 'Builder fail with status 94: Performance Flow requires automatic resource utilization',
    tool: 'dfc',
    classes: [],
    patterns: [/Performance Flow requires automatic resource utilization/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'the performance flow with resource limits set',
    fix: "performance_param(compiler_optimization_level=max) runs the performance flow, which chooses the resource utilization itself: remove the script's resources_param(…) limits, or keep them and compile at a lower compiler_optimization_level",
    evidence:
      "the DFC 3.33 compiler's hailo_sdk.core.log: `Mapping Failed`, `Builder fail with status 94: Performance Flow requires automatic resource utilization` under a script with level max and its own resource utilization (dfc-corpus unseen14/02)",
  },
  {
    // The partitioner's verdict: no split of the network into contexts at any utilization it tried (the performance flow
    // steps it down first, dfc-corpus unseen14/12); the client log's `BackendAllocatorException: Compilation failed: No
    // valid partition found` is the same verdict (dfc-corpus unseen8/20).
    id: 'no-valid-partition',
    text: 'No valid partition found',
    tool: 'dfc',
    classes: [],
    patterns: [/\bNo valid partition found\b/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'no valid partition into contexts',
    fix: "the partitioner found no split of the network into contexts whose every context fits the device: a smaller model or input resolution, fewer network groups, end nodes that leave heavy post-processing to the host, or a device with more resources; with performance_param(compiler_optimization_level=max) the compiler already lowered the utilization step by step, so a lower level (or an fps target) changes the search, not the device's size",
    evidence:
      "the DFC 3.33 compiler's hailo_sdk.core.log (`Builder fail with status 94: No valid partition found` after the performance flow's utilization steps, dfc-corpus unseen14/12) and its client log's BackendAllocatorException (unseen8/20)",
  },
  {
    // The compiler's builder reports every failure with a status and its words (`Builder fail with status 66: Failed to
    // reach required FPS …`, unseen9/23; `… status 94: …`, unseen14/02, 12): after the specific causes above, any status's
    // words are the cause the log states.
    id: 'builder-status',
    text: 'Builder fail with status {status}: {why}',
    tool: 'dfc',
    classes: [],
    patterns: [/Builder fail(?:ed)? with status (?<status>\d+)(?::\s*(?<why>\S(?:.*\S)?))?/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: "the compiler's builder status",
    fix: 'the builder stopped for the reason its words give — change what they name (a setting of the model script, a layer, the split into contexts)',
    evidence: "the DFC 3.33 compiler's hailo_sdk.core.log (dfc-corpus unseen9/23, unseen14/02, unseen14/12)",
  },
  {
    id: 'too-many-lcus',
    text: 'Model uses too many reources: {n} Layer-Controllers',
    tool: 'dfc',
    classes: [],
    patterns: [/too many reources?: (?<n>\d+) Layer-Controllers/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'header',
    fix: 'allow context switching, or fewer layers',
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/33',
  },
  {
    id: 'single-context',
    text: 'Context switch is disabled, but model could not fit in single context. consider changing it and try again.',
    tool: 'dfc',
    classes: [],
    patterns: [/Context switch is disabled, but model could not fit in single context/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'context switching disabled',
    fix: 'context_switch_param(mode=enabled)',
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/124',
  },
  {
    id: 'save-resources',
    text: 'Detailed error is: Failed to save enough resources to fit in the required parameters: {resources}',
    tool: 'dfc',
    classes: [],
    patterns: [/Failed to save enough resources to fit in the required parameters[^:]*:\s*(?<why>.*)$/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'cause',
    cause: 'resources over the budget',
    fix: 'the resources named over their budget',
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/124',
  },
  {
    id: 'backend-allocator',
    text: 'BackendAllocatorException: Compilation failed: {message}',
    tool: 'dfc',
    classes: ['BackendAllocatorException'],
    patterns: [],
    anyMessage: true,
    stage: 'compile',
    severity: 'error',
    code: 'dfc/allocation-failed',
    role: 'header',
    fix: 'the allocator could not map the network',
    evidence: `${FIXTURES}/SOURCES.md (H, AA)`,
  },
  {
    id: 'context-partition',
    text: 'Context-Partition topology error: {a} ({bucket}) is in later context than its successor {b} ({bucket})',
    tool: 'dfc',
    classes: [],
    patterns: [/Context-Partition topology error/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/context-partition',
    fix: 'report it to Hailo with the quoted lines',
    evidence: `${FIXTURES}/SOURCES.md (Y)`,
  },
  {
    // The user's Ctrl-C in the tool's own words: the DFC 3.33 compiler logs it (at info) as it stops, where the client log
    // of the same run raises KeyboardInterrupt (dfc-corpus unseen14/03, the repository's client log; unseen8/23).
    id: 'interrupted-by-user',
    text: 'Interrupted by user, aborting...',
    tool: 'dfc',
    classes: [],
    patterns: [/^(?:\S.{0,80}?: )?(?:[Ii]nterrupted|[Aa]borted|[Cc]ancell?ed|[Ss]topped) (?:by user|by the user)\b/],
    stage: null,
    severity: 'error',
    code: 'dfc/interrupted',
    verdict: true,
    fix: 'run it again and let it finish',
    evidence: "the DFC 3.33 compiler's hailo_sdk.core.log, `Interrupted by user, aborting...` after 30 partition iterations (dfc-corpus unseen14/03)",
  },
  {
    id: 'compiler-assertion',
    text: "compiler: {file}:{line}: Assertion `{condition}' failed.",
    tool: 'dfc',
    classes: [],
    patterns: [/Assertion [`'].*' failed|Compilation failed with unexpected crash|Failed to produce compiled graph/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/compiler-bug',
    fix: 'report it to Hailo with the quoted lines and the DFC version',
    evidence: `${FIXTURES}/SOURCES.md (H); ${CORPUS}/15-racehorse-assert`,
  },
  {
    id: 'broken-install',
    text: '{binary}: symbol lookup error: {library}: undefined symbol: {symbol}',
    tool: 'dfc',
    classes: [],
    patterns: [/symbol lookup error: .*undefined symbol/],
    stage: 'compile',
    severity: 'error',
    code: 'dfc/broken-install',
    fix: 'install the DFC into a clean venv, or use the AI Software Suite image',
    evidence: 'https://github.com/hailo-ai/hailo_model_zoo/issues/113',
  },
  {
    // Ctrl-C: Python raises it in the main thread when SIGINT arrives; the program dies of it unless caught (exit 130).
    // A run its user stopped — whatever the DFC printed on its way out is no failure of the DFC's (dfc-corpus unseen8/23).
    id: 'interrupted',
    text: 'KeyboardInterrupt',
    tool: 'dfc',
    classes: ['KeyboardInterrupt'],
    anyMessage: true,
    patterns: [],
    stage: null,
    severity: 'error',
    code: 'dfc/interrupted',
    fix: 'the run was stopped by its user (Ctrl-C), not failed: run it again and let it finish',
    evidence: 'https://docs.python.org/3/library/exceptions.html#KeyboardInterrupt; https://docs.python.org/3/library/signal.html (SIGINT → KeyboardInterrupt)',
  },
  {
    id: 'system-requirements',
    text: 'The SDK requires {n} GB of RAM ({m} GB recommended), while this system has only {k} GB.',
    tool: 'dfc',
    classes: [],
    // The check's lines, one per row of its table (Component / Requirement / Found): OS and release, packages,
    // RAM required and recommended, CPU, GPU driver, CUDA, CUDNN, compiler variables — each row's wording,
    // whether the row is required ([Error]) or recommended ([Warning]). Unmet, either way it asks and runs on
    // (Continue? [Y/n], Y by default: "No response - exitting." leaves the question, then the command runs).
    patterns: [
      /(?<why>(?:The SDK requires|It is recommended to have) \d+ GB of RAM.*?)\s*$/,
      /(?<why>Unsupported release - .*?)\s*$/,
      /(?<why>System requirements check failed)/,
      /(?<why>Requirement [\w.+-]+ not found)\.?\s*$/,
      /(?<why>(?:GPU[- ][Dd]river|CUDA|CUDNN|Python|pip) version should be [\d.]+ or higher, found [^\s]*?)\.?\s*$/,
      // The same rows in the check's other forms: the Software Suite's check (stderr `ERROR: The Dataflow Compiler requires
      // 16 GB of RAM …`, and its file system_reqs_results.log, a row a line — `X | ` unmet, ` | ` below a recommendation,
      // `V | ` met — dfc-corpus unseen29/02 and /06) says each row in its own words: RAM, packages, CPU architecture and flags.
      /(?<why>The Dataflow Compiler requires \d+ GB of RAM.*?)\.?\s*$/,
      /(?<why>Insufficient RAM: \d+ GB of RAM are required.*?)\.?\s*$/,
      /(?<why>Available RAM \(\d+ GB\) below recommended amount.*?)\.?\s*$/,
      /^\s*(?:X \|\s*)?(?<why>Missing package: [\w.+-]+)\s*$/,
      /(?<why>Unsupported CPU architecture: .*?|CPU architecture required is .*?)\.?\s*$/,
      /(?<why>(?:Required )?(?:CPU flag )?\w+ (?:CPU flag )?is not supported in this CPU.*?)\.?\s*$/,
    ],
    stage: null,
    severity: 'warning',
    code: 'dfc/system-requirements',
    fix: 'the DFC checks the machine on its first run and asks whether to continue: it runs, but below 16 GB of RAM an optimize or compile can be killed (exit 137) — give the machine (or the WSL2 VM) the memory the DFC asks for, on a supported Ubuntu release',
    evidence: `the DFC 3.31 first-run check of a users' WSL2 guide (${CORPUS2}/25, library file id 51878943534): [Error] lines, then "Continue? [Y/n]", then the command ran; the DFC 3.33 check's own log files (.install_logs/hailo_installation_log_<time>.log, dfc-corpus unseen9/24-25): "Requirement python3-tk not found", "It is recommended to have 32 GB of RAM"`,
  },
  {
    id: 'docker',
    text: 'docker: Error response from daemon: {message}',
    tool: 'dfc',
    classes: [],
    patterns: [
      // The daemon's refusal in any client's words (the CLI's `docker: ` prefix, compose, `docker pull`, an SDK): moby's client prints `Error response from daemon: %s`.
      // The client that cannot reach the daemon names it by its socket before docker 29 (`Got permission denied while trying to connect
      // to the Docker daemon socket at unix:///var/run/docker.sock`, `Cannot connect to the Docker daemon at …`) and by its API since
      // (`permission denied while trying to connect to the docker API at unix:///var/run/docker.sock`, `failed to connect to the docker
      // API at …; check if the path is correct and if the daemon is running`): one refusal, either name.
      /^docker: |Error response from daemon: |Cannot connect to the Docker daemon|(?:permission denied while trying|failed) to connect to the (?:Docker|docker) (?:daemon|API)\b|Unable to find image '.*' locally/,
    ],
    stage: null,
    severity: 'error',
    code: 'dfc/docker',
    fix: 'fix the docker setup',
    evidence: "docker's documented CLI messages",
  },
  // ---- HailoRT -----------------------------------------------------------------------------------
  // HailoRT reports a failure innermost first: the check that failed (`CHECK failed - <what>`), then
  // each caller with the status (`CHECK_SUCCESS failed with status=HAILO_X(N)`). The messages below
  // say what failed; the families after them (core/common/hailortStatus.ts) say what a status means,
  // for every status of hailort.h, so a message nobody listed still reads as its family.
  // A buffer of size 0 that pyhailort handed to HailoRT's size check: Python's array never reached C++ — an empty
  // array, or a numpy 2 array given to a HailoRT 4.x wheel built against numpy 1 (its setup.py pins numpy==1.23.3).
  {
    id: 'hailort-buffer-size-zero',
    text: "Input buffer size 0 is different than expected {n} for input '{name}'",
    tool: 'hailort',
    classes: [],
    patterns: [/(?:Input|Output) buffer size 0 is different than expected \d+ for (?:input|output) '(?<layer>[^'\s]+)'/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/status',
    statuses: ['HAILO_INVALID_ARGUMENT', 'HAILO_INVALID_OPERATION'],
    fix: "the buffer Python passed arrived empty (size 0): check the array is not empty, and with a HailoRT 4.x wheel use numpy 1 (pip install 'numpy<2' in its venv) — a wheel built against numpy 1 does not see a numpy 2 array's data",
    evidence: `${HAILORT}/libhailort/bindings/python/platform/setup.py (HailoRT 4.18: install_requires numpy==1.23.3); a benchmark's session notes, dfc-corpus unseen9/27 (HailoRT 4.23 wheel Requires-Dist numpy<2, numpy 2.4.1 in the venv)`,
  },
  // Any other size the check refused (infer_model.cpp ConfiguredInferModelImpl::validate_bindings, CHECK(… ==
  // m_inputs_frame_sizes, HAILO_INVALID_OPERATION, "Input buffer size {} is different than expected {} for input '{}'")):
  // the frame size is the stream's shape times its format type's bytes (uint8 1, uint16 2, float32 4), so the ratio says
  // which (explain.ts bufferSizeFix). Quoted bare or with symbols for the sizes (`N is different than expected N/4`).
  {
    id: 'hailort-buffer-size',
    text: "Input buffer size {n} is different than expected {m} for input '{name}'",
    tool: 'hailort',
    classes: [],
    patterns: [
      /(?<dir>Input|Output) buffer size (?<got>\d{1,12}|[A-Za-z]\w{0,15}(?: ?[*/] ?\d{1,3})?|\d{1,3} ?\*? ?[A-Za-z]\w{0,15}) is different than expected (?<want>\d{1,12}|[A-Za-z]\w{0,15}(?: ?[*/] ?\d{1,3})?|\d{1,3} ?\*? ?[A-Za-z]\w{0,15})(?: for (?:input|output|out) '(?<layer>[^'\s]+)')?/,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/status',
    statuses: ['HAILO_INVALID_OPERATION'],
    fix: "the buffer bound to the stream is not one frame of the stream's shape and format type: make its size the frame size HailoRT expects",
    evidence: `${HAILORT}/libhailort/src/net_flow/pipeline/infer_model.cpp (validate_bindings, v5.2.0); hailo_platform's InferModel.InferStream.set_format_type (FormatType.UINT8/UINT16/FLOAT32)`,
  },
  {
    id: 'hailort-out-of-physical-devices',
    text: 'Failed to create vdevice. there are not enough free devices. requested: {n}, found: {m} (HAILO_OUT_OF_PHYSICAL_DEVICES(74))',
    tool: 'hailort',
    classes: [],
    patterns: [/there are not enough free devices/, statusPattern('hailort/out-of-physical-devices')],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/out-of-physical-devices',
    fix: 'another process (or a second VDevice of this one) holds the device: one VDevice per process, the multi-process service, or stop the other user (hailo-ollama, a run not ended)',
    evidence: `${HAILORT}/libhailort/src/vdevice/vdevice.cpp ("Failed to create vdevice. there are not enough free devices"); ${CORPUS}/37-xfeat-hailort-devices`,
  },
  // The firmware's answer when configuring one more network group: its internal memory is full (control.cpp
  // turns CONTEXT_SWITCH_STATUS_SRAM_MEMORY_FULL into HAILO_OUT_OF_FW_MEMORY with this message).
  {
    id: 'hailort-sram-full',
    text: 'Configured network groups reached maximum device internal memory (SRAM Full). (CONTEXT_SWITCH_STATUS_SRAM_MEMORY_FULL)',
    tool: 'hailort',
    classes: [],
    patterns: [/CONTEXT_SWITCH_STATUS_SRAM_MEMORY_FULL|Configured network groups reached maximum device internal memory/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/status',
    fix: 'the network groups configured on the device fill its internal memory (SRAM): configure each network group once and keep it configured — switch between them with activate() or the scheduler, not by calling configure() again on every switch — and release the ones no longer needed',
    evidence: `${HAILORT}/libhailort/src/device_common/control.cpp ("Configured network groups reached maximum device internal memory (SRAM Full).", v5.2.0); test/fixtures/dfc-corpus/unseen4/09 (configure once per detector fixed it)`,
  },
  // HailoRT's own warnings that say their cause (v5.2.0 source): the run goes on, the advice is HailoRT's.
  {
    id: 'hailort-llm-context-full',
    text: 'Conversation context is full. It is adivsable to clear context as cache size was reached',
    tool: 'hailort',
    classes: [],
    patterns: [/Conversation context is full/],
    stage: 'runtime',
    severity: 'warning',
    code: 'hailort/status',
    fix: "the LLM's conversation (its KV cache) reached the model's context size: later prompts see less and generation degrades — clear the context (LLM.clear_context()) between independent prompts, or keep conversations shorter",
    evidence: `${HAILORT}/libhailort/src/genai/llm/llm.cpp ("Conversation context is full. It is adivsable to clear context", v5.2.0); test/fixtures/dfc-corpus/unseen4/12`,
  },
  {
    id: 'hailort-unaligned-buffer',
    text: 'read_async() was provided an unaligned buffer (address=0x{address}), which causes performance degradation. Use buffers algined to {n} bytes for optimal performance',
    tool: 'hailort',
    classes: [],
    patterns: [/(?<call>read_async|write_async)\(\) was provided an unaligned buffer/],
    stage: 'runtime',
    severity: 'warning',
    code: 'hailort/status',
    fix: 'the buffer given to the async stream is not aligned to the page size HailoRT names, so it is copied: allocate buffers aligned to it and rounded up to whole pages (posix_memalign, an aligned allocator — a std::vector is neither)',
    evidence: `${HAILORT}/libhailort/src/vdma/vdma_stream.cpp ("read_async() was provided an unaligned buffer", v5.2.0); test/fixtures/dfc-corpus/unseen4/13`,
  },
  // No device at all — not one held by another process: the device scan found none (hailortcli.cpp's
  // `CHECK(scan_res.size() > 0, HAILO_OUT_OF_PHYSICAL_DEVICES, "No devices found")`; scan_command.cpp prints
  // "Hailo devices not found"). HailoRT 5.0.1's device scan: no device class means "no devices have been detected by driver".
  {
    id: 'hailort-no-devices',
    text: 'No devices found (HAILO_OUT_OF_PHYSICAL_DEVICES(74))',
    tool: 'hailort',
    classes: [],
    patterns: [/\bNo devices found\b/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/out-of-physical-devices',
    fix: NO_DEVICE_FIX,
    evidence: `${HAILORT}/hailortcli/hailortcli.cpp ("No devices found", v5.2.0); ${HAILORT}/libhailort/src/vdma/driver/os/posix/linux/driver_os_specific.cpp (v5.0.1+: no device class, "no devices have been detected by driver")`,
  },
  {
    id: 'hailortcli-scan-none',
    text: 'Hailo devices not found',
    tool: 'hailort',
    classes: [],
    patterns: [/\bHailo devices not found\b/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    fix: NO_DEVICE_FIX,
    evidence: `${HAILORT}/hailortcli/scan_command.cpp ("Hailo devices not found", 4.20.0–5.2.0)`,
  },
  {
    id: 'hailort-network-already-activated',
    text: 'Cant activate network because a network is already activated (HAILO_INVALID_OPERATION(6))',
    tool: 'hailort',
    classes: [],
    patterns: [/Can'?t activate network because a network is already activated/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/network-already-activated',
    fix: 'one activated network group at a time: share the activation, or use the InferModel API / the scheduler',
    evidence: `${CORPUS}/37-xfeat-hailort-devices`,
  },
  {
    // The PCIe driver's probe (dmesg) when request_firmware_direct finds no file: it goes on without loading the
    // device's firmware, so the device node exists and nothing runs on it (dfc-corpus unseen8/16).
    id: 'driver-firmware-missing',
    text: 'Firmware file not found (/lib/firmware/{file}), please upload the firmware manually',
    tool: 'hailort',
    classes: [],
    patterns: [/Firmware file not found \((?<path>[^)\s]{1,400})\), please upload the firmware manually/],
    stage: 'runtime',
    severity: 'warning',
    code: 'hailort/driver',
    fix: "the PCIe driver loaded but found no firmware file for the device, so the device runs no firmware: install the firmware file of the driver's own HailoRT release at that path (Hailo's firmware package, or the file from the hailort-drivers release), then reload the driver (or reboot)",
    evidence:
      'hailo-ai/hailort-drivers linux/pcie/src/fw_operation.c / pcie.c (request_firmware_direct failed: hailo_dev_warn, and the probe goes on); dfc-corpus unseen8/16',
  },
  {
    // The PCIe driver's firmware batch (hailo-ai/hailort-drivers common/pcie_common.c hailo_pcie_write_firmware_batch, 4.18.0–4.20.1):
    // a file it could not write is logged with pr_warn, and the probe goes on unless the file is mandatory — the board and
    // firmware configs (`hailo8_board_cfg.bin`, `hailo8_fw_cfg.bin`: `.is_mandatory = false`) are not, and the next line is
    // its `File … written successfully`. A mandatory file's refusal is the error line after it (driver-firmware-write-failed).
    id: 'driver-file-write-warning',
    text: 'Failed to write file {file}',
    tool: 'hailort',
    classes: [],
    patterns: [/\bFailed to write file (?<path>hailo\/[\w./-]{1,200})/],
    stage: 'runtime',
    severity: 'warning',
    code: 'hailort/driver',
    fix: "the PCIe driver could not load this file from /lib/firmware (missing, too large or not of its release) and goes on without it when the file is optional (a board or firmware config: the firmware keeps its defaults); only a mandatory file (the firmware itself) stops the probe, and the driver then says so on its next line (`Failed writing NNC firmware files`) — to silence it, install the firmware package of the driver's own HailoRT release",
    evidence:
      'hailo-ai/hailort-drivers common/pcie_common.c v4.20.1 (hailo_pcie_write_firmware_batch: pr_warn("Failed to write file %s"), return only if is_mandatory; hailo8_board_cfg.bin is_mandatory = false); dfc-corpus unseen13/58',
  },
  {
    // A firmware file the driver must load could not be written, so the probe stops without firmware on the device:
    // since 4.21.0 `Failed with error N to write file X` (pcie_common.c, pr_err / hailo_dev_err, mandatory files only),
    // before it the caller's `Failed writing NNC firmware files. err N` (linux/pcie/src/pcie.c load_nnc_firmware, and its SOC forms).
    id: 'driver-firmware-write-failed',
    text: 'Failed with error {err} to write file {file}',
    tool: 'hailort',
    classes: [],
    patterns: [
      /\bFailed with error -?\d{1,5} to write file (?<path>[\w./-]{1,400})/,
      /\bFailed writing (?:NNC|SOC [A-Z_]{1,20}) firmware files(?: over vDMA)?\. err -?\d{1,5}/,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    fix: "the PCIe driver could not load the device's firmware from /lib/firmware (the file missing, too large or not of the driver's release), so the probe stopped and the device runs no firmware: install the firmware of the driver's own HailoRT release (Hailo's firmware package, or the file from the hailort-drivers release), then reload the driver (or reboot)",
    evidence:
      'hailo-ai/hailort-drivers common/pcie_common.c v4.21.0–v5.3.0 (hailo_pcie_write_firmware_batch: mandatory file, pr_err/hailo_dev_err, return err) and linux/pcie/src/pcie.c v4.20.1 (load_nnc_firmware: "Failed writing NNC firmware files. err %d")',
  },
  {
    // HailoRT's convert_errno_to_hailo_status logs the errno the PCIe driver answered an ioctl with and maps it to a status:
    // EFAULT is `Ioctl X failed due to invalid address` and HAILO_INVALID_OPERATION — the generic status hides that it
    // was the driver that could not reach the memory HailoRT handed it (a transfer's buffer or descriptor list not mapped
    // in the process any more: freed, unmapped, or released while a transfer of it was launched). The callers'
    // `CHECK_SUCCESS failed with status=HAILO_INVALID_OPERATION(6)` lines are this failure's (dfc-corpus unseen19/71).
    id: 'hailort-ioctl-invalid-address',
    text: 'Ioctl {ioctl} failed due to invalid address',
    tool: 'hailort',
    classes: [],
    patterns: [/\bIoctl (?<ioctl>HAILO_[A-Z0-9_]{1,60}) failed due to invalid address\b/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    statuses: ['HAILO_INVALID_OPERATION'],
    cause: 'invalid address',
    fix: "the PCIe driver refused the ioctl with EFAULT (invalid address): the memory HailoRT handed it — a transfer's buffer or its mapping — was not valid in the process when the transfer was launched; keep each buffer alive (and not reused) until its transfer's callback, use the buffers the API allocates or maps, and read the driver's log (dmesg | grep hailo) for the address it refused",
    evidence: `${HAILORT}/libhailort/src/vdma/driver/os/posix/linux/driver_os_specific.cpp (convert_errno_to_hailo_status: EFAULT, "Ioctl {} failed due to invalid address", HAILO_INVALID_OPERATION); dfc-corpus unseen19/71`,
  },
  {
    id: 'hailort-driver-version',
    text: 'Driver version ({driver}) is different from library version ({library})',
    tool: 'hailort',
    classes: [],
    patterns: [/Driver version \((?<driver>[\d.]+)\) is different from library version \((?<library>[\d.]+)\)/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/version-mismatch',
    fix: 'install the PCIe driver and HailoRT of one release (HailoRT opens a device only when both are the same version), then reboot',
    evidence: `${HAILORT}/libhailort/src/vdma/driver/hailort_driver.cpp (validate_driver_version, HAILO_INVALID_DRIVER_VERSION); roflcoopter/viseron#1490 (${CORPUS2}/38)`,
  },
  // The kernel's module loader answers a module it cannot load with an errno; modprobe prints its strerror
  // (`modprobe: ERROR: could not insert 'hailo_pci': Exec format error`), kmod's insmod its own words for some
  // (`Invalid module format` for ENOEXEC). ENOEXEC is a module built for another kernel or architecture: its
  // version magic or ELF header does not match the running kernel.
  {
    id: 'kernel-module-format',
    text: "modprobe: ERROR: could not insert '{module}': Exec format error",
    tool: 'hailort',
    classes: [],
    patterns: [
      /(?:could not insert|error inserting|failed to insert)\s+(?:module\s+)?'?(?<module>[\w./-]{1,200}?)'?\s*:\s*(?:-1\s+)?(?:Exec format error|Invalid module format)/i,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    fix: "the kernel refused the module as built for another kernel (or architecture) than the running one — compare `uname -r` with `modinfo <module>.ko | grep vermagic` (dmesg shows \"version magic '…' should be '…'\"), then rebuild the driver against the running kernel's headers (reinstall the PCIe driver package or its DKMS module) and load it again",
    evidence:
      'kmod tools/insmod.c (mod_strerror: ENOEXEC "Invalid module format") and tools/modprobe.c ("could not insert \'%s\': %s", strerror); Linux kernel/module/main.c (check_modinfo: "version magic \'%s\' should be \'%s\'", -ENOEXEC; elf_validity_check: -ENOEXEC)',
  },
  // modprobe looks a module up in /lib/modules/$(uname -r): a driver installed (or built by DKMS) for another kernel is
  // not found there (`modprobe: FATAL: Module hailo_pci not found in directory /lib/modules/6.6.51+rpt-rpi-2712`).
  {
    id: 'kernel-module-not-found',
    text: 'modprobe: FATAL: Module {module} not found in directory /lib/modules/{kernel}',
    tool: 'hailort',
    classes: [],
    patterns: [/(?:^|modprobe:\s*(?:FATAL|ERROR):\s*)Module\s+(?<module>[\w-]{1,100})\s+not found(?:\s+in directory\s+(?<path>\/\S{1,200})|\.?\s*$)/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    fix: 'no module of that name is installed for the running kernel (modprobe looks in /lib/modules/$(uname -r)): the driver was built or installed for another kernel — install the kernel headers of the running kernel and reinstall the PCIe driver package (or rebuild its DKMS module, `dkms status`), or boot the kernel it was built for',
    evidence:
      'kmod tools/modprobe.c ("Module %s not found in directory %s", the directory being /lib/modules/<uname -r>); dfc-corpus unseen11/19 (DKMS built for the v8 kernel, the Pi 5 ran 2712)',
  },
  {
    id: 'hailort-device-family',
    text: 'Hailo8 devices are only supported in versions 4.x.x and earlier',
    tool: 'hailort',
    classes: [],
    patterns: [/Hailo8 devices are only supported in versions 4\.x\.x and earlier/, /Hailo1X Devices are only supported in versions 5\.0\.0 and above/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/version-mismatch',
    fix: "this HailoRT does not run this device's family: the Hailo-8 family needs HailoRT 4.x (hailo_pci), the Hailo-10H HailoRT 5.x (hailo1x_pci) — install the runtime of the device's family",
    evidence: `${HAILORT}/libhailort/src/vdma/pcie/pcie_device.cpp (PcieDevice::create: 5.2.0 "Hailo8 devices are only supported in versions 4.x.x and earlier", 4.22.0 "Hailo1X Devices are only supported in versions 5.0.0 and above", HAILO_NOT_SUPPORTED)`,
  },
  {
    id: 'hailort-kv-cache-in-use',
    text: 'Failed to mark KV-Cache in use. KV-Cache is already in use by another model!',
    tool: 'hailort',
    classes: [],
    // The model's server says "…KV-Cache is already in use by another model!", the device manager under it "KV-Cache is already in use!".
    patterns: [/KV-Cache is already in use\b/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/out-of-physical-devices',
    fix: "another LLM or VLM holds the device (HailoRT's GenAI server runs one at a time): close the other chat or program (e.g. hailo-ollama), then try again",
    evidence: `${HAILORT}/hailort_server/genai/llm/llm_server.cpp and vlm/vlm_server.cpp (5.2.0); hailort_server.cpp (VDeviceManager::mark_kv_cache_in_use: "KV-Cache is already in use!", HAILO_INVALID_OPERATION)`,
  },
  {
    id: 'hailort-hef-dfc-version',
    text: 'DFC version from which this HEF was created ({dfc}) is different from library version ({library}), which is not allowed for this model.',
    tool: 'hailort',
    classes: [],
    patterns: [/DFC version from which this HEF was created \((?<dfc>[\d.]+)\) is different from library version \((?<library>[\d.]+)\)/],
    statuses: ['HAILO_INVALID_HEF'],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/version-mismatch',
    fix: 'compile the HEF with the DFC of the installed HailoRT release, or install the HailoRT of the DFC that compiled it',
    evidence: `${HAILORT}/libhailort/src/hef/hef.cpp`,
  },
  {
    id: 'hailort-hef-header-version',
    text: 'HEF version does not match',
    tool: 'hailort',
    classes: [],
    patterns: [/\bHEF version does not match\b/],
    // HAILO_INVALID_HEF in hef.cpp's check; the real 4.18–4.19 libraries answered HAILO_INTERNAL_FAILURE (docs/hef-inspector.md).
    statuses: ['HAILO_INVALID_HEF', 'HAILO_INTERNAL_FAILURE'],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/version-mismatch',
    fix: "the HEF's header carries a HEF format version this HailoRT does not read: the HEF was compiled by a DFC of another generation than the installed HailoRT — compile it with the DFC of the installed HailoRT's release, or install the HailoRT release the HEF was made for (hailo-tools hef shows the HEF's version)",
    evidence: `${HAILORT}/libhailort/src/hef/hef.cpp (the HEF header's checks: CHECK(HEADER_VERSION == header.version, HAILO_INVALID_HEF, "HEF version does not match")); docs/hef-inspector.md (4.18–4.19 read a HEF of a later header version as V1 and refuse it with this message)`,
  },
  {
    id: 'hailort-genai-hef-version',
    text: 'Failed to create LLM with status HAILO_INVALID_HEF(26). Check device logs for more details.',
    tool: 'hailort',
    classes: [],
    // The client's own line (`Failed to create LLM with status …`), and HailoRT's CHECK_SUCCESS form with the status
    // first (`CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26) - Failed to create LLM`: common/utils.hpp's
    // _CONSTRUCT_MSG puts the caller's message after ` - `; dfc-corpus unseen6/12), named or numbered.
    patterns: [
      /Failed to create (?<model>LLM|VLM|Speech2Text|Text2Image)\b[^:]*?\bstatus[ =:]*(?<status>HAILO_INVALID_HEF)\b/,
      /\bstatus[ =:]*(?<status>HAILO_INVALID_HEF)\b(?:\(\d+\))? ?- ?Failed to create (?<model>LLM|VLM|Speech2Text|Text2Image)\b/,
      /\bstatus[ =:]*(?<value>26)\b(?![.\d]) ?- ?Failed to create (?<model>LLM|VLM|Speech2Text|Text2Image)\b/,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/version-mismatch',
    fix: "a GenAI model's HEF is bound to one HailoRT release: HailoRT refuses it (HAILO_INVALID_HEF) when the DFC that compiled it is of another major.minor version than the installed HailoRT — download (or compile) the model's HEF for the installed HailoRT release, or install the release the HEF was made for; the device's log names both versions",
    evidence: `${HAILORT}/libhailort/src/genai/llm/llm.cpp and vlm/vlm.cpp ("Failed to create LLM/VLM with status {}. Check device logs for more details."); hef.cpp (STRICT_RUNTIME_VERSIONING → validate_hef_version: HAILO_INVALID_HEF when the HEF's DFC major.minor differs from the library's), core_op/resource_manager/resource_manager_builder.cpp (checked before configuring the models); a hailo-apps agent note "HAILO_INVALID_HEF — Re-download HEF for Current HailoRT Version" (test/fixtures/dfc-corpus/unseen/31)`,
  },
  {
    id: 'hailort-hef-extensions',
    text: 'Failed opening non-compatible HEF with the following unsupported extensions: {extensions}',
    tool: 'hailort',
    classes: [],
    patterns: [
      /non-compatible HEF with the following unsupported extensions:\s*(?<why>.*?)\s*$/,
      /Failed opening non-compatible HEF that uses the following deprecated features:\s*(?<why>.*?)\s*$/,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/hef-rejected',
    fix: "the HEF uses features this HailoRT does not have: it was compiled by a DFC of another (newer) release — run it with the HailoRT of the DFC that compiled it, or compile it with the DFC of this HailoRT's release",
    evidence: `${HAILORT}/libhailort/src/hef/hef.cpp (CHECK(unsupported_extensions.empty(), HAILO_HEF_NOT_SUPPORTED, …)); hailo-ai/hailo_model_zoo#29`,
  },
  {
    id: 'hailort-hef-arch',
    text: 'HEF format is not compatible with device. Device arch: {device}, HEF arch: {hef}',
    tool: 'hailort',
    classes: [],
    patterns: [
      /HEF format is not compatible with device\. Device arch: (?<device>[^,]+), HEF (?:arch|compatible for): (?<hef>.*?)\s*$/,
      /HEF file is not compatible with device/,
    ],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/hef-device-mismatch',
    fix: "compile the HEF for the device's architecture (the DFC's --hw-arch: hailo8, hailo8l, hailo10h, …)",
    evidence: `${HAILORT}/libhailort/src/device_common/device_internal.cpp (4.17–4.23 "HEF arch", 5.x "HEF compatible for"); pyhailort.py (HailoRTHEFNotCompatibleWithDevice)`,
  },
  {
    id: 'hailort-hef-arch-lower-performance',
    text: 'HEF was compiled for {hef} device, while the device itself is {device}. This will result in lower performance.',
    tool: 'hailort',
    classes: [],
    patterns: [/HEF was compiled for (?<hef>\w+) device, while the device itself is (?<device>\w+)/],
    stage: 'runtime',
    severity: 'warning',
    code: 'hailort/hef-device-mismatch',
    fix: "it runs, slower: compile the HEF for the device's own architecture for its full speed",
    evidence: `${HAILORT}/libhailort/src/device_common/device_internal.cpp (LOGGER__WARNING, 4.22.0)`,
  },
  {
    id: 'hailort-desc-page-size',
    text: 'max_desc_page_size given {given} is bigger than hw max desc page size {max}',
    tool: 'hailort',
    classes: [],
    patterns: [/max_desc_page_size given (?<given>\d+) is bigger than hw max desc page size (?<max>\d+)/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/driver',
    fix: 'the PCIe driver set a DMA descriptor page size larger than this HailoRT accepts (the driver sets it at probe from the kernel\'s page size, 16384 on a 16K-page kernel; dmesg shows "max_desc_page_size"): make the driver use 4096-byte pages with its module parameter force_desc_page_size — `options hailo_pci force_desc_page_size=4096` in /etc/modprobe.d/hailo_pci.conf (hailo1x_pci for Hailo-10H/15), then reload the driver or reboot (it prints "Force setting max_desc_page_size to 4096" when it does) — or install driver and HailoRT of one release',
    evidence: `${HAILORT}/libhailort/src/vdma/memory/buffer_requirements.cpp (4.18.0, HAILO_INTERNAL_FAILURE); hailo-ai/hailort-drivers linux/pcie/hailo_pci.conf ("#options hailo_pci force_desc_page_size=4096": "needs to be set on platforms that does not support large pcie transactions"); raspberrypi/firmware#1895 and geerlingguy/raspberry-pi-pcie-devices#164 (the driver's probe lines); SEAME-pt/Team5_Senna_Tech#224`,
  },
  {
    id: 'hailort-open-file',
    text: 'Failed opening file, path: {path}',
    tool: 'hailort',
    classes: [],
    patterns: [/Failed opening file, path:\s*(?<path>.*?)\s*$/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/hef-rejected',
    fix: "the path HailoRT was given does not open (wrong, relative to another directory, unreadable, or empty): pass the HEF's full path",
    evidence: `${HAILORT}/common/file_utils.cpp (CHECK(…, HAILO_OPEN_FILE_FAILURE, "Failed opening file, path: {}"))`,
  },
  {
    id: 'hailort-python-timeout',
    text: 'Received a timeout - hailort has failed because a timeout had occurred',
    tool: 'hailort',
    classes: [],
    patterns: [/Received a timeout - hailort has failed because a timeout had occurred/],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/timeout',
    fix: HAILORT_FIXES['hailort/timeout'],
    evidence: `${HAILORT}/libhailort/bindings/python/platform/hailo_platform/pyhailort/pyhailort.py (HAILO_TIMEOUT → HailoRTTimeout)`,
  },
  // Every status of hailort.h by its family, named or numbered (`HAILO_TIMEOUT(4)`, `status=26`).
  ...(Object.keys(HAILORT_FAMILIES) as HailortFamilyCode[])
    .filter((code) => code !== 'hailort/out-of-physical-devices')
    .map((code): DfcMessage => ({
      id: code === 'hailort/hef-rejected' ? 'hailort-hef-rejected' : `hailort-${code.slice(8)}-status`,
      text: `${HAILORT_FAMILIES[code as keyof typeof HAILORT_FAMILIES].map((n) => `HAILO_${n}`).join(' / ')}`,
      tool: 'hailort',
      classes: pyhailortClasses(code),
      anyMessage: pyhailortClasses(code).length > 0,
      patterns: [statusPattern(code)],
      stage: 'runtime',
      severity: 'error',
      code,
      fix: HAILORT_FIXES[code],
      evidence: `${HAILORT}/libhailort/include/hailo/hailort.h (HAILO_STATUS_VARIABLES, v5.2.0)${code === 'hailort/hef-rejected' ? '; ../shared/corpus/hef/libhailort-5.2.0/mutants.tsv (what the real libhailort 5.2.0 answered for damaged HEFs)' : ''}`,
    })),
  {
    id: 'hailort-status',
    text: 'CHECK_SUCCESS failed with status=HAILO_{NAME}({n})',
    tool: 'hailort',
    // pyhailort's classes of statuses in no family; `HailoRTStatusException: N` is read by its number (explain.ts).
    classes: pyhailortClasses('hailort/status'),
    anyMessage: true,
    patterns: [statusPattern('hailort/status')],
    stage: 'runtime',
    severity: 'error',
    code: 'hailort/status',
    fix: HAILORT_FIXES['hailort/status'],
    evidence: `${HAILORT}/libhailort/include/hailo/hailort.h (HAILO_STATUS_VARIABLES, v5.2.0)`,
  },
];

const BY_ID = new Map(DFC_MESSAGES.map((m) => [m.id, m]));

/** The catalogue entry of an id (a missing id is a programming error, caught by the tests). */
export function dfcMessage(id: string): DfcMessage {
  const m = BY_ID.get(id);
  if (!m) throw new Error(`no DFC message '${id}' in the catalogue`);
  return m;
}

/** The message's text with its `{name}`s filled (what other modules quote as evidence). */
export function quoteDfc(id: string, values: Record<string, string> = {}): string {
  return dfcMessage(id).text.replace(/\{(\w+)\}/g, (all, k: string) => values[k] ?? all);
}

export interface MessageMatch {
  message: DfcMessage;
  /** The named groups of the pattern that matched (empty strings dropped). */
  names: Record<string, string>;
  /** Where the match starts in the text. */
  index: number;
}

/**
 * Words every match of an entry's patterns contains: a substring test per entry before its
 * patterns run (most lines of a log say none of these; one alternation of all patterns cost more
 * than the whole reader). The catalogue test checks that every entry with patterns has its words.
 */
export const MESSAGE_KEYS: Readonly<Record<string, readonly string[]>> = {
  'misspelled-node': ['node name'],
  'end-node-absorbed': ['missing in the HN'],
  'unsupported-layer': [' in op ', 'translated from'],
  'layer-requirement': ['requires'],
  'parsing-failed-list': ['Parsing failed'],
  'parser-recommendation': ['end node names'],
  'parser-prompt': ['parse again'],
  'end-nodes-retried': ['retrying parsing'],
  'reshape-format': ['is not in list'],
  broadcast: ['broadcast together'],
  'elementwise-input-shapes': ['match each other'],
  'model-script-syntax': ['Parsing failed at:', '(line:'],
  'no-argument-named': ['No argument named'],
  'unsupported-value': ['Unsupported value'],
  'config-path-and-arguments': ['Both config path'],
  'bbox-conv-infer': ['bbox conv'],
  'nms-last-layers': ['expected conv'],
  'nms-config-not-found': ['config file'],
  'nms-layer-missing': ["doesn't exist in the HN"],
  'nms-meta-arch': ['NMSMetaArchitectures'],
  'optimizer-enum-value': ['is not a valid'],
  'gpu-memory': ['GPU memory', 'OOM when'],
  'wraparound-a16w4': ['set_wraparound_loss'],
  'hn-input-key': ['/input_layer'],
  'inference-shapes': ['Inference input shapes'],
  'calibration-shape': ['Data shape'],
  'optimization-level-0': ['optimization level to 0'],
  'ultralytics-calibration-size': ['level-2 optimization will use'],
  'calibration-range': ['not be normalized'],
  'input-not-normalized': ['expected normalized data', 'Mean or std are', 'normalized distribution', 'normalized twice'],
  'not-quantized': ['quantized weights'],
  'quantization-failed': ['Quantization failed in layer', 'Desired shift is'],
  'shift-delta': ['shift delta', 'Shift delta'],
  'nan-params': ['NaN values'],
  'system-requirements': [
    'GB of RAM',
    'Unsupported release',
    'System requirements check',
    'Requirement ',
    'or higher, found',
    'below recommended',
    'Missing package: ',
    'CPU architecture',
    'in this CPU',
  ],
  'mapping-failed': ['Mapping Failed'],
  'compile-exception': ['Compilation failed with exception'],
  'no-successful-assignments': ['successful assignments'],
  'agent-infeasible': ['Agent infeasible'],
  'nms-config-postprocess': ["doesn't have one output layer"],
  'meta-arch-on-chip': ['cannot be run on chip'],
  'driver-firmware-missing': ['Firmware file not found'],
  'driver-file-write-warning': ['Failed to write file'],
  'driver-firmware-write-failed': ['to write file', 'firmware files'],
  'memory-units-capacity': ['Memory units capacity'],
  'resource-capacity': ['capacity exceeded'],
  'resources-presolve': ['presolve failed'],
  'reshape-needed': ['Reshape is needed'],
  'automri-context': ['too many resources'],
  'partition-failed': ['valid partition'],
  'too-many-scs': ['too many SCs'],
  'kernel-validation': ['kernel validation'],
  'resources-calculation': ['resources calculation'],
  'apus-over': ['APUs'],
  'microcode-size': ['microcode'],
  'required-fps': ['required FPS'],
  'performance-flow-resources': ['Performance Flow'],
  'no-valid-partition': ['valid partition'],
  'builder-status': ['Builder fail'],
  'interrupted-by-user': ['by user', 'by the user'],
  'too-many-lcus': ['Layer-Controllers'],
  'single-context': ['Context switch is disabled'],
  'save-resources': ['save enough resources'],
  'context-partition': ['Context-Partition'],
  'compiler-assertion': ['Assertion', 'unexpected crash', 'compiled graph'],
  'broken-install': ['symbol lookup'],
  docker: ['docker', 'Docker', 'Unable to find image', 'Error response from daemon'],
  'hailort-buffer-size-zero': ['buffer size 0'],
  'hailort-buffer-size': ['buffer size'],
  'hailort-out-of-physical-devices': ['HAILO_', 'status', 'free devices'],
  'hailort-no-devices': ['No devices found'],
  'hailortcli-scan-none': ['Hailo devices not found'],
  'hailort-network-already-activated': ['already activated'],
  'hailort-ioctl-invalid-address': ['invalid address'],
  'hailort-driver-version': ['Driver version'],
  'hailort-hef-dfc-version': ['HEF was created'],
  'hailort-hef-header-version': ['HEF version'],
  'hailort-device-family': ['devices are only supported', 'Devices are only supported'],
  'hailort-kv-cache-in-use': ['KV-Cache'],
  'hailort-llm-context-full': ['context is full'],
  'hailort-sram-full': ['SRAM_MEMORY_FULL', 'maximum device internal memory'],
  'hailort-unaligned-buffer': ['unaligned buffer'],
  'hailort-genai-hef-version': ['Failed to create'],
  'hailort-hef-extensions': ['non-compatible HEF'],
  'hailort-hef-arch': ['not compatible with device'],
  'hailort-hef-arch-lower-performance': ['HEF was compiled for'],
  'hailort-desc-page-size': ['max_desc_page_size'],
  'kernel-module-format': ['Exec format error', 'Invalid module format'],
  'kernel-module-not-found': ['Module'],
  'hailort-open-file': ['Failed opening file'],
  'hailort-python-timeout': ['Received a timeout'],
  ...Object.fromEntries(
    (Object.keys(HAILORT_FAMILIES) as HailortFamilyCode[]).map((code) => [
      code === 'hailort/hef-rejected' ? 'hailort-hef-rejected' : `hailort-${code.slice(8)}-status`,
      ['HAILO_', 'status'],
    ]),
  ),
  'hailort-status': ['HAILO_', 'status'],
};

/** Any entry's words at all: one test before the entries (most lines of a log say none). */
const ANY_KEY = new RegExp(
  Object.values(MESSAGE_KEYS)
    .flat()
    .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/**
 * Where any key begins in a line (a lookahead tries every key at each place): a key is in the line exactly when it
 * begins at one of these, so each entry's keys are tried there and not searched for through the whole line.
 */
const KEY_STARTS = new RegExp(`(?=${ANY_KEY.source})`, 'g');
/** More places than this (a line made of keys): each key is searched for as before. */
const MAX_KEY_STARTS = 8;

function keyStarts(text: string): number[] {
  const at: number[] = [];
  KEY_STARTS.lastIndex = 0;
  for (let m = KEY_STARTS.exec(text); m && at.length <= MAX_KEY_STARTS; m = KEY_STARTS.exec(text)) {
    at.push(m.index);
    KEY_STARTS.lastIndex = m.index + 1;
  }
  return at;
}

const KEYED = DFC_MESSAGES.filter((m) => !m.frames && m.patterns.length).map((m) => ({ m, keys: MESSAGE_KEYS[m.id] ?? [] }));

/**
 * Each message's first sentences where more of it follows (`HEF format is not compatible with device.` before
 * `Device arch: …`): a line ending in one was cut where its program or its author broke the line (dfc-corpus unseen5/06).
 */
const SENTENCE_HEADS: readonly string[] = DFC_MESSAGES.flatMap((m) => {
  const literal = m.text.split('{')[0];
  const heads: string[] = [];
  for (let i = literal.indexOf('. '); i >= 20; i = literal.indexOf('. ', i + 1)) heads.push(literal.slice(0, i + 1));
  return heads;
});

/** Whether `text` ends with a catalogue message cut at one of its sentence ends (the rest is on the next line). */
export function endsAtMessageSentence(text: string): boolean {
  if (!text.endsWith('.')) return false;
  for (const h of SENTENCE_HEADS) if (text.endsWith(h)) return true;
  return false;
}

/**
 * A catalogue message a line break cut between two of its words (`… refused outright: *"The specified meta architecture
 * yolov8` / `cannot be run on chip."*`, dfc-corpus unseen25/74): known by the message's own words, not by where or why
 * the line was broken — an author's fill, the same fill behind a relay's prefix, a re-wrap at another word all leave the
 * message's words in order across the break. A line is cut in a message when its last words are the message's first
 * (a `{name}` stands for any one word; a leading `Class:` may be left out) and the message goes on with a word of its
 * own; the next line goes on with it when its first words are the words that follow — CUT_EVIDENCE of the message's own
 * words on the two sides together, so a break after its first word (`*"The` / `specified meta architecture …`) is one too.
 */
export interface MessageCut {
  /** The message's words (cores, `null` where the message varies). */
  words: readonly (string | null)[];
  /** The index of the first word the line did not hold. */
  next: number;
  /** How many of the message's own words (not its `{name}` parts) the line held. */
  own: number;
}

/** The message's own words the two sides of a break show together, at least. */
const CUT_EVIDENCE = 4;

/** A word as compared: its letters, digits and inner punctuation, lower case; '' for punctuation alone (`—`, `*"`). */
function wordCore(w: string): string {
  // Most words are letters and digits alone: no pattern to run.
  let plain = true;
  for (let i = 0; i < w.length && plain; i++) {
    const c = w.charCodeAt(i);
    const l = c | 32;
    plain = (l >= 97 && l <= 122) || (c >= 48 && c <= 57);
  }
  return (plain ? w : w.replace(CORE_EDGES, '')).toLowerCase();
}
const CORE_EDGES = /^[^\p{L}\p{N}{_]+|[^\p{L}\p{N}}_]+$/gu;

/** Where a line that ends inside a message ends: at its word `at` (its words up to there are the line's last ones). */
interface CutPlace {
  words: readonly (string | null)[];
  at: number;
}

/**
 * Every place a message may be cut, found from a line's end: by the message's word the line ends with, or — where the
 * line ends with a `{name}`'s value — by the word before it. A message is taken from its first word, or after its leading
 * `Class:` (`UnsupportedMetaArchError: The specified …`: authors quote either), its first two words its own.
 */
const CUT_PLACES = (() => {
  const byLast = new Map<string, CutPlace[]>();
  const byBeforeLast = new Map<string, CutPlace[]>();
  const add = (m: Map<string, CutPlace[]>, w: string, p: CutPlace) => {
    const list = m.get(w) ?? [];
    list.push(p);
    m.set(w, list);
  };
  for (const m of DFC_MESSAGES) {
    const tokens = m.text.split(/\s+/);
    const all = tokens.map((t) => (t.includes('{') ? null : wordCore(t))).filter((w) => w !== '');
    const starts = tokens[0].endsWith(':') && tokens.length > 1 ? [0, 1] : [0];
    for (const s of starts) {
      const words = all.slice(s);
      if (words.length < 3 || words[0] === null || words[1] === null) continue;
      // The line holds words[0..at]; the rest must hold a word of its own for the next line to show.
      for (let at = 0; at < words.length - 1; at++) {
        if (!words.slice(at + 1).some((w) => w !== null)) break;
        const w = words[at];
        if (w !== null) add(byLast, w, { words, at });
        else if (words[at - 1] !== null) add(byBeforeLast, words[at - 1]!, { words, at });
      }
    }
  }
  return { byLast, byBeforeLast };
})();

/** A line's words from its end, made as they are asked for (a line is mostly compared by its last one or two). */
class WordsFromEnd {
  private readonly cores: string[] = [];
  private end: number;
  constructor(private readonly text: string) {
    this.end = text.length;
  }

  /** The `j`th word from the end (0: the last), or null past the line's start. */
  get(j: number): string | null {
    while (this.cores.length <= j) {
      const t = this.text;
      let e = this.end;
      while (e > 0 && isSpace(t.charCodeAt(e - 1))) e--;
      if (e === 0 || this.cores.length >= MAX_CUT_WORDS) return null;
      let b = e;
      while (b > 0 && !isSpace(t.charCodeAt(b - 1))) b--;
      this.end = b;
      const c = wordCore(t.slice(b, e));
      if (c) this.cores.push(c);
    }
    return this.cores[j];
  }
}
/** A space, a tab or another of `\\s`'s (read by code: a pattern per character costs more than the line). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}
/** A message is compared over at most this many of a line's last words. */
const MAX_CUT_WORDS = 64;

/** The catalogue message `text` ends inside of (its first words run to the line's end and it goes on), or null. */
export function messageCutIn(text: string): MessageCut | null {
  const words = new WordsFromEnd(text);
  const last = words.get(0);
  if (last === null) return null;
  let best: CutPlace | null = null;
  const held = (p: CutPlace): boolean => {
    for (let k = p.at; k >= 0; k--) {
      const w = words.get(p.at - k);
      if (w === null || (p.words[k] !== null && p.words[k] !== w)) return false;
    }
    return true;
  };
  // The longest run: the message that begins earliest in the line.
  for (const p of CUT_PLACES.byLast.get(last) ?? []) if ((!best || p.at > best.at) && held(p)) best = p;
  const beforeLast = words.get(1);
  if (beforeLast !== null) for (const p of CUT_PLACES.byBeforeLast.get(beforeLast) ?? []) if ((!best || p.at > best.at) && held(p)) best = p;
  if (!best) return null;
  let own = 0;
  for (let k = 0; k <= best.at; k++) if (best.words[k] !== null) own++;
  return { words: best.words, next: best.at + 1, own };
}

/** The line goes on with the cut message: its first words (up to four) are the message's next ones, CUT_EVIDENCE own words in all. */
export function goesOnWithMessage(cut: MessageCut, text: string): boolean {
  const want = Math.min(4, cut.words.length - cut.next);
  const n = text.length;
  let own = 0;
  for (let j = 0, i = 0; j < want;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    let e = i;
    while (e < n && !isSpace(text.charCodeAt(e))) e++;
    const c = wordCore(text.slice(i, e));
    i = e;
    if (!c) continue;
    const w = cut.words[cut.next + j];
    if (w !== null && w !== c) return false;
    if (w !== null) own++;
    j++;
  }
  return own > 0 && cut.own + own >= CUT_EVIDENCE;
}

/** Exception classes of the catalogue: found anywhere in a line, with or without a module path. */
export const CATALOGUE_CLASSES: ReadonlySet<string> = new Set(DFC_MESSAGES.flatMap((m) => m.classes));
/** Classes that alone say what was refused (`anyMessage`): named as a sentence's last word, they report it. */
export const DISTINCT_CLASSES: ReadonlySet<string> = new Set(DFC_MESSAGES.filter((m) => m.anyMessage).flatMap((m) => m.classes));
const CLASS_FORMS = DFC_MESSAGES.filter((m) => m.anyMessage && m.classForm).map((m) => ({ m, form: m.classForm! }));

/** Whether a class alone says what was refused: a distinct class, or one of an entry's class form (`UnsupportedReduceSumLayerError`). */
export function isDistinctClass(cls: string): boolean {
  return DISTINCT_CLASSES.has(cls) || CLASS_FORMS.some((f) => f.form.test(cls));
}

/**
 * Entries told by the function that raised their class (`IndexError` in `_convert_axes_to_nhwc`), named together
 * in an author's words instead of a traceback (`IndexError em \`_convert_axes_to_nhwc\``, `_convert_axes_to_nhwc
 * raised an IndexError`, dfc-corpus unseen6/15): the class and the function within one clause, either first.
 */
/** Up to 60 characters of one clause: no `;`, `|` (a table's cell) or sentence end (a dot in `onnx_graph.py` is no end). */
const WITHIN_CLAUSE = '(?:[^.;|\\n]|\\.(?=\\S)){0,60}?';
const FRAMED = DFC_MESSAGES.filter((m) => m.frames).flatMap((m) =>
  m.frames!.flatMap((fn) =>
    m.classes.map((cls) => ({
      fn,
      cls,
      re: new RegExp(`\\b${cls}\\b${WITHIN_CLAUSE}\\b${fn}\\b|\\b${fn}\\b${WITHIN_CLAUSE}\\b${cls}\\b`),
    })),
  ),
);

/** The class and raising function an author names together in a line (FRAMED), with where they stand. */
export function framedMention(text: string): { cls: string; frame: string; index: number } | null {
  for (const f of FRAMED) {
    if (!text.includes(f.fn)) continue;
    const x = f.re.exec(text);
    if (x) return { cls: f.cls, frame: f.fn, index: x.index };
  }
  return null;
}

/**
 * The catalogue entry a message is, given its exception class (null: a line without one) and the
 * traceback's function names. Entries that need a class or frames are tried only with them; an
 * entry whose patterns match wins in catalogue order, so specific entries stand before generic ones.
 */
export function matchDfcMessage(text: string, cls: string | null = null, frames: readonly string[] = []): MessageMatch | null {
  // The reader asks several times about one line (is it open? what does it say? is its warning known?), a held line
  // again when the next one is read, and a sentence's words between: the last answers are kept.
  if (cls === null) for (let i = 0; i < RECENT; i++) if (recentText[i] === text) return recentMatch[i];
  const m = matchUncached(text, cls, frames);
  if (cls === null) {
    recentText[recentNext] = text;
    recentMatch[recentNext] = m;
    recentNext = (recentNext + 1) % RECENT;
  }
  return m;
}

const RECENT = 4;
const recentText: (string | null)[] = new Array<string | null>(RECENT).fill(null);
const recentMatch: (MessageMatch | null)[] = new Array<MessageMatch | null>(RECENT).fill(null);
let recentNext = 0;

function matchUncached(text: string, cls: string | null, frames: readonly string[]): MessageMatch | null {
  if (text.length < 8 && !cls) return null;
  const found = (message: DfcMessage, x: RegExpExecArray | null): MessageMatch => {
    const names: Record<string, string> = {};
    for (const [k, v] of Object.entries(x?.groups ?? {})) if (v) names[k] = v;
    return { message, names, index: x?.index ?? 0 };
  };
  // A class the traceback shows with the function that raised it (IndexError is many things).
  if (cls) for (const m of DFC_MESSAGES) if (m.frames && m.classes.includes(cls) && m.frames.some((f) => frames.includes(f))) return found(m, null);
  const starts = ANY_KEY.test(text) ? keyStarts(text) : null;
  for (const { m, keys } of starts ? KEYED : []) {
    let has = false;
    for (const k of keys) {
      if (starts!.length > MAX_KEY_STARTS ? text.includes(k) : starts!.some((at) => text.startsWith(k, at))) {
        has = true;
        break;
      }
    }
    if (!has) continue;
    for (const p of m.patterns) {
      const x = p.exec(text);
      if (x) return found(m, x);
    }
  }
  // A distinctive class identifies its message whatever the text (a message the DFC reworded).
  if (cls) for (const m of DFC_MESSAGES) if (m.anyMessage && m.classes.includes(cls)) return found(m, null);
  if (cls) for (const f of CLASS_FORMS) if (f.form.test(cls)) return found(f.m, null);
  return null;
}

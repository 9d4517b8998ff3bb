// What the extension (client/) may use of the server side, imported as `@hailo/api` (a tsconfig
// path; esbuild bundles it into dist/client.js). The client never imports a server file by
// relative path (eslint enforces it): it gets the pure cores it runs in the extension host, the
// protocol it speaks to the language server, and the shared lists — nothing of lsp/ or cli/.
// Add an export here when the client needs something new; keep it small.
export {
  bufferSource,
  checkMtmdSource,
  fileSource,
  hefJson,
  isIntact,
  readHef,
  readHefFile,
  readResource,
  shapeString,
  HAILO_CONFIG,
  type ByteSource,
  type HefReport,
  type MtmdResult,
  type StreamInfo,
  type VStreamInfo,
} from './hef';
export { GRAPH_LANGUAGE_ID, GRAPH_SCHEME, GRAPH_SUFFIX, graphUriForPath, pathForGraphUri } from './onnx/viewUri';
export { HW_ARCHES, archDevice, type HwArch } from './common/arch';
export { resolveSettings, type HailoSettings } from './common/settings';
export { mintTrustToken, type TrustToken } from './common/trust';
// device runs and the float reference (issue 9)
export { DeviceClient, DeviceRequestError, type DeviceClientEvent } from './device/client';
export { errorFromKind } from './device/errors';
export { hefRefusal, verdictForRuntime } from './device/hefGate';
export { checkArchitecture } from './device/names';
export { archMismatchSentence, parseVersion, hefRunsOnDevice } from './device/hailortVersions';
export { DEFAULT_OPEN_OPTIONS } from './device/protocol';
export type {
  DeviceError,
  DeviceErrorKind,
  DeviceInfo,
  FpsPoint,
  InputSpec,
  IoFormat,
  OutputStats,
  RunOptions,
  RunReport,
  RuntimeInfo,
  ScanResult,
} from './device/protocol';
export { compareWithReference, type ReferenceComparison } from './accuracy/reference';
export type { ErrorMetrics } from './accuracy/metrics';
export { findModelFiles, readReferenceModel } from './accuracy/modelFiles';
export { locateOnnxRuntime, runOnnxInWorker } from './accuracy/ortProcess';
// the calibration-set inspector (issue 12)
export { calibContext } from './calib/context';
export { calibJson, CalibReadError, inspectCalibrationSet, type CalibReport } from './calib/inspect';
// one table of every oracle (issue 12)
export { compareOracles, CompareError, type CompareInputs } from './accuracy/compare';
export { runEmulator, EMULATOR_CONTEXTS, type EmulatorContext } from './accuracy/emulator';
export { deviceOutputs } from './accuracy/deviceOracle';
export type { AccuracyDocument, OutputTable } from './accuracy/oracles';
export { trustedLauncher } from './compile/launcher';
export { KILL_GRACE_MS, signalGroup } from './compile/process';
export * from './protocol';
// DFC logs: the reader the Explain DFC Log command (and the compile command) run in the extension host
export { streamTextFile, readTextPrefix, readSmallFileSync, confinedOrUndefined, isInside } from './common/fileAccess';
export { TerminalStreamEscaper } from './common/escape';
export { DfcLogReader, onnxNodeIndex, reportText, type DfcDiagnostic, type DfcEvent, type DfcLogContext, type DfcReport } from './dfc';
export { analyzeOnnx } from './onnx/analysis';
export { inspectHefNms, type NmsInspection } from './nms/bundle';
export { setOpenedFolders } from './alls/nodeHost';
export { readOnnxFile } from './onnx/reader';
// compiling through the DFC container and reading its console (issue 8)
export { compileModel, LOG_SUFFIX, type CompileOutcome, type CompileReport, type HefCheck } from './compile/session';
export { hostUser } from './compile/launcher';
export { findLeftovers, removeContainers, type CompileContainer } from './compile/leftovers';
export type { CompileInputs } from './compile/inputs';
export type { DockerSettings, Gpus, CompileRun } from './compile/runner';
export { CompilePool, type PoolJob } from './compile/pool';
// sweeps across docker contexts, one table (issue 23)
export { readPlan, PlanError, PLAN_SUFFIX, type SweepPlan } from './sweep/plan';
export { runSweep, DOCUMENT_FILE, CSV_FILE, type SweepEnv, type DeviceMeasure } from './sweep/run';
export { measureOnDevice } from './sweep/deviceMeasure';
export { allFinished, columns, sortRows, sweepCsv, summaryLine, type SweepDocument, type SweepRow, type ContextRow } from './sweep/table';
export { stripAnsi, type DfcFix } from './dfc';
// GenAI chat on the device (issue 13)
export { ChatSession, type Answer, type Turn } from './genai/session';
export {
  PARAM_RULES,
  parseParam,
  imageToFrame,
  FrameError,
  turnMessages,
  transcriptMarkdown,
  encodeContextFile,
  decodeContextFile,
  classifyGenAiFile,
  type Frame,
  type TranscriptTurn,
  type ParamName,
} from './genai';
export type { ChatContext, ChatModelInfo, ChatStats, ChatEndReason, GeneratorParams } from './device/protocol';

// setup doctor (issue 19)
export { runDoctor, type DoctorReport, type Finding } from './doctor';
export { doctorMarkdown, counts as doctorCounts } from './doctor/text';

// The HAR view, layer noise analysis and its 16-bit line (issue 22).
export { readHarView, type HarViewDocument, type HarViewLayer } from './har/harView';
export { findOnnxBeside } from './har/modelResolver';
export { readHar } from './har/harReader';
export { noiseSidecarPath, sixteenBitLine, type LayerNoise, type NoiseReport } from './har/noise';
export { analyzeNoise, calibrationBeside, type NoiseOutcome } from './noise/noiseRun';
export { sixteenBitEdit } from './alls/noisyLayers';
export { checkText } from './alls/rules';

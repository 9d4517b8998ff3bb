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
} from './core/hef';
export { GRAPH_LANGUAGE_ID, GRAPH_SCHEME, GRAPH_SUFFIX, graphUriForPath, pathForGraphUri } from './core/onnx/viewUri';
export { HW_ARCHES, archDevice, type HwArch } from './core/common/arch';
export { resolveSettings, type HailoSettings } from './core/common/settings';
export { mintTrustToken, type TrustToken } from './core/common/trust';
// device runs and the float reference (issue 9)
export { DeviceClient, DeviceRequestError, type DeviceClientEvent } from './processes/device/client';
export { errorFromKind } from './core/device/errors';
export { gateBeforeRun, type GateArch } from './core/device/runGate';
export { DEFAULT_OPEN_OPTIONS } from './core/device/protocol';
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
} from './core/device/protocol';
export { compareWithReference, type ReferenceComparison } from './core/accuracy/reference';
export type { ErrorMetrics } from './core/accuracy/metrics';
export { findModelFiles, readReferenceModel } from './core/accuracy/modelFiles';
export { locateOnnxRuntime, runOnnxInWorker } from './processes/accuracy/ortProcess';
// the calibration-set inspector (issue 12)
export { calibContext } from './core/calib/context';
export { calibJson, CalibReadError, inspectCalibrationSet, type CalibReport } from './core/calib/inspect';
// one table of every oracle (issue 12)
export { compareOracles, CompareError, type CompareInputs } from './processes/accuracy/compare';
export { runEmulator, EMULATOR_CONTEXTS, type EmulatorContext } from './processes/accuracy/emulator';
export { deviceOutputs } from './processes/accuracy/deviceOracle';
export type { AccuracyDocument, OutputTable } from './core/accuracy/oracles';
export { trustedLauncher } from './processes/compile/launcher';
export { KILL_GRACE_MS, signalGroup } from './processes/compile/process';
export * from './protocol';
// DFC logs: the reader the Explain DFC Log command (and the compile command) run in the extension host
export { isInside, FileAccessError } from './core/common/fileAccess';
// The confined file layer: the extension reaches files a folder names only through it (issue 29).
export { FileRoots } from './core/common/confined';
export { TerminalStreamEscaper } from './core/common/escape';
export { DfcLogReader, onnxNodeIndex, reportText, savedSummary, type DfcDiagnostic, type DfcEvent, type DfcLogContext, type DfcReport } from './core/dfc';
export { analyzeOnnx } from './core/onnx/analysis';
export { inspectHefNms, type NmsInspection } from './core/nms/bundle';
export { setOpenedFolders, setSkippedPathNote } from './core/alls/nodeHost';
export { confineModelPaths, modelFolderOf, MODEL_PATH_KEYS } from './core/common/settingPaths';
export { readOnnxFile } from './core/onnx/reader';
// compiling through the DFC container and reading its console (issue 8)
export { compileModel, LOG_SUFFIX, type CompileOutcome, type CompileReport, type HefCheck } from './processes/compile/session';
export { compileReportText } from './processes/compile/reportText';
export { hostUser } from './processes/compile/launcher';
export { findLeftovers, removeContainers, type CompileContainer } from './processes/compile/leftovers';
export type { CompileInputs } from './processes/compile/inputs';
export type { DockerSettings, Gpus, CompileRun } from './processes/compile/runner';
export { CompilePool, type PoolJob } from './processes/compile/pool';
// sweeps across docker contexts, one table (issue 23)
export { readPlan, PlanError, PLAN_SUFFIX, type SweepPlan } from './core/sweep/plan';
export { runSweep, DOCUMENT_FILE, CSV_FILE, type SweepEnv, type DeviceMeasure } from './processes/sweep/run';
export { measureOnDevice } from './processes/sweep/deviceMeasure';
export { allFinished, columns, sortRows, sweepCsv, summaryLine, type SweepDocument, type SweepRow, type ContextRow } from './core/sweep/table';
export { stripAnsi, type DfcFix } from './core/dfc';
// GenAI chat on the device (issue 13)
export { ChatSession, type Answer, type Turn } from './processes/genai/session';
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
  classifySpeechFile,
  transcribeMarkdown,
  transcribeSummary,
  type SpeechClass,
  type Frame,
  type TranscriptTurn,
  type ParamName,
} from './core/genai';
export type { ChatContext, ChatModelInfo, ChatStats, ChatEndReason, GeneratorParams, TranscribeResult } from './core/device/protocol';

// setup doctor (issue 19)
export { runDoctor, type DoctorReport, type Finding } from './core/doctor';
export { doctorMarkdown, counts as doctorCounts } from './core/doctor/text';

// The HAR view, layer noise analysis and its 16-bit line (issue 22).
export { readHarView, type HarViewDocument, type HarViewLayer } from './core/har/harView';
export { findOnnxBeside } from './core/har/modelResolver';
export { readHar } from './core/har/harReader';
export { noiseSidecarPath, sixteenBitLine, type LayerNoise, type NoiseReport } from './core/har/noise';
export { analyzeNoise, calibrationBeside, type NoiseOutcome } from './processes/noise/noiseRun';
export { sixteenBitEdit } from './core/alls/noisyLayers';
export { scriptTarget, type ScriptTarget } from './core/har/scriptTarget';
export { findDivergence, type DivergenceOutcome } from './processes/noise/divergenceRun';
export { bisectParser, type BisectOutcome, type BisectProgress, type FirstRefusal } from './processes/bisect/bisectRun';
export { bisectText } from './processes/bisect/text';
export { divergenceSidecarPath, saveDivergenceResults, type DivergenceResults, type DivergenceRow } from './core/har/divergenceResults';
export { checkText } from './core/alls/rules';
export { recipeForOnnx, writeRecipe, type RecipeOutcome } from './core/recipe/fromFiles';

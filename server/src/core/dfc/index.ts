// The DFC log reader core: pure (no I/O, no vscode). The CLI (`hailo-tools dfc-log`, `compile`),
// the runner and the VS Code commands are its callers.
export { DfcLogReader, readDfcLog } from './reader';
export { stripAnsi, LineSplitter, type LogLine } from './lines';
export { parseDuration } from './markers';
export * from './types';
export { onnxNodeIndex } from './onnxIndex';
export { nodeIndexFrom, ScriptLocator } from './locate';
export { DFC_CODES, type DfcCode } from './codes';
export { MEMORY_SETTING } from './explain';
export { reportText, savedSummary, escapeTerminal, jsonForTerminal, SAVED_LABEL } from './text';

// The GenAI chat core: is a HEF an LLM/VLM (classify), generator parameters in HailoRT's ranges,
// the JSON messages, images as VLM frames, the Markdown transcript and the saved-context file.
// Pure apart from classifyGenAiFile (reads the HEF); no vscode imports. session.ts is the host side.
export {
  classifyGenAi,
  classifyGenAiFile,
  parseGenAiConfig,
  GENAI_RESOURCES,
  type GenAiClass,
  type GenAiConfig,
  type GenAiFrameInput,
  type GenAiConfidence,
} from './classify';
export { PARAM_RULES, RANDOM_SEED, paramError, parseParam, paramMask, validateParams, type ParamName, type ParamRule } from './params';
export { countImageEntries, textMessage, turnMessages, userMessage, type Role } from './messages';
export { FrameError, imageToFrame, layoutFrame, type Frame } from './frames';
export { mdInline, transcriptMarkdown, type Transcript, type TranscriptTurn } from './transcript';
export { CONTEXT_MAGIC, decodeContextFile, encodeContextFile, type ContextHeader } from './contextFile';

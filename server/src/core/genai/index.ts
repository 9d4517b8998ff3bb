// The GenAI core: is a HEF an LLM/VLM (classify) or a speech-to-text model (speech), a recording as
// Speech2Text takes it (audio), generator parameters in HailoRT's ranges,
// the JSON messages, images as VLM frames, the Markdown transcript and the saved-context file.
// Pure apart from classifyGenAiFile and classifySpeechFile (read the HEF); no vscode imports. session.ts is the host side.
export {
  classifyGenAi,
  classifyGenAiFile,
  readHailoConfig,
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
export { classifySpeech, classifySpeechFile, SPEECH_CONFIG_KEYS, WHISPER_FIXED_GROUPS, type SpeechClass } from './speech';
export { AudioError, decodeSpeechAudio, SPEECH_SAMPLE_RATE, type AudioSource, type SpeechAudio } from './audio';
export { clock, segmentLines, transcribeMarkdown, transcribeSummary } from './speechReport';
export { deviceLine, healthWarnings, rateLine, type AnswerFigures } from './health';

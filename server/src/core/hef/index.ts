// The HEF core's public surface: read a HEF (container, integrity, body, resources), check the
// mtmd contract, render it as JSON or text. Pure: no vscode imports; used by server, client, CLI.
export { readHef, readHefFile, isIntact, type ReadOptions } from './read';
export { bufferSource, fileSource, withFileSource, type ByteSource } from './source';
export { checkMtmd, checkMtmdSource, streamSuffix, HAILO_CONFIG, MTMD_SLOTS, type MtmdResult, type MtmdRule, type MtmdOptions } from './mtmd';
export { readResource } from './resources';
export { hefJson } from './json';
export { describeHef, shapeString } from './describe';
export type * from './model';
export type { HefProblem } from './problems';
export type { HefContainer, HefSection } from './container';
export type { IntegrityReport, IntegrityCheck } from './integrity';
export {
  RUNTIME_LINES,
  verdictFor,
  verdictAt,
  rulesOf,
  holdsIn,
  lineOfRelease,
  hefVerdicts,
  targetLine,
  lineOfVersion,
  releaseRefusal,
  normalRelease,
  neededRelease,
  verdictSentence,
  hefStatusName,
  type RuntimeLine,
  type RuntimeRules,
} from './verdict';
export type { OpenMode, RuntimeLineId, RuntimeVerdict } from './types';
export { headlineVerdict, loadsInTarget } from './read';

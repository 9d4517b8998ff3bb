// What a script is checked against when a tool edits it outside the language server (the HAR view's
// "Write 16-bit Line"): the model the resolver picks for it and the architecture the full inference
// gives (a HEF beside the script, then its HAR, then a folder named after an architecture, then the
// setting — common/archInference.ts), the same two facts the language server and `hailo-tools
// check` use, so a line written from the HAR view is checked exactly as the editor will check it.
import type { ArchInference } from '../common/archInference';
import type { ModelLayerIndex } from '../common/modelLayers';
import type { Diagnostic } from '../common/types';
import { nmsConfigResolver } from '../alls/nodeHost';
import { checkText } from '../alls/rules';
import { ModelResolver, readOnnxSide, type ModelPathSettings } from './modelResolver';
import { ScriptArchResolver } from './scriptArch';

export interface ScriptTarget {
  arch: ArchInference;
  /** The layers the script is checked against, when a HAR was found and read. */
  model?: ModelLayerIndex;
  /** Files that were named or found but could not be used (one sentence each). */
  problems: string[];
  /** The `.alls` checker for this script: its architecture, its model, its folder. */
  check(text: string): Diagnostic[];
}

export async function scriptTarget(
  scriptPath: string,
  settings: { hwArch: string } & ModelPathSettings,
  resolvers: { model?: ModelResolver; arch?: ScriptArchResolver } = {},
): Promise<ScriptTarget> {
  const resolution = await (resolvers.model ?? new ModelResolver(readOnnxSide)).resolve(scriptPath, settings);
  const model = resolution.index;
  const arch = await (resolvers.arch ?? new ScriptArchResolver()).resolve(scriptPath, settings.hwArch, model);
  const fileExists = nmsConfigResolver(scriptPath);
  return {
    arch,
    ...(model ? { model } : {}),
    problems: resolution.problems,
    // The noise figures stay out: the edited script is checked for errors, not for its own offer.
    check: (text) =>
      checkText(text, { settings: { hwArch: arch.arch }, archFrom: arch.from, fileExists, ...(model ? { model: { ...model, noise: undefined } } : {}) }),
  };
}

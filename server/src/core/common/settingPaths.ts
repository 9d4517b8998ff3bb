// Path settings a folder can set (issue 18): `hailo.model.{har,onnx,calibrationSet,labels}` come
// from a cloned `.vscode/settings.json` as readily as from the user, and the language server reads
// them in Restricted Mode too. A relative value is resolved against the model's folder (the
// script's or the HEF's, as documented); the result, links resolved, must stay inside the opened
// folders or the model's folder. Anything else is refused with one sentence and never read: the
// setting is taken as empty (the file beside the model is looked for, as with no setting).
import { dirname, isAbsolute, resolve } from 'node:path';
import { FileRoots } from './confined';
import type { HailoSettings } from './settings';

/** The `hailo.model.*` keys holding a path a folder may set. */
export const MODEL_PATH_KEYS = ['har', 'onnx', 'calibrationSet', 'labels'] as const;

/** The folder relative values are resolved against: the resource itself when it is a folder, else its folder. */
export function modelFolderOf(resourcePath: string): string {
  // A document not saved yet, or gone: its folder still is the base.
  return FileRoots.named(resourcePath).isDirectory(resourcePath) ? resourcePath : dirname(resourcePath);
}

/**
 * The settings with every model path absolute and confined; a refused one is emptied and `note`
 * gets one sentence. `modelFolder` undefined (an untitled document): relative values are refused.
 */
export function confineModelPaths(
  settings: HailoSettings,
  modelFolder: string | undefined,
  openedFolders: readonly string[],
  /** `once` names the setting and its value: callers log one line per value, not one per folder. */
  note: (sentence: string, once: string) => void,
): HailoSettings {
  const model = { ...settings.model };
  const roots = [...openedFolders, ...(modelFolder ? [modelFolder] : [])];
  for (const key of MODEL_PATH_KEYS) {
    const raw = model[key];
    if (!raw) continue;
    if (!isAbsolute(raw) && !modelFolder) {
      note(
        `hailo.model.${key} '${raw}' is relative and the document has no folder; not read: save the file inside the workspace folder.`,
        `${key}\0${raw}\0untitled`,
      );
      model[key] = '';
      continue;
    }
    const path = isAbsolute(raw) ? raw : resolve(modelFolder!, raw);
    if (roots.length && FileRoots.of(roots).contains(path)) {
      model[key] = path;
      continue;
    }
    note(
      `hailo.model.${key} '${raw}' leads (links resolved) outside the opened folders and the model's folder${modelFolder ? ` '${modelFolder}'` : ''}; not read: set it to a file inside the workspace folder.`,
      `${key}\0${raw}`,
    );
    model[key] = '';
  }
  return { ...settings, model };
}

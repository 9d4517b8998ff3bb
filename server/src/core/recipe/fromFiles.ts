// The recipe from files, for `hailo-tools recipe` and the editor command alike: reads the ONNX
// (index and inferred shapes, never the weights), Ultralytics' metadata (the ONNX's own, else a
// metadata.yaml beside it), a HAR parsed from it when one is named or lies beside it, and writes the
// files with exclusive creation — nothing existing is replaced, and a refused recipe writes nothing.
import { basename, dirname, extname, join } from 'node:path';
import { FileRoots } from '../common/confined';
import { FileAccessError } from '../common/fileAccess';
import type { ModelLayerIndex } from '../common/modelLayers';
import { readHar } from '../har/harReader';
import { buildLayerIndex } from '../har/layers';
import { inferShapes } from '../onnx/inferShapes';
import { OnnxReadError, readOnnxFile } from '../onnx/reader';
import { recognizeHead } from './head';
import { buildRecipe, type Recipe } from './recipe';
import { ultralyticsFromOnnx, ultralyticsFromYaml, type UltralyticsMetadata } from '../nms/ultralytics';
import { LimitError } from '../common/limits';

export interface RecipeOptions {
  hwArch: string;
  /** A HAR parsed from this ONNX (else `<base>.har` beside it, when there is one). */
  harPath?: string;
}

export type RecipeOutcome = { ok: true; recipe: Recipe; harPath?: string } | { ok: false; reason: string; usage?: boolean };

/** Ultralytics' metadata.yaml beside the model (its exports write one), read when the ONNX has none. */
function metadataYamlBeside(onnxPath: string): UltralyticsMetadata | undefined {
  const p = join(dirname(onnxPath), 'metadata.yaml');
  try {
    return ultralyticsFromYaml(FileRoots.near(onnxPath).readText(p, 1 << 20), 'metadata.yaml');
  } catch {
    return undefined; // none, or not readable: the names are optional
  }
}

/** A regular file beside the model (links followed only inside the folders it may read). */
const exists = (p: string) => {
  try {
    return FileRoots.near(p).isFile(p);
  } catch {
    return false;
  }
};

export async function recipeForOnnx(onnxPath: string, options: RecipeOptions): Promise<RecipeOutcome> {
  const name = basename(onnxPath);
  let model;
  try {
    model = readOnnxFile(onnxPath);
  } catch (err) {
    return { ok: false, usage: true, reason: `${name} is not readable ONNX: ${err instanceof OnnxReadError ? err.message : (err as Error).message}` };
  }
  // A symbolic batch is 1 (the DFC's net_input_shapes for a detector); H and W must be fixed already.
  const inits = new Set(model.graph.initializers.map((t) => t.name));
  const inputShapes: Record<string, (number | string | null)[]> = {};
  for (const v of model.graph.inputs) {
    if (inits.has(v.name) || v.type.kind !== 'tensor' || !v.type.shape || v.type.shape.length !== 4) continue;
    if (typeof v.type.shape[0] !== 'number') inputShapes[v.name] = [1, ...v.type.shape.slice(1)];
  }
  const shapes = inferShapes(model, { inputShapes });
  const head = recognizeHead(model, shapes);
  if (!head.ok) return { ok: false, reason: `${name} has no recognised detector head: ${head.reason}.` };
  const base = basename(onnxPath, extname(onnxPath));
  const harPath = options.harPath ?? (exists(join(dirname(onnxPath), `${base}.har`)) ? join(dirname(onnxPath), `${base}.har`) : undefined);
  let hn: ModelLayerIndex | undefined;
  if (harPath) {
    try {
      hn = buildLayerIndex(await readHar(harPath));
    } catch (err) {
      return { ok: false, usage: true, reason: `${basename(harPath)}: ${(err as Error).message}` };
    }
  }
  let ultralytics: UltralyticsMetadata | undefined;
  try {
    ultralytics = ultralyticsFromOnnx(model.metadata, `${name} metadata`) ?? metadataYamlBeside(onnxPath);
  } catch (err) {
    if (!(err instanceof LimitError)) throw err;
    return { ok: false, usage: true, reason: err.message }; // a class index past the bound: one sentence
  }
  const input = { head: head.head, base, onnxName: name, hwArch: options.hwArch, ...(ultralytics ? { ultralytics } : {}) };
  const r = buildRecipe({ ...input, ...(hn ? { hn } : {}) });
  if (r.ok) return { ok: true, recipe: r.recipe, ...(harPath ? { harPath } : {}) };
  if (r.harMismatch && !options.harPath) {
    // A HAR merely found beside the model (parsed with other end nodes, or from another model):
    // the recipe without it, saying why — only a HAR the user named is an error.
    const plain = buildRecipe(input);
    if (plain.ok) {
      plain.recipe.notes.unshift(`${basename(harPath!)} beside the model was not used: ${r.reason}`);
      return { ok: true, recipe: plain.recipe };
    }
  }
  // A HAR that does not fit the model is input the user named (or left beside it): a usage error.
  return { ok: false, reason: `${name}: ${r.reason}`, usage: r.harMismatch === true };
}

/** The recipe JSON written beside the script: the facts and their sources, without the file texts. */
export function recipeJson(recipe: Recipe): Record<string, unknown> {
  const { files, ...facts } = recipe;
  return { ...facts, files: files.map((f) => f.name) };
}

/**
 * Writes the recipe's files (and `<base>.recipe.json`) into `dir`: each created exclusively, so an
 * existing file is never replaced; when one cannot be created, the ones this call created are removed.
 */
export function writeRecipe(dir: string, base: string, recipe: Recipe): { written: string[] } | { error: string } {
  const files = [...recipe.files, { name: `${base}.recipe.json`, text: JSON.stringify(recipeJson(recipe), null, 2) + '\n' }];
  const roots = FileRoots.of([dir]);
  // Anything at a name — a file, a folder, a link (dangling too) — is not ours to replace.
  const taken = files.map((f) => join(dir, f.name)).filter((p) => roots.lstat(p) !== undefined);
  if (taken.length)
    return {
      error: `${taken.map((p) => basename(p)).join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}: nothing written (choose another --write folder)`,
    };
  const written: string[] = [];
  for (const f of files) {
    const p = join(dir, f.name);
    try {
      roots.writeSync(p, f.text, { exclusive: true });
      written.push(p);
    } catch (err) {
      for (const w of written) roots.remove(w);
      return { error: err instanceof FileAccessError ? `${err.message}: nothing written` : `${p}: ${(err as Error).message}: nothing written` };
    }
  }
  return { written };
}

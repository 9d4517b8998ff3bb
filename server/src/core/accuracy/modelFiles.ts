// What the float reference needs to know about a HEF's origins, found beside it on disk: the ONNX
// it was compiled from (`hailo.model.onnx`, `<hef>.onnx`, the HAR's recorded original model, the
// only `.onnx`), the model script whose `normalization` the chip applies, and the HAR whose
// `original_names` pair HEF streams with ONNX tensors. Reads only files in the HEF's folder or
// the ones the settings name; never a model's weights (the ONNX index is lazy).
import { FileRoots } from '../common/confined';
import { limit } from '../common/limits';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { readNormalizations, type Normalization } from '../alls/normalization';
import { readHar, type HarArchive } from '../har/harReader';
import { findHarBeside, findOnnxBeside } from '../har/modelResolver';
import { readOnnxFile } from '../onnx/reader';
import type { OnnxTensor } from './reference';
import { pushAll } from '../common/arrays';

export interface ModelFiles {
  onnx?: { path: string; foundBy: string };
  har?: string;
  alls?: string;
}

export interface ModelFileSettings {
  /** `hailo.model.onnx`: absolute or relative to the HEF's folder. */
  onnx?: string;
  /** `hailo.model.har`. */
  har?: string;
}

/** Files found beside the model: inside its folder and the opened folders, links resolved. */
const isFile = (p: string) => FileRoots.near(p).isFile(p);

function listDir(dir: string, ext: string): string[] {
  return FileRoots.near(join(dir, 'model'))
    .listOrEmpty(dir)
    .filter((f) => extname(f).toLowerCase() === ext);
}

const from = (dir: string, p: string) => (isAbsolute(p) ? p : resolve(dir, p));

export async function findModelFiles(hefPath: string, settings: ModelFileSettings = {}): Promise<ModelFiles & { harArchive?: HarArchive; problems: string[] }> {
  const dir = dirname(hefPath);
  const base = basename(hefPath, extname(hefPath));
  const problems: string[] = [];
  const harPath = settings.har?.trim() ? from(dir, settings.har.trim()) : findHarBeside(hefPath);
  let harArchive: HarArchive | undefined;
  if (harPath && isFile(harPath)) {
    try {
      harArchive = await readHar(harPath);
    } catch (err) {
      problems.push(`The HAR ${basename(harPath)} could not be read (${(err as Error).message}); streams are paired by shape only.`);
    }
  }
  let onnx: ModelFiles['onnx'];
  if (settings.onnx?.trim()) {
    const p = from(dir, settings.onnx.trim());
    if (isFile(p)) onnx = { path: p, foundBy: 'hailo.model.onnx' };
    else problems.push(`hailo.model.onnx names ${p}, which is not a file.`);
  }
  if (!onnx && isFile(join(dir, `${base}.onnx`))) onnx = { path: join(dir, `${base}.onnx`), foundBy: 'beside the HEF, same name' };
  if (!onnx && harArchive) {
    const p = findOnnxBeside(harArchive);
    if (p) onnx = { path: p, foundBy: `the model ${basename(harArchive.path)} was parsed from` };
  }
  if (!onnx) {
    const all = listDir(dir, '.onnx');
    if (all.length === 1) onnx = { path: join(dir, all[0]), foundBy: 'the only ONNX beside the HEF' };
  }
  const scripts = listDir(dir, '.alls');
  const harBase = harArchive ? basename(harArchive.path, '.har') : undefined;
  const script =
    scripts.find((s) => basename(s, '.alls') === base) ??
    (harBase ? scripts.find((s) => harBase.startsWith(basename(s, '.alls')) || basename(s, '.alls') === harArchive!.hn.name) : undefined) ??
    (scripts.length === 1 ? scripts[0] : undefined);
  return { onnx, har: harArchive?.path, alls: script ? join(dir, script) : undefined, harArchive, problems };
}

export interface ReferenceModel {
  onnx: { inputs: OnnxTensor[]; outputs: OnnxTensor[] };
  producers: Record<string, string>;
  originalNames?: Record<string, string[]>;
  normalizations: Normalization[];
  problems: string[];
}

/** Reads the ONNX's interface (no weights), the script's normalization and the HAR's names. */
export function readReferenceModel(files: ModelFiles & { harArchive?: HarArchive }): ReferenceModel {
  if (!files.onnx) throw new Error('no ONNX model');
  const model = readOnnxFile(files.onnx.path);
  const inits = new Set(model.graph.initializers.map((t) => t.name));
  const tensor = (v: (typeof model.graph.inputs)[number]): OnnxTensor => ({
    name: v.name,
    elemType: v.type.kind === 'tensor' ? v.type.elemType : 0,
    dims: v.type.kind === 'tensor' && v.type.shape ? v.type.shape : [],
  });
  const producers: Record<string, string> = {};
  for (const n of model.graph.nodes) for (const o of n.outputs) if (o && n.name) producers[o] = n.name;
  const problems: string[] = [];
  let normalizations: Normalization[] = [];
  if (files.alls) {
    try {
      const r = readNormalizations(FileRoots.named(files.alls).readSync(files.alls, limit('documentChars')).toString('utf8'));
      normalizations = r.normalizations;
      pushAll(
        problems,
        r.problems.map((p) => `${basename(files.alls!)} ${p}`),
      );
    } catch (err) {
      problems.push(`${(err as Error).message}; no normalization is applied.`);
    }
  }
  let originalNames: Record<string, string[]> | undefined;
  if (files.harArchive) {
    originalNames = {};
    for (const l of files.harArchive.hn.layers) originalNames[l.name] = l.originalNames;
  }
  return {
    onnx: { inputs: model.graph.inputs.filter((v) => !inits.has(v.name)).map(tensor), outputs: model.graph.outputs.map(tensor) },
    producers,
    originalNames,
    normalizations,
    problems,
  };
}

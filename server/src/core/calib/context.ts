// Finds what a calibration set is judged against: the model script (its calibset_size and
// normalization), and the model's input shape from the HAR beside the script (HN input layer) or
// from the ONNX. Shared by the CLI and the language server. Reads only the files it is given or
// the ones beside the script.
import { FileRoots } from '../common/confined';
import { limit } from '../common/limits';
import { basename, dirname, extname, join } from 'node:path';
import { readHar } from '../har/harReader';
import { findHarBeside, findOnnxBeside } from '../har/modelResolver';
import { readOnnxFile } from '../onnx/reader';
import { inputsFromHn, inputsFromOnnx, type ModelInput } from './modelInput';
import { scriptFactsOf, type ScriptFacts } from './scriptFacts';

export interface CalibContext {
  facts?: ScriptFacts;
  inputs: ModelInput[];
  /** Files used, in words (for the CLI and the hover). */
  sources: string[];
  /** Files that could not be read, one sentence each. */
  problems: string[];
}

export function onnxInputs(path: string): ModelInput[] {
  const m = readOnnxFile(path);
  const inits = new Set(m.graph.initializers.map((t) => t.name));
  return inputsFromOnnx(
    m.graph.inputs.filter((v) => !inits.has(v.name)).map((v) => ({ name: v.name, dims: v.type.kind === 'tensor' && v.type.shape ? v.type.shape : [] })),
  );
}

export async function harInputs(path: string): Promise<{ inputs: ModelInput[]; onnx?: string }> {
  const har = await readHar(path);
  return { inputs: inputsFromHn(har.hn.layers), onnx: findOnnxBeside(har) };
}

/** Builds the context from an optional script text/path and optional model paths. */
export async function calibContext(o: { scriptPath?: string; scriptText?: string; onnx?: string; har?: string; findBeside?: boolean }): Promise<CalibContext> {
  const ctx: CalibContext = { inputs: [], sources: [], problems: [] };
  if (o.scriptPath || o.scriptText !== undefined) {
    // A regular file of at most LIMITS.documentChars (FileAccessError otherwise): a FIFO would block, /dev/zero never ends.
    const text = o.scriptText ?? FileRoots.named(o.scriptPath!).readSync(o.scriptPath!, limit('documentChars')).toString('utf8');
    ctx.facts = scriptFactsOf(text).facts;
    if (o.scriptPath) ctx.sources.push(`script ${basename(o.scriptPath)}`);
  }
  let har = o.har;
  if (!har && !o.onnx && o.findBeside && o.scriptPath) har = findHarBeside(o.scriptPath);
  if (har) {
    try {
      const r = await harInputs(har);
      ctx.inputs = r.inputs;
      ctx.sources.push(`HAR ${basename(har)}`);
    } catch (err) {
      ctx.problems.push(`The HAR ${basename(har)} could not be read (${(err as Error).message}); the layout is not checked against it.`);
    }
  }
  if (!ctx.inputs.length && o.onnx) {
    try {
      ctx.inputs = onnxInputs(o.onnx);
      ctx.sources.push(`ONNX ${basename(o.onnx)}`);
    } catch (err) {
      ctx.problems.push(`The ONNX ${basename(o.onnx)} could not be read (${(err as Error).message}); the layout is not checked against it.`);
    }
  }
  return ctx;
}

const SET_EXTENSIONS = ['.npy', '.npz'];

/**
 * The calibration set beside a script: `<script>.npy|.npz`, `<script>_calib…`, then a file whose
 * name has "calib" in it, then the only .npy/.npz of the folder.
 */
export function findCalibrationSetBeside(scriptPath: string): string | undefined {
  const dir = dirname(scriptPath);
  const base = basename(scriptPath, extname(scriptPath));
  const files = FileRoots.near(scriptPath)
    .listOrEmpty(dir)
    .filter((f) => SET_EXTENSIONS.includes(extname(f).toLowerCase()));
  const pick =
    files.find((f) => basename(f, extname(f)) === base) ??
    files.find((f) => f.startsWith(base) && /calib/i.test(f)) ??
    (files.filter((f) => /calib/i.test(f)).length === 1 ? files.find((f) => /calib/i.test(f)) : undefined) ??
    (files.length === 1 ? files[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

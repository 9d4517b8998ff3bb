// What a compile needs, checked before docker is touched: every input exists and is the right
// kind, the network name, the output folder, and which host folders must be visible inside the
// container (each read-only, at a fixed container path).
//
// The folder rule (common/fileAccess.ts): every input and the output folder, every link resolved,
// must lie inside a folder the user opened or named (`folders`) or the model's folder. A cloned
// repository's `hailo-config.json -> ~/.ssh/id_ed25519` would otherwise be mounted, packed into the
// `docker cp` stream and embedded into the HEF. Mounts and the packed files use the real paths, so
// docker never resolves a link the check did not see.
import { basename, dirname, extname, join, resolve } from 'node:path';
import { FileRoots } from '../../core/common/confined';
import { FileAccessError } from '../../core/common/fileAccess';
import { IN_CONTAINER } from './dockerArgs';

export interface CompileInputs {
  /** The model: `.onnx` (parse → optimize → compile) or `.har` (optimize → compile). */
  model: string;
  modelScript?: string;
  /** Calibration set (`.npy`, NHWC; or `.npz` keyed by input layer). Absent: random data, with a warning. */
  calibration?: string;
  /** hailo-config.json to embed; absent: the one beside the model, if any. */
  hailoConfig?: string;
  hwArch: string;
  startNodes?: string[];
  endNodes?: string[];
  /** Where outputs land; default: the model's folder. */
  outDir?: string;
  /**
   * The folders inputs and outputs may resolve into besides the model's own: the folders the user
   * opened (workspace folders; the CLI: the current folder) and the folders of files the user named
   * (arguments, dialog picks). Undefined: the folder of each path given here.
   */
  folders?: string[];
}

export interface ResolvedInputs {
  model: string;
  kind: 'onnx' | 'har';
  net: string;
  outDir: string;
  modelScript?: string;
  calibration?: string;
  hailoConfig?: string;
  /** Host folder (real) → container folder (index 0 is the model's folder). */
  folders: { source: string; target: string }[];
  /** Container path of a host input file. */
  inContainer(hostPath: string): string;
  /** The checked real path of an input (every link resolved): what is mounted or packed. */
  realOf(hostPath: string): string;
  /** Where the compile reads (the roots) and writes (below the real output folder, never through a link). */
  readRoots: FileRoots;
  writeRoots: FileRoots;
  hwArch: string;
  startNodes: string[];
  endNodes: string[];
}

export const OUTPUT_NAMES = (net: string) => ({ har: `${net}.har`, optimizedHar: `${net}_optimized.har`, hef: `${net}.hef` });

export const HAILO_CONFIG_NAME = 'hailo-config.json';

function checkFile(path: string, what: string, roots: FileRoots): string | undefined {
  if (/[\r\n]/.test(path)) return `The ${what} path contains a line break, which docker cannot mount: rename '${JSON.stringify(path)}'.`;
  if (!roots.exists(path)) return `The ${what} '${path}' does not exist.`;
  return undefined;
}

/** The folders a compile's paths may resolve into (see CompileInputs.folders). */
export function compileRoots(inputs: CompileInputs): string[] {
  const given =
    inputs.folders ??
    [inputs.modelScript, inputs.calibration, inputs.hailoConfig, inputs.outDir].filter((p): p is string => !!p).map((p) => dirname(resolve(p)));
  return [dirname(resolve(inputs.model)), ...given];
}

/** The real path of `path` inside the roots, or the sentence why not. */
function confined(path: string, what: string, roots: FileRoots, verb: 'read' | 'written'): { real: string } | string {
  try {
    const real = roots.resolve(path, verb);
    if (verb === 'read' && !roots.isFile(path)) return `The ${what} '${path}' is not a file.`;
    return { real };
  } catch (err) {
    if (err instanceof FileAccessError) return `The ${what} ${err.message}.`;
    throw err;
  }
}

/** Resolves and checks the inputs; a string is the one-sentence reason they cannot be used. */
export function resolveInputs(inputs: CompileInputs): ResolvedInputs | string {
  const model = resolve(inputs.model);
  const roots = FileRoots.of(compileRoots(inputs));
  /** Lexical path (reports, diagnostics) → real path (mounts, docker cp), each checked against the roots. */
  const reals = new Map<string, string>();
  const check = (path: string | undefined, what: string): string | undefined => {
    if (!path) return undefined;
    const problem = checkFile(path, what, roots);
    if (problem) return problem;
    const r = confined(path, what, roots, 'read');
    if (typeof r === 'string') return r;
    reals.set(path, r.real);
    return undefined;
  };
  const modelProblem = check(model, 'model');
  if (modelProblem) return modelProblem;
  const ext = extname(model).toLowerCase();
  if (ext !== '.onnx' && ext !== '.har') return `The model must be an .onnx or a .har file, not '${basename(model)}'.`;
  const modelScript = inputs.modelScript ? resolve(inputs.modelScript) : undefined;
  const calibration = inputs.calibration ? resolve(inputs.calibration) : undefined;
  let hailoConfig = inputs.hailoConfig ? resolve(inputs.hailoConfig) : undefined;
  for (const [path, what] of [
    [modelScript, 'model script'],
    [calibration, 'calibration set'],
    [hailoConfig, 'hailo-config.json'],
  ] as const) {
    const problem = check(path, what);
    if (problem) return problem;
  }
  if (calibration && !/\.(npy|npz)$/i.test(calibration)) return `The calibration set must be a NumPy .npy (or .npz) file, not '${basename(calibration)}'.`;
  if (!hailoConfig) {
    const beside = join(dirname(model), HAILO_CONFIG_NAME);
    if (roots.exists(beside)) {
      // Found, not named: like a named one, it may only resolve into the model's folder or one the user opened.
      const problem = check(beside, HAILO_CONFIG_NAME);
      if (problem) return problem;
      hailoConfig = beside;
    }
  }
  if (!/^[a-z0-9_]+$/i.test(inputs.hwArch)) return `'${inputs.hwArch}' is not a hardware architecture name (e.g. hailo10h).`;
  const outDir = resolve(inputs.outDir ?? dirname(model));
  if (/[\r\n]/.test(outDir)) return `The output folder path contains a line break, which docker cannot mount.`;
  const out = confined(outDir, 'output folder', roots, 'written');
  if (typeof out === 'string') return out;
  if (roots.exists(outDir) && !roots.isDirectory(outDir)) return `The output folder '${outDir}' is a file.`;
  const nodes = (list?: string[]) => (list ?? []).map((n) => n.trim()).filter(Boolean);

  const folders: { source: string; target: string }[] = [];
  const realOf = (p: string) => reals.get(p) ?? p;
  const folderOf = (p: string) => {
    const d = dirname(realOf(p));
    let f = folders.find((x) => x.source === d);
    if (!f) {
      f = { source: d, target: IN_CONTAINER.input(folders.length) };
      folders.push(f);
    }
    return f;
  };
  for (const p of [model, modelScript, calibration, hailoConfig]) if (p) folderOf(p);
  return {
    model,
    kind: ext === '.onnx' ? 'onnx' : 'har',
    net: basename(model, extname(model)),
    outDir,
    modelScript,
    calibration,
    hailoConfig,
    folders,
    realOf,
    readRoots: roots,
    writeRoots: FileRoots.of([outDir]), // confined above: its real path is inside the roots
    inContainer: (hostPath: string) => `${folderOf(hostPath).target}/${basename(realOf(hostPath))}`,
    hwArch: inputs.hwArch,
    startNodes: nodes(inputs.startNodes),
    endNodes: nodes(inputs.endNodes),
  };
}

/**
 * The driver script's arguments (container paths). `--name=value`, one argv entry each: a network
 * or node name that starts with `-` (a model named `-x.onnx`, an end node `--help`) stays a value
 * for Python's argparse instead of being read as an option.
 */
export function driverArgs(r: ResolvedInputs): string[] {
  const a = [`--model=${r.inContainer(r.model)}`, `--net=${r.net}`, `--hw-arch=${r.hwArch}`, `--out=${IN_CONTAINER.out}`];
  if (r.modelScript) a.push(`--model-script=${r.inContainer(r.modelScript)}`);
  if (r.calibration) a.push(`--calib=${r.inContainer(r.calibration)}`);
  if (r.hailoConfig) a.push(`--hailo-config=${r.inContainer(r.hailoConfig)}`);
  for (const n of r.startNodes) a.push(`--start-node=${n}`);
  for (const n of r.endNodes) a.push(`--end-node=${n}`);
  return a;
}

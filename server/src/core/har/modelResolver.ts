// Which parsed model a `.alls` script is checked against, decided in one place for the language
// server and `hailo-tools check` (issue 10: the two disagreed). A script's model is the HAR named
// by the setting / `--har`, else the `.har` beside it (same basename, else one starting with the
// basename, else the only one); its ONNX is the one named by the setting / `--onnx`, else the
// HAR's `original_model_path` basename, `<net>.onnx` or the only `.onnx` beside the HAR. HAR reads
// are cached by file size + mtime; the ONNX side comes from a loader the host supplies (the
// server's shares the graph view's cache).
import { FileRoots } from '../common/confined';
import { currentOpenedFolders, noteSkipped } from '../alls/nodeHost';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import type { ModelLayerIndex } from '../common/modelLayers';
import { analyzeOnnx } from '../onnx/analysis';
import { renderGraphView } from '../onnx/graphView';
import { readOnnxFile } from '../onnx/reader';
import { graphUriForPath } from '../onnx/viewUri';
import { readHar, type HarArchive } from './harReader';
import { buildLayerIndex, type OnnxSide } from './layers';
import { noiseSidecarPath, readNoiseResults, reportFromResults, type NoiseReport } from './noise';

/** Explicit model files (`hailo.model.har` / `--har`, `hailo.model.onnx` / `--onnx`). */
export interface ModelPathSettings {
  /** Absolute, or relative to the script's folder. */
  harPath?: string;
  onnxPath?: string;
}

/** The ONNX side of a model, or why it could not be read. */
export type OnnxLoad = { ok: true; side: OnnxSide; stamp: string } | { ok: false; error: string; stamp: string };

export interface ModelResolution {
  /** The layers, when a HAR was found and read. */
  index?: ModelLayerIndex;
  harPath?: string;
  onnxPath?: string;
  /** One sentence per file that was named or found but could not be used. */
  problems: string[];
}

/**
 * The `ext` files in `dir`, without a `.har`/`.onnx` link that leads (resolved) outside `dir` and the opened
 * folders: a cloned folder's `model.har -> ~/elsewhere` is not read (issue 18), and the log says so.
 */
function listDir(dir: string, ext: string): string[] {
  const roots = FileRoots.of([dir, ...currentOpenedFolders()]);
  let entries: string[];
  try {
    entries = roots.listEntries(dir).map((e) => e.name); // links too: a link out is named in the log below
  } catch {
    entries = [];
  }
  const names = entries.filter((f) => extname(f).toLowerCase() === ext);
  // A `.hef` link out is kept: scriptArch.ts refuses to read it and says so on the script's first line.
  if (ext !== '.har' && ext !== '.onnx') return names.sort();
  return names
    .filter((f) => {
      if (roots.contains(join(dir, f))) return true;
      noteSkipped(`The ${ext} file '${join(dir, f)}' was not read: it is a link leading outside the opened folders and its own folder.`);
      return false;
    })
    .sort();
}

/** The file with extension `ext` for a script: same basename, else one whose name starts with the basename, else the only one. */
export function findBeside(scriptPath: string, ext: '.har' | '.hef' | '.alls'): string | undefined {
  const dir = dirname(scriptPath);
  const base = basename(scriptPath, extname(scriptPath));
  const names = listDir(dir, ext);
  const pick = names.find((h) => basename(h, extname(h)) === base) ?? names.find((h) => h.startsWith(base)) ?? (names.length === 1 ? names[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

/** The `.har` for a script (see findBeside). */
export const findHarBeside = (scriptPath: string): string | undefined => findBeside(scriptPath, '.har');

/** The ONNX the HAR was parsed from, when it lies beside the HAR. */
export function findOnnxBeside(har: HarArchive): string | undefined {
  const dir = dirname(har.path);
  const onnx = listDir(dir, '.onnx');
  const original = har.originalModelMeta?.original_model_path;
  const originalBase = typeof original === 'string' ? original.split(/[\\/]/).pop() : undefined;
  const pick =
    (originalBase && onnx.find((f) => f === originalBase)) ??
    onnx.find((f) => basename(f, '.onnx') === har.hn.name) ??
    (onnx.length === 1 ? onnx[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

/** Reads the ONNX side without a cache (the CLI; the server uses the graph view's cache instead). */
export function readOnnxSide(path: string): OnnxLoad {
  const st = FileRoots.named(path).stamp(path);
  if (!st) return { ok: false, stamp: 'missing', error: `${path} is not a readable file` };
  try {
    const analysis = analyzeOnnx(readOnnxFile(path));
    return { ok: true, stamp: st, side: { path, analysis, view: renderGraphView(analysis, basename(path)), uri: graphUriForPath(path) } };
  } catch (err) {
    return { ok: false, stamp: st, error: err instanceof Error ? err.message : String(err) };
  }
}

const resolveFrom = (dir: string, p: string) => (isAbsolute(p) ? p : resolve(dir, p));

export class ModelResolver {
  private readonly hars = new Map<string, { stamp: string; har: Promise<HarArchive> }>();
  private readonly indexes = new Map<string, { key: string; index: ModelLayerIndex }>();

  constructor(private readonly loadOnnx: (path: string) => OnnxLoad) {}

  private loadHar(path: string, st: string): Promise<HarArchive> {
    const hit = this.hars.get(path);
    if (hit && hit.stamp === st) return hit.har;
    // One read per version of the file, failed or not: a broken or hostile HAR (a gzip bomb took
    // 4–5 s) must not be read again on every keystroke.
    const har = readHar(path);
    this.hars.set(path, { stamp: st, har });
    har.catch(() => undefined); // the failure stays cached; resolve() reports it
    return har;
  }

  /** The model of the script at `scriptPath` (the file need not exist: an unsaved editor buffer). */
  async resolve(scriptPath: string, settings: ModelPathSettings = {}): Promise<ModelResolution> {
    const dir = dirname(scriptPath);
    const problems: string[] = [];
    const harPath = settings.harPath ? resolveFrom(dir, settings.harPath) : findHarBeside(scriptPath);
    if (!harPath) return { problems };
    const harStamp = FileRoots.named(harPath).stamp(harPath);
    if (!harStamp) return { harPath, problems: [`${harPath} is not a readable file`] };
    let har: HarArchive;
    try {
      har = await this.loadHar(harPath, harStamp);
    } catch (err) {
      const msg = (err as Error).message;
      return { harPath, problems: [msg.includes(harPath) ? msg : `${harPath}: ${msg}`] };
    }
    const onnxPath = settings.onnxPath ? resolveFrom(dir, settings.onnxPath) : findOnnxBeside(har);
    const onnx = onnxPath ? this.loadOnnx(onnxPath) : undefined;
    if (onnx && !onnx.ok) problems.push(`ONNX ${onnxPath}: ${onnx.error}`);
    const sidecar = noiseSidecarPath(harPath);
    const noiseStamp = FileRoots.named(sidecar).stamp(sidecar) ?? '';
    const key = `${harStamp}|${onnxPath ?? ''}|${onnx?.stamp ?? ''}|${noiseStamp}`;
    const hit = this.indexes.get(harPath);
    if (hit && hit.key === key) return { index: hit.index, harPath, onnxPath, problems };
    let noise: NoiseReport | undefined;
    if (noiseStamp) {
      try {
        const r = readNoiseResults(sidecar);
        if (r) noise = reportFromResults(r, sidecar, new Map(har.hn.layers.map((l) => [l.fullName, l.type])));
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    const index = buildLayerIndex(har, onnx?.ok ? onnx.side : undefined, noise);
    this.indexes.set(harPath, { key, index });
    return { index, harPath, onnxPath, problems };
  }
}

// The ModelLayerProvider behind `ServiceContext.modelLayers()` for `.alls` scripts: finds the parsed
// model (`hailo.model.har`, else a `.har` beside the script, preferring the script's basename),
// reads its HN, and links layers to the ONNX they came from (`hailo.model.onnx`, else the
// `original_model_path` basename, `<net>.onnx` or the only `.onnx` beside the HAR).
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelLayerIndex } from '../common/modelLayers';
import { readHar, type HarArchive } from '../har/harReader';
import { buildLayerIndex } from '../har/layers';
import { graphUriForPath } from '../onnx/viewUri';
import type { OnnxModelCache } from './onnxCache';
import type { ModelLayerProvider, ServerHost } from './service';

export interface ModelPathSettings {
  harPath?: string;
  onnxPath?: string;
}

/** `hailo.model.har` / `hailo.model.onnx` for a document (the server's HailoSettings only carries what every core needs). */
async function modelSettings(host: Pick<ServerHost, 'connection'>, uri: string): Promise<ModelPathSettings> {
  try {
    const hailo = (await host.connection.workspace.getConfiguration({ scopeUri: uri, section: 'hailo' })) as { model?: Record<string, unknown> } | null;
    const m = hailo?.model ?? {};
    const str = (...keys: string[]) => {
      for (const k of keys) if (typeof m[k] === 'string' && (m[k] as string).trim()) return (m[k] as string).trim();
      return undefined;
    };
    // `hailo.model.har` / `hailo.model.onnx` (package.json); the `…Path` spellings are accepted too
    return { harPath: str('har', 'harPath'), onnxPath: str('onnx', 'onnxPath') };
  } catch {
    return {}; // a client without workspace/configuration: fall back to the files beside the script
  }
}

function stamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? `${s.size}:${s.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

function listDir(dir: string, ext: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => extname(f).toLowerCase() === ext)
      .sort();
  } catch {
    return [];
  }
}

/** The `.har` for a script: same basename, else one whose name starts with the basename, else the only one. */
export function findHarBeside(scriptPath: string): string | undefined {
  const dir = dirname(scriptPath);
  const base = basename(scriptPath, extname(scriptPath));
  const hars = listDir(dir, '.har');
  const pick = hars.find((h) => basename(h, '.har') === base) ?? hars.find((h) => h.startsWith(base)) ?? (hars.length === 1 ? hars[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

/** The ONNX the HAR was parsed from, when it lies beside the HAR. */
export function findOnnxBeside(har: HarArchive): string | undefined {
  const dir = dirname(har.path);
  const onnx = listDir(dir, '.onnx');
  const original = har.originalModelMeta?.original_model_path;
  const originalBase = typeof original === 'string' ? original.split(/[\\/]/).pop() : undefined;
  const pick =
    (originalBase && onnx.find((f) => f === originalBase)) ?? onnx.find((f) => basename(f, '.onnx') === har.hn.name) ?? (onnx.length === 1 ? onnx[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

const resolveFrom = (dir: string, p: string) => (isAbsolute(p) ? p : resolve(dir, p));

export function createHarLayerProvider(cache: OnnxModelCache, host: Pick<ServerHost, 'connection' | 'log'>): ModelLayerProvider {
  const hars = new Map<string, { stamp: string; har: Promise<HarArchive> }>();
  const indexes = new Map<string, { key: string; index: ModelLayerIndex }>();

  async function loadHar(path: string, st: string): Promise<HarArchive> {
    const hit = hars.get(path);
    if (hit && hit.stamp === st) return hit.har;
    const har = readHar(path);
    hars.set(path, { stamp: st, har });
    har.catch(() => hars.delete(path));
    return har;
  }

  return async (uri) => {
    if (!uri.startsWith('file:')) return undefined;
    const scriptPath = fileURLToPath(uri);
    const dir = dirname(scriptPath);
    const settings = await modelSettings(host, uri);
    const harPath = settings.harPath ? resolveFrom(dir, settings.harPath) : findHarBeside(scriptPath);
    if (!harPath) return undefined;
    const harStamp = stamp(harPath);
    if (!harStamp) {
      host.log(`model layers: ${harPath} is not a readable file`);
      return undefined;
    }
    let har: HarArchive;
    try {
      har = await loadHar(harPath, harStamp);
    } catch (err) {
      host.log(`model layers: ${(err as Error).message}`);
      return undefined;
    }
    const onnxPath = settings.onnxPath ? resolveFrom(dir, settings.onnxPath) : findOnnxBeside(har);
    const onnx = onnxPath ? cache.load(onnxPath) : undefined;
    if (onnx && !onnx.ok) host.log(`model layers: ONNX ${onnxPath}: ${onnx.error}`);
    const key = `${harStamp}|${onnxPath ?? ''}|${onnx?.stamp ?? ''}`;
    const hit = indexes.get(harPath);
    if (hit && hit.key === key) return hit.index;
    const index = buildLayerIndex(
      har,
      onnx?.ok ? { path: onnx.path, analysis: onnx.analysis, view: onnx.view, uri: graphUriForPath(onnx.path) } : undefined,
    );
    indexes.set(harPath, { key, index });
    return index;
  };
}

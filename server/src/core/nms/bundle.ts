// Finds and reads the pieces of a detector that the NMS checks compare, for the language server and
// `hailo-tools check` alike: the config a script's `nms_postprocess` names, the HEF beside the script
// (or the config), a labels file (named, or beside the HEF / script), and runs the pure checks.
// Reads go through common/fileAccess (regular files only, bounded).
import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { analyze, type AllsDocument } from '../alls/analysis';
import { resolveNmsConfigPath } from '../alls/nodeHost';
import { FileAccessError, fileStamp, readSmallFileSync } from '../common/fileAccess';
import { limit, limitMessage } from '../common/limits';
import type { ModelLayerIndex } from '../common/modelLayers';
import type { Diagnostic, Severity } from '../common/types';
import { findBeside, ModelResolver } from '../har/modelResolver';
import { readHefFile } from '../hef/read';
import { checkNms, type NmsCheckInput, type NmsFinding } from './checks';
import { parseNmsConfig, type NmsConfig } from './config';
import { nmsHefFacts } from './hefFacts';
import { looksLikeLabelsFile, parseLabels, type LabelsFile } from './labels';
import { nmsModelFromIndex, type NmsHefFacts } from './model';
import { nmsCalls, type NmsScriptCall } from './script';
import { isNmsConfigName } from './files';
import { ultralyticsFromOnnx, type UltralyticsMetadata } from './ultralytics';
import { readOnnxFile } from '../onnx/reader';

/** Text of a file: the editor's buffer when it is open (the host supplies it), else the disk's. */
export type TextSource = (path: string) => string | undefined;

function readText(path: string, open: TextSource | undefined): string {
  const buffered = open?.(path);
  if (buffered !== undefined) return buffered;
  return readSmallFileSync(path, limit('nmsSideFileBytes')).toString('utf8');
}

/** One sentence for a side file that could not be read. */
function unreadable(path: string, err: unknown): string {
  if (err instanceof FileAccessError && err.code === 'too-large') return limitMessage('nmsSideFileBytes', basename(path));
  if (err instanceof FileAccessError) return err.message;
  return `${path}: ${(err as Error).message}`;
}

export function readNmsConfig(path: string, open?: TextSource): { doc: NmsConfig } | { error: string; missing: boolean } {
  try {
    return { doc: parseNmsConfig(readText(path, open)) };
  } catch (err) {
    return { error: unreadable(path, err), missing: err instanceof FileAccessError && err.code === 'ENOENT' };
  }
}

export function readLabels(path: string, open?: TextSource): { file: LabelsFile } | { error: string } {
  let text: string;
  try {
    text = readText(path, open);
  } catch (err) {
    return { error: unreadable(path, err) };
  }
  const file = parseLabels(text, basename(path));
  return file
    ? { file }
    : {
        error: `${basename(path)} is not a labels file: expected a hailo-apps labels JSON ({"labels": [...]}), a JSON list of names, one name per line (.names/.txt), or Ultralytics' metadata.yaml (names:)`,
      };
}

/**
 * Ultralytics' metadata of the ONNX beside `near` (one named after it, else the only `.onnx` there):
 * the class names and export size the model carries. Only the index is read, never the weights.
 */
export function findOnnxMetadataBeside(near: string): UltralyticsMetadata | undefined {
  const dir = dirname(near);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.onnx'));
  } catch {
    return undefined;
  }
  const base = basename(near, extname(near));
  const pick = names.find((n) => basename(n, extname(n)) === base) ?? (names.length === 1 ? names[0] : undefined);
  if (!pick) return undefined;
  const path = join(dir, pick);
  // Read once per version of the file: a script is re-checked on every edit.
  const stamp = fileStamp(path);
  const hit = stamp ? onnxMetaCache.get(path) : undefined;
  if (hit && hit.stamp === stamp) return hit.meta;
  let meta: UltralyticsMetadata | undefined;
  try {
    meta = ultralyticsFromOnnx(readOnnxFile(path).metadata, `${pick}'s metadata`);
  } catch {
    meta = undefined; // not readable ONNX: the ONNX's own checks say so where it is opened
  }
  if (stamp) {
    onnxMetaCache.delete(path);
    onnxMetaCache.set(path, { stamp, meta });
    while (onnxMetaCache.size > HEF_CACHE_SIZE) onnxMetaCache.delete(onnxMetaCache.keys().next().value as string);
  }
  return meta;
}

const onnxMetaCache = new Map<string, { stamp: string; meta: UltralyticsMetadata | undefined }>();

/** A labels file beside `near` (a HEF or script): one named after it, else the only one there. */
export function findLabelsBeside(near: string): string | undefined {
  const dir = dirname(near);
  let names: string[];
  try {
    names = readdirSync(dir).filter(looksLikeLabelsFile).sort();
  } catch {
    return undefined;
  }
  const base = basename(near, extname(near));
  const pick = names.find((n) => n.startsWith(base)) ?? (names.length === 1 ? names[0] : undefined);
  return pick ? join(dir, pick) : undefined;
}

const hefCache = new Map<string, { stamp: string; result: { facts: NmsHefFacts } | { error: string } }>();
const HEF_CACHE_SIZE = 32;

/** A HEF's NMS facts, read once per version of the file (a script is re-checked on every edit). */
export async function readHefNms(path: string): Promise<{ facts: NmsHefFacts } | { error: string }> {
  const stamp = fileStamp(path);
  const hit = stamp ? hefCache.get(path) : undefined;
  if (hit && hit.stamp === stamp) return hit.result;
  const report = await readHefFile(path, { verify: false, verifyResources: false });
  const group = report.networkGroups[0];
  const result = group
    ? { facts: nmsHefFacts(basename(path), group) }
    : { error: report.problems.find((p) => p.severity === 'error')?.message ?? `${basename(path)} has no network group` };
  if (stamp) {
    hefCache.delete(path);
    hefCache.set(path, { stamp, result });
    while (hefCache.size > HEF_CACHE_SIZE) hefCache.delete(hefCache.keys().next().value as string);
  }
  return result;
}

export interface NmsBundleOptions {
  /** An explicit labels file (`--labels`, `hailo.model.labels`), else one beside the HEF / script. */
  labelsPath?: string;
  /** An explicit HEF, else the one beside the script (or config). */
  hefPath?: string;
  /** The facts of `hefPath` when the caller has read it already (the workspace HEF scan): not read again. */
  hefFacts?: NmsHefFacts;
  open?: TextSource;
}

export interface NmsBundleResult {
  findings: NmsFinding[];
  /** The HEF's NMS facts, when a HEF was read. */
  hef?: NmsHefFacts;
  configPath?: string;
  hefPath?: string;
  labelsPath?: string;
  /** Files that were found but could not be read, one sentence each. */
  problems: string[];
}

async function gather(input: NmsCheckInput, near: string, opts: NmsBundleOptions, out: NmsBundleResult, extraHefFrom?: string): Promise<void> {
  const hefPath = opts.hefPath ?? findBeside(near, '.hef') ?? (extraHefFrom ? findBeside(extraHefFrom, '.hef') : undefined);
  if (hefPath) {
    const r = opts.hefFacts && hefPath === opts.hefPath ? { facts: opts.hefFacts } : await readHefNms(hefPath);
    if ('facts' in r) {
      input.hef = r.facts;
      out.hef = r.facts;
      out.hefPath = hefPath;
    } else out.problems.push(r.error);
  }
  const onnx = findOnnxMetadataBeside(near);
  if (onnx) input.ultralytics = onnx;
  const labelsPath = opts.labelsPath ?? (hefPath ? findLabelsBeside(hefPath) : undefined) ?? findLabelsBeside(near);
  if (labelsPath) {
    const r = readLabels(labelsPath, opts.open);
    if ('file' in r) {
      input.labels = { name: basename(labelsPath), file: r.file };
      out.labelsPath = labelsPath;
    } else out.problems.push(r.error);
  }
}

/** The NMS checks of a script's `nms_postprocess` (none when the script has none). */
export async function checkScriptNms(
  scriptPath: string,
  doc: AllsDocument,
  model: ModelLayerIndex | undefined,
  opts: NmsBundleOptions = {},
): Promise<NmsBundleResult> {
  const out: NmsBundleResult = { findings: [], problems: [] };
  const call = nmsCalls(doc)[0];
  if (!call) return out;
  const input: NmsCheckInput = { script: { name: basename(scriptPath), call } };
  if (model) input.model = nmsModelFromIndex(model);
  const configPath = call.configPath ? resolveNmsConfigPath(call.configPath.value, scriptPath) : undefined;
  if (configPath) {
    // A missing file is the .alls rule's finding (alls/nms-config-not-found), not repeated here.
    const r = readNmsConfig(configPath, opts.open);
    if ('doc' in r) {
      input.config = { name: basename(configPath), doc: r.doc };
      out.configPath = configPath;
    } else if (!r.missing) out.problems.push(r.error);
  }
  await gather(input, scriptPath, opts, out);
  out.findings = checkNms(input);
  return out;
}

/** The NMS checks of a config on its own: the model, HEF and labels beside it (no script names it). */
export async function checkConfigNms(configPath: string, model: ModelLayerIndex | undefined, opts: NmsBundleOptions = {}): Promise<NmsBundleResult> {
  const out: NmsBundleResult = { findings: [], problems: [], configPath };
  const r = readNmsConfig(configPath, opts.open);
  if ('error' in r) {
    out.problems.push(r.error);
    return out;
  }
  const input: NmsCheckInput = { config: { name: basename(configPath), doc: r.doc } };
  if (model) input.model = nmsModelFromIndex(model);
  await gather(input, configPath, opts, out);
  out.findings = checkNms(input);
  return out;
}

/**
 * The NMS checks of a HEF: with the script beside it (its config, its model) when there is one, else
 * the NMS config beside it, else only the labels file. `model` resolves a script's HAR (the CLI's and
 * the server's resolver), when the caller has one.
 */
export async function checkHefNms(
  hefPath: string,
  opts: NmsBundleOptions & { model?: (scriptPath: string) => Promise<ModelLayerIndex | undefined> } = {},
): Promise<NmsBundleResult & { scriptPath?: string }> {
  const scriptPath = findBeside(hefPath, '.alls');
  if (scriptPath) {
    let text: string | undefined;
    try {
      text = readText(scriptPath, opts.open);
    } catch {
      text = undefined; // unreadable script: fall back to the config beside the HEF
    }
    const doc = text === undefined ? undefined : analyze(text);
    if (doc && nmsCalls(doc).length) {
      const model = await opts.model?.(scriptPath);
      return { ...(await checkScriptNms(scriptPath, doc, model, { ...opts, hefPath })), scriptPath };
    }
  }
  const configPath = findConfigBeside(hefPath);
  if (configPath) return checkConfigNms(configPath, undefined, { ...opts, hefPath });
  const out: NmsBundleResult = { findings: [], problems: [] };
  const input: NmsCheckInput = {};
  await gather(input, hefPath, { ...opts, hefPath }, out);
  out.findings = checkNms(input);
  return out;
}

/** The only NMS config (by name, see isNmsConfigName) in a file's folder. */
export function findConfigBeside(near: string): string | undefined {
  const dir = dirname(near);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => isNmsConfigName(join(dir, n)));
  } catch {
    return undefined;
  }
  return names.length === 1 ? join(dir, names[0]) : undefined;
}

/** What the HEF inspector's NMS section shows: the HEF's facts and every finding with its file. */
export interface NmsInspection extends NmsBundleResult {
  scriptPath?: string;
  /** Findings with the path of the file each sits in. */
  located: (NmsFinding & { path: string })[];
}

/**
 * The NMS checks for the HEF inspector: checkHefNms with the script's HAR read (HN shapes only; the
 * ONNX is not needed for these checks). `labels` is the `hailo.model.labels` setting, relative to the HEF.
 */
export async function inspectHefNms(hefPath: string, labels = ''): Promise<NmsInspection> {
  const resolver = new ModelResolver(() => ({ ok: false, stamp: 'skipped', error: 'not read for the NMS checks' }));
  const labelsPath = labels ? resolveNmsConfigPath(labels, hefPath, 'hailo.model.labels path') : undefined;
  const r = await checkHefNms(hefPath, { ...(labelsPath ? { labelsPath } : {}), model: async (s) => (await resolver.resolve(s)).index });
  const pathOf = (f: NmsFinding) => (f.file === 'config' ? r.configPath : f.file === 'labels' ? r.labelsPath : f.file === 'script' ? r.scriptPath : hefPath);
  return { ...r, located: r.findings.flatMap((f) => (pathOf(f) ? [{ ...f, path: pathOf(f)! }] : [])) };
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/**
 * One diagnostic on the `nms_postprocess` line for what the config it names gets wrong (the
 * config's own findings sit in the config): the worst severity, each finding with its line.
 */
export function configSummary(call: NmsScriptCall, configName: string, configFindings: NmsFinding[]): Diagnostic | undefined {
  if (!configFindings.length) return undefined;
  const worst = configFindings.reduce((a, f) => (RANK[f.severity] < RANK[a] ? f.severity : a), 'hint' as Severity);
  const shown = configFindings.slice(0, 3).map((f) => `line ${f.range.start.line + 1}: ${f.message}`);
  const more = configFindings.length > 3 ? ` (and ${configFindings.length - 3} more)` : '';
  return {
    range: call.configPath?.range ?? call.nameRange,
    severity: worst,
    code: 'nms/config-mismatch',
    message: `${configName} has ${configFindings.length} problem${configFindings.length === 1 ? '' : 's'}${more}: ${shown.join(' | ')}`,
  };
}

/** The diagnostics a script gets: its own findings, plus the summary of its config's. */
export function scriptDiagnostics(result: NmsBundleResult, doc: AllsDocument): Diagnostic[] {
  const own: Diagnostic[] = result.findings.filter((f) => f.file === 'script').map(({ file: _file, ...d }) => d);
  const call = nmsCalls(doc)[0];
  const summary =
    call && result.configPath
      ? configSummary(
          call,
          basename(result.configPath),
          result.findings.filter((f) => f.file === 'config'),
        )
      : undefined;
  return summary ? [...own, summary] : own;
}

// `hailo-tools check [--json] [--strict] [--hw-arch ARCH] [--har FILE] [--onnx FILE] PATH...` — the `.alls`
// checker for terminals and CI: the same core the language server uses, and the same model
// resolver (server/src/core/har/modelResolver.ts), so a `.har` beside a script gives the same layer
// diagnostics here as in the editor. Folders are searched recursively for `*.alls`; files named
// explicitly are checked whatever their extension.
// A file a script names (an NMS config, a labels file) is read when it lies under a folder named
// on the command line, the current folder, or the git work tree of either (core/common/workTree.ts);
// elsewhere it is skipped, and the summary line says so and why.
// Exit: 0 no errors, 1 errors found, 2 usage error or unreadable input, 3 (--strict) a file skipped.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { analyze } from '../core/alls/analysis';
import { decodeScript, mergeEncodingDiagnostics } from '../core/alls/encoding';
import { nmsConfigResolver, setOpenedFolders, setSkippedPathNote } from '../core/alls/nodeHost';
import { checkDocument } from '../core/alls/rules';
import { HW_ARCHES, isHwArch } from '../core/common/arch';
import { resolveSettings } from '../core/common/settings';
import { ModelResolver, readOnnxSide, type ModelPathSettings, type OnnxLoad } from '../core/har/modelResolver';
import { ScriptArchResolver } from '../core/har/scriptArch';
import type { ArchSource } from '../core/common/archInference';
import { FileRoots } from '../core/common/confined';
import { FileAccessError } from '../core/common/fileAccess';
import { gitWorkTreeOf } from '../core/common/workTree';
import { limit, limitMessage } from '../core/common/limits';
import { SEVERITY_ORDER, type Diagnostic } from '../core/common/types';
import { EXIT_FINDINGS, EXIT_OK, EXIT_SKIPPED, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { checkConfigNms, checkHefNms, checkScriptNms, scriptDiagnostics, type NmsBundleResult } from '../core/nms/bundle';
import { pushAll } from '../core/common/arrays';
import { reportLines } from '../core/common/escape';

const OPTIONS = {
  json: { type: 'boolean', help: 'print one JSON document: {"files":[{"path","diagnostics":[…],"model"?}],"skipped":[…],"summary":{…}}' },
  strict: { type: 'boolean', help: 'a skipped file (not read: outside those folders, or unreadable) fails the run: exit 3' },
  'hw-arch': {
    type: 'string',
    default: 'hailo10h',
    arg: 'ARCH',
    help: `target architecture for architecture-specific rules (default hailo10h) where
nothing else says: a HEF beside a script, its HAR, or a folder named after an
architecture (the model zoo's layout) come first, as in the editor;
one of ${HW_ARCHES.join(', ')}`,
  },
  har: {
    type: 'string',
    arg: 'FILE',
    missing: '--har needs a file',
    help: `the parsed model (.har) to check layer names against; without it, a .har beside
each script is used, as in the editor (same basename, else the only one)`,
  },
  onnx: { type: 'string', arg: 'FILE', missing: '--onnx needs a file', help: 'the ONNX the HAR was parsed from; without it, the one beside the HAR' },
  labels: {
    type: 'string',
    arg: 'FILE',
    missing: '--labels needs a file',
    help: `the app's labels file (hailo-apps labels JSON, a JSON list, or one name per
line) to check against the classes; without it, one beside the HEF or script`,
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
} as const;

const USAGE = `usage: hailo-tools check [--json] [--strict] [--hw-arch ARCH] [--har FILE] [--onnx FILE] [--labels FILE] PATH...

Check .alls model scripts (files, or folders searched recursively for *.alls), and — for a script's
nms_postprocess, an NMS config JSON or a .hef named on the command line — that the NMS config,
the model, the HEF and the labels file agree. A file a script names is read when it lies under a
folder named here, the current folder, or the git work tree of either; any other is skipped, and
the summary line says how many and why.

options:
${helpTable(optionRows(OPTIONS))}

exit status: 0 no errors, 1 errors found, 2 usage error or unreadable input,
             3 with --strict: no errors, but a file was skipped
`;

export interface JsonDiagnostic {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic['severity'];
  code: string;
  message: string;
}

/** The parsed model a file was checked against. */
export interface JsonModel {
  har: string;
  onnx?: string;
  network: string;
  layers: number;
}

/** The architecture a file was checked for, and why (common/archInference.ts). */
export interface JsonArch {
  name: string;
  source: ArchSource;
  /** "from qwen.hef beside this script", "from the folder hailo15l/", "setting `hailo.hwArch`". */
  from: string;
  why: string;
}

/** A file the run did not read: the note printed on stderr, and its reason in a few words. */
export interface JsonSkipped {
  note: string;
  reason: string;
}

export interface CheckReport {
  files: { path: string; diagnostics: JsonDiagnostic[]; model?: JsonModel; arch?: JsonArch }[];
  /** Files left out (set by runCheck from the notes of the run). */
  skipped: JsonSkipped[];
  summary: { files: number; errors: number; warnings: number; skipped: number };
}

interface Options {
  json: boolean;
  strict: boolean;
  hwArch: string;
  paths: string[];
  /** Absolute (resolved against the working folder). */
  har?: string;
  onnx?: string;
  labels?: string;
}

/** The options, or the exit code when the arguments were help or a usage error (printed). */
function parseOptions(args: string[], io: CliIO): Options | number {
  const parsed = parseCommand('check', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  const arch = v['hw-arch'].trim().toLowerCase();
  if (!isHwArch(arch)) return usageError(io, 'check', USAGE, `unknown architecture '${v['hw-arch']}' (expected one of ${HW_ARCHES.join(', ')})`);
  if (parsed.positionals.length === 0) return usageError(io, 'check', USAGE, 'no PATH given');
  const file = (p: string | undefined) => (p === undefined ? undefined : resolve(p));
  return { json: v.json, strict: v.strict, hwArch: arch, paths: parsed.positionals, har: file(v.har), onnx: file(v.onnx), labels: file(v.labels) };
}

/**
 * Expand the command-line paths to files, reporting the ones that cannot be read. A folder is
 * walked without following links to folders and without leaving it (common/fileAccess
 * walkFilesSync): `root -> /` walks nothing, a script linked from outside is left out with a note.
 */
function collectFiles(paths: string[], problems: string[], notes: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    // A path typed here is trusted as written: its own folder is its root.
    const roots = FileRoots.named(p);
    let st;
    try {
      st = roots.stat(p);
    } catch (err) {
      problems.push(`${p}: cannot read (${(err as Error).message})`);
      continue;
    }
    if (!st) {
      problems.push(`${p}: no such file or folder`);
      continue;
    }
    if (!st.isDirectory()) {
      files.push(p);
      continue;
    }
    const walked = FileRoots.of([p]).walk(p, {
      wantFile: (name) => name.endsWith('.alls'),
      skipDir: (name) => name === 'node_modules' || name.startsWith('.'),
    });
    pushAll(files, walked.files);
    for (const s of walked.skipped) (/cannot read folder/.test(s) ? problems : notes).push(s);
  }
  return files;
}

function toJson(d: Diagnostic): JsonDiagnostic {
  return {
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: d.severity,
    code: d.code,
    message: d.message,
  };
}

/** A file named by `--har` / `--onnx` that cannot be used: one sentence, or undefined. */
function unreadable(path: string, what: string): string | undefined {
  try {
    const st = FileRoots.named(path).stat(path);
    if (!st) return `${what} ${path}: no such file`;
    if (st.isFile()) return undefined;
    return `${what} ${path}: not a file`;
  } catch (err) {
    return `${what} ${path}: cannot read (${(err as Error).message})`;
  }
}

/** ONNX reads memoised per path and size/mtime for one run (scripts of a folder share one model). */
function memoisedOnnx(): (path: string) => OnnxLoad {
  const seen = new Map<string, OnnxLoad>();
  return (path) => {
    const hit = seen.get(path);
    const st = FileRoots.named(path).stamp(path) ?? 'missing';
    if (hit && hit.stamp === st) return hit;
    const r = readOnnxSide(path);
    seen.set(path, r);
    return r;
  };
}

export interface ModelOptions {
  resolver: ModelResolver;
  paths: ModelPathSettings;
  /** Problems with explicitly named model files are usage errors (exit 2); others are notes. */
  notes: string[];
}

/** Check files (already expanded); unreadable ones go to `problems`. */
export async function checkFiles(files: string[], hwArch: string, problems: string[], model?: ModelOptions, labelsPath?: string): Promise<CheckReport> {
  const settings = resolveSettings({ hwArch });
  const report: CheckReport = { files: [], skipped: [], summary: { files: 0, errors: 0, warnings: 0, skipped: 0 } };
  // Findings of the NMS checks that sit in other files (a config, a labels file), by path.
  const side = new SideFindings();
  const nmsOpts = { ...(labelsPath ? { labelsPath, labelsTyped: true } : {}) };
  const scriptModel = async (p: string) => (model ? (await model.resolver.resolve(resolve(p), model.paths)).index : undefined);
  const reported = new Set<string>();
  const archResolver = new ScriptArchResolver();
  // UTF-8 takes at most 4 bytes per character: a larger file cannot be under the character limit.
  const maxBytes = 4 * limit('documentChars');
  for (const path of files) {
    if (/\.(json|hef)$/i.test(path)) {
      // A config or HEF named on the command line: its NMS checks (the script/model beside it).
      const r = path.toLowerCase().endsWith('.hef')
        ? await checkHefNms(resolve(path), { ...nmsOpts, model: scriptModel })
        : await checkConfigNms(resolve(path), await scriptModel(path), nmsOpts);
      side.add(r, path);
      for (const p of r.problems) model?.notes.push(p);
      // Listed whatever it found: a file named on the command line was checked, under any name
      // (a clean `nms_layer_config.json` gave `files: []`, as if it had been skipped).
      if (!r.problems.length) report.files.push({ path, diagnostics: [] });
      continue;
    }
    let diagnostics: Diagnostic[];
    let resolved: Awaited<ReturnType<ModelResolver['resolve']>> | undefined;
    let arch: JsonArch | undefined;
    try {
      const bytes = FileRoots.named(path).readSync(path, maxBytes);
      const { text, diagnostics: encoding } = decodeScript(bytes);
      resolved = model ? await model.resolver.resolve(resolve(path), model.paths) : undefined;
      for (const p of resolved?.problems ?? []) {
        if (reported.has(p)) continue;
        reported.add(p);
        // A file the user named is a usage error; one merely found beside a script is noted, and the
        // script is checked without it — as the editor does.
        const named = (model!.paths.harPath && p.startsWith(model!.paths.harPath)) || (model!.paths.onnxPath && p.includes(model!.paths.onnxPath));
        (named ? problems : model!.notes).push(p);
      }
      const index = resolved?.index;
      // As the editor does: a HEF/HAR beside the script, then its folder, then --hw-arch.
      const inferred = await archResolver.resolve(resolve(path), settings.hwArch, index);
      arch = { name: inferred.arch, source: inferred.source, from: inferred.from, why: inferred.why };
      const doc = analyze(text);
      diagnostics = mergeEncodingDiagnostics(
        encoding,
        checkDocument(doc, {
          settings: { hwArch: inferred.arch },
          archFrom: inferred.from,
          fileExists: nmsConfigResolver(path),
          ...(index ? { model: index } : {}),
        }),
      );
      const nms = await checkScriptNms(resolve(path), doc, index, nmsOpts);
      pushAll(diagnostics, scriptDiagnostics(nms, doc));
      side.add(nms, path);
      for (const p of nms.problems) model?.notes.push(p);
    } catch (err) {
      if (err instanceof FileAccessError && err.code === 'too-large') {
        diagnostics = [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            severity: 'warning',
            code: 'alls/limit',
            message: limitMessage('documentChars', 'This file', `${(FileRoots.named(path).stat(path)?.size ?? 0).toLocaleString('en-US')} bytes`),
          },
        ];
      } else if (err instanceof FileAccessError) {
        problems.push(err.message); // "'x' is a FIFO (named pipe), not a regular file; not read", "cannot open 'x': …"
        continue;
      } else {
        // A bug of ours: say so for this file and go on with the others.
        problems.push(`${path}: internal error while checking this file (please report it): ${(err as Error)?.stack ?? err}`);
        continue;
      }
    }
    const index = resolved?.index;
    const json = sortDiagnostics(diagnostics).map(toJson);
    const entry: CheckReport['files'][number] = { path, diagnostics: json, ...(arch ? { arch } : {}) };
    if (index && resolved?.harPath) {
      entry.model = { har: resolved.harPath, network: index.networkName, layers: index.layers.size };
      if (resolved.onnxPath && !resolved.problems.some((p) => p.includes(resolved.onnxPath!))) entry.model.onnx = resolved.onnxPath;
    }
    report.files.push(entry);
  }
  for (const [path, list] of side.byPath) {
    const existing = report.files.find((f) => resolve(f.path) === resolve(path));
    const json = sortDiagnostics(list).map(toJson);
    if (existing) pushAll(existing.diagnostics, json);
    else report.files.push({ path, diagnostics: json });
  }
  report.summary.files = report.files.length;
  for (const f of report.files)
    for (const d of f.diagnostics) {
      if (d.severity === 'error') report.summary.errors++;
      else if (d.severity === 'warning') report.summary.warnings++;
    }
  return report;
}

const sortDiagnostics = (list: Diagnostic[]) =>
  [...list].sort(
    (a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );

/** NMS findings in configs and labels files, each once however many scripts name the file. */
class SideFindings {
  readonly byPath = new Map<string, Diagnostic[]>();
  private readonly seen = new Set<string>();

  /** `named`: the path as given on the command line (for a config or HEF checked on its own). */
  add(r: NmsBundleResult, named: string): void {
    for (const f of r.findings) {
      // A script's own findings are already in its diagnostics, unless the run named a HEF or config.
      const script = /\.(json|hef)$/i.test(named) ? (r as NmsBundleResult & { scriptPath?: string }).scriptPath : undefined;
      const path = f.file === 'config' ? r.configPath : f.file === 'labels' ? r.labelsPath : f.file === 'script' ? script : undefined;
      if (!path) continue;
      const shown = relativeOrAbsolute(path, named);
      const key = `${resolve(shown)}|${f.code}|${f.range.start.line}:${f.range.start.character}|${f.message}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      const { file: _file, ...d } = f;
      const list = this.byPath.get(shown) ?? this.byPath.set(shown, []).get(shown)!;
      list.push(d);
    }
  }
}

/** A side file's path as the user would write it: relative to the working folder when the file it came from was given so. */
function relativeOrAbsolute(path: string, near: string): string {
  return isAbsolute(near) ? path : relative(process.cwd(), path) || path;
}

export function formatHuman(report: CheckReport): string {
  const lines: string[] = [];
  let infos = 0;
  for (const f of report.files) {
    for (const d of f.diagnostics) {
      if (d.severity === 'info' || d.severity === 'hint') infos++;
      lines.push(`${f.path}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
    }
  }
  // Which parsed model the layer checks used (a .har found beside a script is not obvious otherwise).
  const models = new Map<string, number>();
  for (const f of report.files) {
    if (!f.model) continue;
    const label = `${f.model.har} (network ${f.model.network}, ${f.model.layers} layers${f.model.onnx ? `, ONNX ${f.model.onnx}` : ''})`;
    models.set(label, (models.get(label) ?? 0) + 1);
  }
  for (const [m, n] of models) lines.push(`model: ${m} for ${n} file${n === 1 ? '' : 's'}`);
  // Which architecture the rules used, when something other than --hw-arch decided it.
  const arches = new Map<string, number>();
  for (const f of report.files) {
    if (!f.arch || f.arch.source === 'setting') continue;
    const label = `${f.arch.name} (${f.arch.from.replace(' beside this script', ' beside the script')})`;
    arches.set(label, (arches.get(label) ?? 0) + 1);
  }
  for (const [a, n] of arches) lines.push(`arch: ${a} for ${n} file${n === 1 ? '' : 's'}`);
  const s = report.summary;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(s.files, 'file')} checked: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${infos} info/hint${infos === 1 ? '' : 's'}${skippedSummary(report.skipped)}`,
  );
  return reportLines(lines);
}

/** The few words the summary line gives for a skipped file, from the note that says it in full. */
function skipReason(note: string, fromModel: boolean): string {
  if (fromModel) return 'a model file beside a script could not be used';
  if (/environment variables are never expanded/.test(note)) return 'an environment variable in its path (never expanded)';
  if (/outside/.test(note)) return 'outside the folders named, the current folder and their git work trees';
  return 'could not be read';
}

/** "; 2 files skipped, not read (1 outside …; 1 …) — see the notes on stderr", or "". */
function skippedSummary(skipped: readonly JsonSkipped[]): string {
  if (skipped.length === 0) return '';
  const byReason = new Map<string, number>();
  for (const s of skipped) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
  const reasons = [...byReason].map(([reason, n]) => `${n} ${reason}`).join('; ');
  const n = skipped.length;
  return `; ${n} file${n === 1 ? '' : 's'} skipped, not read (${reasons}) — see the note${n === 1 ? '' : 's'} on stderr`;
}

export async function runCheck(args: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(args, io);
  if (typeof parsed === 'number') return parsed;
  const problems: string[] = [];
  for (const [file, what] of [
    [parsed.har, '--har'],
    [parsed.onnx, '--onnx'],
    [parsed.labels, '--labels'],
  ] as const) {
    const why = file ? unreadable(file, what) : undefined;
    if (why) {
      io.err(`hailo-tools check: ${why}\n`);
      return EXIT_USAGE;
    }
  }
  // The folders paths inside a script may lead into (nms_postprocess configs, labels): the current
  // folder, the ones named here, and the git work tree each lies in — so `check` run from another
  // folder than the detector's still reads the config its script names from the same project.
  const named = [process.cwd(), ...parsed.paths.map((p) => resolve(p))];
  const workTrees = named.map(gitWorkTreeOf).filter((t): t is string => t !== undefined);
  setOpenedFolders([...new Set([...named, ...workTrees])]);
  const walkNotes: string[] = [];
  const skipped: string[] = [];
  const files = collectFiles(parsed.paths, problems, walkNotes);
  const model: ModelOptions = { resolver: new ModelResolver(memoisedOnnx()), paths: { harPath: parsed.har, onnxPath: parsed.onnx }, notes: [] };
  setSkippedPathNote((sentence) => skipped.push(sentence));
  let report: Awaited<ReturnType<typeof checkFiles>>;
  try {
    report = await checkFiles(files, parsed.hwArch, problems, model, parsed.labels);
  } finally {
    setSkippedPathNote(undefined);
  }
  report.skipped = [
    ...model.notes.map((note) => ({ note: `${note}; checked without it`, reason: skipReason(note, true) })),
    ...[...walkNotes, ...skipped].map((note) => ({ note, reason: skipReason(note, false) })),
  ];
  report.summary.skipped = report.skipped.length;
  if (parsed.json) io.out(JSON.stringify(report) + '\n');
  else io.out(formatHuman(report));
  for (const n of model.notes) io.err(`hailo-tools check: note: ${n.replace(/\.$/, '')}; checked without it\n`);
  for (const n of walkNotes) io.err(`hailo-tools check: note: ${n}\n`);
  for (const n of skipped) io.err(`hailo-tools check: note: ${n}\n`);
  for (const p of problems) io.err(`hailo-tools check: ${p}\n`);
  if (problems.length) return EXIT_USAGE;
  if (report.summary.errors > 0) return EXIT_FINDINGS;
  return parsed.strict && report.skipped.length > 0 ? EXIT_SKIPPED : EXIT_OK;
}

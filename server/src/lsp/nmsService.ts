// NMS configs and labels files as JSON documents: the cross-file findings (server/src/core/nms) on the
// config's lines — against the script that names it (its meta_arch, its HAR, the HEF beside it) or,
// when no script does, the HAR/HEF beside the config — and on a labels JSON beside a HEF. A config
// whose name VS Code's `jsonValidation` patterns miss but that an `.alls` names also gets the
// schema's diagnostics, hover and completion from here (vscode-json-languageservice), so the
// association follows the scripts. Which scripts name which config: a scan of the workspace's
// `.alls` at start, kept current by a file watcher and by the open documents.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic, FileChangeType } from 'vscode-languageserver/node';
import { getLanguageService, type JSONSchema, type LanguageService as JsonLanguageService } from 'vscode-json-languageservice';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze } from '../core/alls/analysis';
import { resolveNmsConfigPath } from '../core/alls/nodeHost';
import { codeActions } from '../core/alls/outline';
import { FileRoots } from '../core/common/confined';
import { limit } from '../core/common/limits';
import type { Diagnostic } from '../core/common/types';
import { findBeside } from '../core/har/modelResolver';
import { checkConfigNms, checkHefNms, checkScriptNms, type TextSource } from '../core/nms/bundle';
import type { NmsFinding } from '../core/nms/checks';
import { isNmsConfigName } from '../core/nms/files';
import { looksLikeLabelsFile } from '../core/nms/labels';
import { nmsCalls } from '../core/nms/script';
import schema from '../../../schemas/nms-config.schema.json';
import type { AttachableService, ServerHost, ServiceContext } from './service';
import { walkWorkspaceFolder } from './workspaceWalk';

const SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 } as const;
const MAX_SCRIPTS = 5000;
const SCHEMA_URI = 'hailo-tools://schemas/nms-config.schema.json';

function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function toLsp(d: Diagnostic): LspDiagnostic {
  return { range: d.range, severity: SEVERITY[d.severity], code: d.code, source: 'hailo-nms', message: d.message };
}

/** Which config each script's `nms_postprocess` names (resolved paths). */
export class ScriptConfigIndex {
  private readonly configOf = new Map<string, string | undefined>();

  /** Index a script's text; true when what it names changed. */
  set(scriptPath: string, text: string): boolean {
    const call = nmsCalls(analyze(text))[0];
    const config = call?.configPath ? resolveNmsConfigPath(call.configPath.value, scriptPath) : undefined;
    const changed = this.configOf.get(scriptPath) !== config;
    this.configOf.set(scriptPath, config);
    return changed;
  }

  delete(scriptPath: string): boolean {
    return this.configOf.delete(scriptPath);
  }

  /** Scripts naming `configPath`, sorted (the first decides). */
  scriptsNaming(configPath: string): string[] {
    return [...this.configOf]
      .filter(([, c]) => c === configPath)
      .map(([s]) => s)
      .sort();
  }
}

export function createNmsService(): AttachableService {
  const index = new ScriptConfigIndex();
  const findings = new Map<string, { version: number; list: Diagnostic[] }>();
  const seenVersion = new Map<string, number>();
  let json: JsonLanguageService | undefined;
  let host: ServerHost | undefined;

  const jsonService = () => {
    if (!json) {
      json = getLanguageService({});
      json.configure({ validate: true, allowComments: false, schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: schema as JSONSchema }] });
    }
    return json;
  };

  /** The editor's buffer for a path when the file is open. */
  const openText: TextSource = (path) => {
    for (const d of host?.documents.all() ?? []) if (pathOf(d.uri) === path) return d.getText();
    return undefined;
  };

  /** Open scripts, indexed once per version (a 1 MB script takes ~20 ms to analyse). */
  const indexedVersion = new Map<string, number>();
  function indexOpenScripts(): void {
    for (const d of host?.documents.all() ?? []) {
      const p = pathOf(d.uri);
      if (!p?.toLowerCase().endsWith('.alls') || indexedVersion.get(d.uri) === d.version) continue;
      index.set(p, d.getText());
      indexedVersion.set(d.uri, d.version);
    }
  }

  function indexFromDisk(path: string): boolean {
    try {
      return index.set(path, FileRoots.near(path).readText(path, limit('nmsSideFileBytes')));
    } catch {
      return index.delete(path); // unreadable or too large for a model script with nms_postprocess
    }
  }

  /** Is this JSON document an NMS config (by name, or named by a script)? */
  function role(path: string): { byName: boolean; scripts: string[] } {
    indexOpenScripts();
    return { byName: isNmsConfigName(path), scripts: index.scriptsNaming(path) };
  }

  async function configFindings(path: string, scripts: string[], ctx: ServiceContext): Promise<NmsFinding[]> {
    const labels = ctx.settings.model.labels;
    if (scripts.length) {
      const script = scripts[0];
      let text = openText(script, FileRoots.near(path));
      if (text === undefined) {
        try {
          text = FileRoots.near(path).readText(script, limit('nmsSideFileBytes'));
        } catch {
          text = undefined;
        }
      }
      if (text !== undefined) {
        const model = await ctx.modelLayersFor?.(pathToFileURL(script).toString());
        const r = await checkScriptNms(script, analyze(text), model, {
          open: openText,
          ...(labels ? { labelsPath: resolveNmsConfigPath(labels, script, 'hailo.model.labels path') } : {}),
        });
        return r.findings.filter((f) => f.file === 'config');
      }
    }
    const r = await checkConfigNms(path, await ctx.modelLayers(), {
      open: openText,
      ...(labels ? { labelsPath: resolveNmsConfigPath(labels, path, 'hailo.model.labels path') } : {}),
    });
    return r.findings.filter((f) => f.file === 'config');
  }

  async function labelsFindings(path: string): Promise<NmsFinding[]> {
    const hef = findBeside(path, '.hef');
    if (!hef) return [];
    const r = await checkHefNms(hef, { labelsPath: path, open: openText });
    return r.labelsPath === path ? r.findings.filter((f) => f.file === 'labels') : [];
  }

  return {
    languageIds: ['json', 'jsonc'],
    // Labels names files (`coco.names`, `labels.txt`) open as plaintext: routed by name; others get nothing.
    fileExtensions: ['.names', '.txt'],

    attach(h) {
      host = h;
      h.documents.onDidClose((e) => {
        findings.delete(e.document.uri);
        seenVersion.delete(e.document.uri);
        // A closed script is what is on disk again.
        if (indexedVersion.delete(e.document.uri)) {
          const p = pathOf(e.document.uri);
          if (p) indexFromDisk(p);
        }
      });
      h.watchFiles('**/*.alls', (changes) => {
        let changed = false;
        for (const c of changes) {
          const p = pathOf(c.uri);
          if (!p?.toLowerCase().endsWith('.alls')) continue;
          changed = (c.type === FileChangeType.Deleted ? index.delete(p) : indexFromDisk(p)) || changed;
        }
        if (changed) h.revalidateAll();
      });
      void (async () => {
        const found: string[] = [];
        for (const uri of await h.workspaceFolders()) {
          const p = pathOf(uri);
          if (p) await walkWorkspaceFolder(p, found, MAX_SCRIPTS, (e) => e.isFile() && e.name.toLowerCase().endsWith('.alls'));
        }
        let any = false;
        for (const p of found) any = indexFromDisk(p) || any;
        if (found.length >= MAX_SCRIPTS) h.log(`nms: stopped the workspace scan at ${MAX_SCRIPTS} .alls files`);
        if (any) h.revalidateAll();
      })().catch((err: unknown) => h.onError(err, 'nms: workspace scan'));
    },

    async validate(td, ctx) {
      const path = pathOf(td.uri);
      if (!path) return [];
      const { byName, scripts } = role(path);
      const name = path.split(/[\\/]/).pop()!;
      let list: Diagnostic[] = [];
      if (byName || scripts.length) {
        list = (await configFindings(path, scripts, ctx)).map(({ file: _file, ...d }) => d);
        if (!byName) {
          // VS Code's JSON language validates only the files its patterns match: the schema here.
          const js = jsonService();
          const schemaDiags = await js.doValidation(td, js.parseJSONDocument(td));
          list.unshift(
            ...schemaDiags.map((d): Diagnostic => ({
              range: d.range,
              severity: d.severity === 1 ? 'error' : 'warning',
              code: 'nms/schema',
              message: `${d.message} (NMS config schema)`,
            })),
          );
        }
        // An edit to the config changes what its scripts' nms_postprocess line says.
        if (seenVersion.get(td.uri) !== td.version && seenVersion.has(td.uri)) host?.revalidateAll();
        seenVersion.set(td.uri, td.version);
      } else if (looksLikeLabelsFile(name)) {
        list = (await labelsFindings(path)).map(({ file: _file, ...d }) => d);
      }
      findings.set(td.uri, { version: td.version, list });
      return list.map(toLsp);
    },

    async hover(td: TextDocument, pos) {
      const path = pathOf(td.uri);
      if (!path || isNmsConfigName(path) || !role(path).scripts.length) return null;
      const js = jsonService();
      return (await js.doHover(td, pos, js.parseJSONDocument(td))) ?? null;
    },

    async completion(td: TextDocument, pos) {
      const path = pathOf(td.uri);
      if (!path || isNmsConfigName(path) || !role(path).scripts.length) return [];
      const js = jsonService();
      return (await js.doComplete(td, pos, js.parseJSONDocument(td)))?.items ?? [];
    },

    codeActions(td, range): CodeAction[] {
      const cached = findings.get(td.uri);
      if (!cached || cached.version !== td.version) return [];
      return codeActions(cached.list, range).map(({ fix, diagnostic }) => ({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLsp(diagnostic)],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [td.uri]: fix.edits.map((e) => ({ range: e.range, newText: e.newText })) } },
      }));
    },
  };
}

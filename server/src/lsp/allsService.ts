// LanguageService for `.alls` model scripts: adapts the pure core (server/src/core/alls) to LSP types.
// Holds only a small cache of analysed documents (by URI and version) so hover, completion and
// friends don't re-parse a multi-megabyte allocator script on every request, and a new version is
// re-analysed incrementally from the previous one. Handlers await the model *before* touching the
// cache: re-analysis reuses (mutates) the previous version's nodes, so no handler may hold a
// document across an await.
import { localPathOf } from './uri';
import {
  CodeActionKind,
  CompletionItemKind,
  CompletionItemTag,
  DiagnosticSeverity,
  DiagnosticTag,
  FoldingRangeKind,
  MarkupKind,
  SymbolKind,
  type CodeAction,
  type CompletionItem,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type Location,
  type SemanticTokens,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  analyze,
  checkDocument,
  codeActions,
  complete,
  definition,
  documentSymbols,
  foldingRanges,
  hover,
  semanticTokens,
  signatureHelp,
  type AllsDocument,
  type CompletionKind,
  type SymbolInfo,
} from '../core/alls';
import { reanalyze } from '../core/alls/incremental';
import { nmsConfigResolver, resolveNmsConfigPath } from '../core/alls/nodeHost';
import { checkScriptNms, scriptDiagnostics } from '../core/nms/bundle';
import type { Diagnostic } from '../core/common/types';
import { archHoverMarkdown, inferArch, type ArchInference } from '../core/common/archInference';
import type { ModelLayerIndex } from '../core/common/modelLayers';
import { ScriptArchResolver } from '../core/har/scriptArch';
import { calibDiagnostics, calibHover } from '../core/calib/scriptView';
import { createCalibrationProvider } from './calibrationSet';
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES, type AttachableService } from './service';
import { pushAll } from '../core/common/arrays';

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  command: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  subcommand: CompletionItemKind.Module,
  keyword: CompletionItemKind.Property,
  value: CompletionItemKind.EnumMember,
  layer: CompletionItemKind.Reference,
  name: CompletionItemKind.Variable,
  context: CompletionItemKind.Variable,
};

const SYMBOL_KIND: Record<SymbolInfo['kind'], SymbolKind> = {
  stage: SymbolKind.Namespace,
  command: SymbolKind.Function,
  definition: SymbolKind.Variable,
};

/** Documents kept analysed (most recently used last). */
const CACHE_SIZE = 8;

const fsPathOf = localPathOf;

export function toLspDiagnostic(uri: string, d: Diagnostic): LspDiagnostic {
  const out: LspDiagnostic = { range: d.range, severity: SEVERITY[d.severity], code: d.code, source: 'alls', message: d.message };
  if (d.related?.length) out.relatedInformation = d.related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
  if (d.tags?.length) out.tags = d.tags.map((t) => (t === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  return out;
}

function toDocumentSymbol(s: SymbolInfo): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: SYMBOL_KIND[s.kind],
    range: s.range,
    selectionRange: s.selectionRange,
    ...(s.children ? { children: s.children.map(toDocumentSymbol) } : {}),
  };
}

export function createAllsService(): AttachableService {
  const docs = new Map<string, { version: number; doc: AllsDocument }>();
  const diagnostics = new Map<string, { version: number; list: Diagnostic[] }>();
  const archResolver = new ScriptArchResolver();
  /** The architecture each open script was last validated for (code actions are synchronous). */
  const lastArch = new Map<string, ArchInference>();

  /** The architecture the script targets: a HEF/HAR beside it, its folder, then the setting. */
  async function archOf(uri: string, setting: string, model: ModelLayerIndex | undefined): Promise<ArchInference> {
    const path = fsPathOf(uri);
    return path ? archResolver.resolve(path, setting, model) : inferArch({ scriptPath: '', setting });
  }

  function analysed(td: TextDocument): AllsDocument {
    const hit = docs.get(td.uri);
    if (hit && hit.version === td.version) {
      docs.delete(td.uri); // refresh its place in the LRU order
      docs.set(td.uri, hit);
      return hit.doc;
    }
    const doc = hit ? reanalyze(hit.doc, td.getText()) : analyze(td.getText());
    docs.delete(td.uri);
    docs.set(td.uri, { version: td.version, doc });
    while (docs.size > CACHE_SIZE) docs.delete(docs.keys().next().value as string);
    return doc;
  }

  /** The editor's buffer of an open file (an NMS config being edited), set once attached. */
  let openText: (path: string) => string | undefined = () => undefined;

  return {
    languageIds: ['alls'],
    fileExtensions: ['.alls'],

    attach(host) {
      openText = (p) => {
        for (const d of host.documents.all()) if (fsPathOf(d.uri) === p) return d.getText();
        return undefined;
      };
      // Drop a closed document's analysis (a 1 MB allocator dump holds ~10 MB of nodes).
      host.documents.onDidClose((e) => {
        docs.delete(e.document.uri);
        diagnostics.delete(e.document.uri);
        lastArch.delete(e.document.uri);
      });
      // The calibration set beside a script: diagnostics where they disagree, a hover section.
      host.setCalibrationProvider?.(createCalibrationProvider(host));
      host.watchFiles('**/*.{npy,npz}', () => host.revalidateAll());
      // A HEF or HAR appearing beside a script can change the architecture it is checked for.
      host.watchFiles('**/*.{hef,har}', () => host.revalidateAll());
      // A noise analysis finishing beside the HAR adds SNR to hovers and the 16-bit quick fix.
      host.watchFiles('**/*.noise.json', () => host.revalidateAll());
    },

    async validate(td, ctx) {
      const model = await ctx.modelLayers();
      const calib = await ctx.calibration?.();
      const arch = await archOf(td.uri, ctx.settings.hwArch, model);
      lastArch.set(td.uri, arch);
      const doc = analysed(td);
      const list = checkDocument(doc, { settings: { hwArch: arch.arch }, archFrom: arch.from, model, fileExists: nmsConfigResolver(fsPathOf(td.uri)) });
      if (calib) pushAll(list, calibDiagnostics(doc, calib));
      // nms_postprocess: its config against the model, the HEF and the labels (server/src/core/nms).
      const path = fsPathOf(td.uri);
      if (path) {
        const labels = ctx.settings.model.labels;
        const nms = await checkScriptNms(path, doc, model, {
          open: openText,
          ...(labels ? { labelsPath: resolveNmsConfigPath(labels, path, 'hailo.model.labels path') } : {}),
        });
        pushAll(list, scriptDiagnostics(nms, doc));
      }
      diagnostics.delete(td.uri);
      diagnostics.set(td.uri, { version: td.version, list });
      while (diagnostics.size > CACHE_SIZE) diagnostics.delete(diagnostics.keys().next().value as string);
      return list.map((d) => toLspDiagnostic(td.uri, d));
    },

    async hover(td, pos, ctx) {
      const model = await ctx.modelLayers();
      const calib = await ctx.calibration?.();
      // The first line says which architecture the script is checked for, and why.
      const arch = pos.line === 0 ? archHoverMarkdown(await archOf(td.uri, ctx.settings.hwArch, model)) : undefined;
      const doc = analysed(td);
      const h = hover(doc, pos, { model });
      const extra = calib ? calibHover(doc, doc.lines.offsetAt(pos), calib) : undefined;
      if (!h && !extra && !arch) return null;
      const value = [h?.markdown, extra, arch].filter(Boolean).join('\n\n---\n\n');
      return h ? { contents: { kind: MarkupKind.Markdown, value }, range: h.range } : { contents: { kind: MarkupKind.Markdown, value } };
    },

    async completion(td, pos, ctx) {
      const model = await ctx.modelLayers();
      const entries = complete(analysed(td), pos, { model });
      return entries.map((e): CompletionItem => {
        const item: CompletionItem = {
          label: e.label,
          kind: COMPLETION_KIND[e.kind],
          textEdit: { range: e.range, newText: e.insertText ?? e.label },
        };
        if (e.detail) item.detail = e.detail;
        if (e.documentation) item.documentation = { kind: MarkupKind.Markdown, value: e.documentation };
        if (e.sortText) item.sortText = e.sortText;
        if (e.deprecated) item.tags = [CompletionItemTag.Deprecated];
        return item;
      });
    },

    signatureHelp(td, pos) {
      const s = signatureHelp(analysed(td), pos);
      if (!s) return null;
      const active = s.signatures[s.activeSignature];
      return {
        signatures: s.signatures.map((sig) => ({
          label: sig.label,
          documentation: sig.documentation ? { kind: MarkupKind.Markdown, value: sig.documentation } : undefined,
          parameters: sig.parameters.map((p) => ({
            label: p.label,
            documentation: p.documentation ? { kind: MarkupKind.Markdown, value: p.documentation } : undefined,
          })),
        })),
        activeSignature: s.activeSignature,
        // Out of range = nothing highlighted (e.g. a positional beyond every form).
        activeParameter: s.activeParameter >= 0 ? s.activeParameter : (active?.parameters.length ?? 0),
      };
    },

    async definition(td, pos, ctx) {
      const model = await ctx.modelLayers();
      const found = definition(analysed(td), pos, { model });
      return found.map((l): Location => ({ uri: l.uri ?? td.uri, range: l.range }));
    },

    documentSymbols(td, ctx) {
      return documentSymbols(analysed(td), ctx.budget).map(toDocumentSymbol);
    },

    foldingRanges(td, ctx) {
      return foldingRanges(analysed(td), ctx.budget).map((f): FoldingRange => ({
        startLine: f.startLine,
        endLine: f.endLine,
        ...(f.kind ? { kind: f.kind === 'comment' ? FoldingRangeKind.Comment : FoldingRangeKind.Region } : {}),
      }));
    },

    semanticTokens(td, ctx): SemanticTokens {
      const data: number[] = [];
      let line = 0;
      let char = 0;
      for (const t of semanticTokens(analysed(td), ctx.budget)) {
        const deltaLine = t.line - line;
        data.push(
          deltaLine,
          deltaLine === 0 ? t.character - char : t.character,
          t.length,
          SEMANTIC_TOKEN_TYPES.indexOf(t.type),
          t.modifiers.reduce((m, x) => m | (1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(x)), 0),
        );
        line = t.line;
        char = t.character;
      }
      return { data };
    },

    codeActions(td, range, _context, ctx) {
      const cached = diagnostics.get(td.uri);
      // Diagnostics of this version (with the model's layers); else recompute without the model,
      // for the architecture the script was last validated for.
      const arch = lastArch.get(td.uri);
      const list =
        cached && cached.version === td.version
          ? cached.list
          : checkDocument(analysed(td), {
              settings: { hwArch: arch?.arch ?? ctx.settings.hwArch },
              archFrom: arch?.from,
              fileExists: nmsConfigResolver(fsPathOf(td.uri)),
            });
      return codeActions(list, range).map(({ fix, diagnostic }): CodeAction => ({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLspDiagnostic(td.uri, diagnostic)],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [td.uri]: fix.edits.map((e) => ({ range: e.range, newText: e.newText })) } },
      }));
    },
  };
}

// LanguageService for the ONNX graph view (`hailo-onnx:` documents, language `onnx-graph`): serves
// the view's text to the client, and answers hover, diagnostics (DFC pre-flight findings), outline,
// go-to-producer and find-consumers. It also installs the HAR model-layer provider for `.alls`.
import { DiagnosticSeverity, SymbolKind, type Diagnostic, type DocumentSymbol, type Hover, type Location, type Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeLabel, opKey } from '../core/onnx/analysis';
import { findingSpan, GRAPH_LANGUAGE_ID, nodeHover, targetAt, tensorHover, type GraphView, type Span } from '../core/onnx/graphView';
import { formatShape } from '../core/onnx/model';
import { pathForGraphUri } from '../core/onnx/viewUri';
import { OnnxGraphTextRequest, type OnnxGraphTextResult } from '../protocol';
import { errorViewText, OnnxModelCache, type LoadedModel } from './onnxCache';
import { createHarLayerProvider } from './modelLayers';
import type { AttachableService, ServerHost } from './service';
import { oneLine } from '../core/common/escape';

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

export class OnnxGraphService implements AttachableService {
  readonly languageIds = [GRAPH_LANGUAGE_ID];
  readonly cache = new OnnxModelCache();

  attach(host: ServerHost): void {
    host.connection.onRequest(OnnxGraphTextRequest, (params) => this.viewText(params?.uri));
    host.setModelLayerProvider(createHarLayerProvider(this.cache, host));
  }

  /** Text of the view for a `hailo-onnx:` URI (an explanatory text when the file is not readable). */
  viewText(uri: string | undefined): OnnxGraphTextResult {
    const path = uri ? pathForGraphUri(uri) : undefined;
    if (!path) return { text: `# not a ${GRAPH_LANGUAGE_ID} URI: ${uri}\n`, ok: false };
    const m = this.cache.load(path);
    return m.ok ? { text: m.view.text, ok: true } : { text: errorViewText(path, m.error), ok: false };
  }

  /** The loaded model whose rendered text is the document's text (undefined if stale or unreadable). */
  private model(doc: TextDocument): (LoadedModel & { ok: true }) | undefined {
    const path = pathForGraphUri(doc.uri);
    if (!path) return undefined;
    const m = this.cache.load(path);
    if (!m.ok) return undefined;
    // comparing a multi-megabyte text on every hover is the slow part: remember the verdict per version
    const key = `${doc.version}|${m.stamp}`;
    if (this.verified.get(doc.uri) !== key) {
      if (m.view.text !== doc.getText()) return undefined;
      this.verified.set(doc.uri, key);
    }
    return m;
  }
  private readonly verified = new Map<string, string>();

  validate(doc: TextDocument): Diagnostic[] {
    const path = pathForGraphUri(doc.uri);
    if (!path) return [];
    const m = this.cache.load(path);
    if (!m.ok) {
      return [
        {
          range: range({ line: 0, start: 0, end: 0 }),
          severity: DiagnosticSeverity.Error,
          source: 'hailo',
          code: `onnx/${m.kind}`,
          message: `not readable ONNX: ${m.error}`,
        },
      ];
    }
    if (m.view.text !== doc.getText()) {
      return [
        {
          range: range({ line: 0, start: 0, end: 0 }),
          severity: DiagnosticSeverity.Information,
          source: 'hailo',
          code: 'onnx/stale-view',
          message: 'The model file changed since this view was opened; reopen the view to refresh it.',
        },
      ];
    }
    return m.analysis.findings.map((f) => ({
      range: range(findingSpan(m.view, m.analysis, f)),
      severity: SEVERITY[f.severity],
      source: 'hailo DFC pre-flight',
      code: f.code,
      message: `${f.message}\nevidence: ${f.evidence}\nfix: ${f.fix}\nconfidence: ${f.confidence}`,
    }));
  }

  hover(doc: TextDocument, pos: Position): Hover | null {
    const m = this.model(doc);
    if (!m) return null;
    const at = targetAt(m.view, pos.line, pos.character);
    let value: string | undefined;
    if (at.tensor) value = tensorHover(m.analysis, at.tensor);
    else if (at.target?.kind === 'node') value = nodeHover(m.analysis, at.target.node);
    else if (at.target?.kind === 'input' || at.target?.kind === 'output') value = tensorHover(m.analysis, at.target.tensor);
    if (!value) return null;
    return { contents: { kind: 'markdown', value }, ...(at.span ? { range: range(at.span) } : {}) };
  }

  /** On a tensor: the line that produces it (node, or graph input). On an output line: its producer. */
  definition(doc: TextDocument, pos: Position): Location[] | null {
    const m = this.model(doc);
    if (!m) return null;
    const at = targetAt(m.view, pos.line, pos.character);
    const tensor = at.tensor ?? (at.target?.kind === 'output' || at.target?.kind === 'input' ? at.target.tensor : undefined);
    if (!tensor) return null;
    const p = m.analysis.shapes.producer.get(tensor);
    const ps = p && m.view.nodeNameSpan.get(p); // nodes past the view's size limit have no line
    if (ps) return [{ uri: doc.uri, range: range(ps) }];
    const l = m.view.inputLine.get(tensor);
    return l === undefined ? null : [{ uri: doc.uri, range: range({ line: l, start: 2, end: 2 + oneLine(tensor).length }) }];
  }

  /** On a tensor: its consumers. On a node: the consumers of its outputs. */
  references(doc: TextDocument, pos: Position): Location[] | null {
    const m = this.model(doc);
    if (!m) return null;
    const at = targetAt(m.view, pos.line, pos.character);
    const tensors = at.tensor
      ? [at.tensor]
      : at.target?.kind === 'node'
        ? at.target.node.outputs.filter(Boolean)
        : at.target?.kind === 'input' || at.target?.kind === 'output'
          ? [at.target.tensor]
          : [];
    const out: Location[] = [];
    const seen = new Set<number>();
    for (const t of tensors) {
      for (const c of m.analysis.shapes.consumers.get(t) ?? []) {
        const span = m.view.nodeNameSpan.get(c);
        if (!span || seen.has(span.line)) continue;
        seen.add(span.line);
        out.push({ uri: doc.uri, range: range(span) });
      }
      const ol = m.view.outputLine.get(t);
      if (ol !== undefined && !seen.has(ol)) out.push({ uri: doc.uri, range: range({ line: ol, start: 2, end: 2 + oneLine(t).length }) });
    }
    return out;
  }

  documentSymbols(doc: TextDocument): DocumentSymbol[] {
    const m = this.model(doc);
    if (!m) return [];
    const { view, analysis } = m;
    const lines = view.text.split('\n');
    const lineLen = (l: number) => lines[l]?.length ?? 0;
    const section = (name: string, kind: SymbolKind, children: DocumentSymbol[]): DocumentSymbol => {
      const s = view.sections.find((x) => x.name === name)!;
      return {
        name,
        kind,
        range: { start: { line: s.line, character: 0 }, end: { line: s.end, character: lines[s.end]?.length ?? 0 } },
        selectionRange: { start: { line: s.line, character: 0 }, end: { line: s.line, character: name.length } },
        children,
      };
    };
    const tensorSym = (name: string, l: number): DocumentSymbol => ({
      name: oneLine(name) || '∅',
      detail: oneLine(formatShape(analysis.shapes.facts.get(name)?.shape ?? null)),
      kind: SymbolKind.Variable,
      range: { start: { line: l, character: 0 }, end: { line: l, character: lineLen(l) } },
      selectionRange: range({ line: l, start: 2, end: 2 + oneLine(name).length }),
    });
    const shown = analysis.model.graph.nodes.filter((n) => view.nodeNameSpan.has(n));
    const nodes = shown.map((n): DocumentSymbol => {
      const span = view.nodeNameSpan.get(n)!;
      return {
        name: oneLine(nodeLabel(n)),
        detail: oneLine(`${opKey(n)} → ${n.outputs.map((o) => formatShape(analysis.shapes.facts.get(o)?.shape ?? null)).join(', ')}`),
        kind: SymbolKind.Function,
        range: { start: { line: span.line, character: 0 }, end: { line: span.line, character: lines[span.line].length } },
        selectionRange: range(span),
      };
    });
    return [
      section(
        'inputs',
        SymbolKind.Namespace,
        [...view.inputLine].map(([t, l]) => tensorSym(t, l)),
      ),
      section(
        'outputs',
        SymbolKind.Namespace,
        [...view.outputLine].map(([t, l]) => tensorSym(t, l)),
      ),
      section('nodes', SymbolKind.Namespace, nodes),
    ];
  }
}

export function range(s: Span) {
  return { start: { line: s.line, character: s.start }, end: { line: s.line, character: s.end } };
}

export type { GraphView };

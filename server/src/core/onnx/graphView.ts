// The read-only "graph view" of an ONNX model: a text document with a summary, inputs/outputs and
// one line per node, plus the maps from positions to nodes and tensors that hover, go-to-definition,
// references, outline and diagnostics need. Pure: the LSP service only adapts it.
import { nodeLabel, nodeRanks, opKey, tensorNames, type OnnxAnalysis } from './analysis';
import { opKnowledge } from './dfcFacts';
import { dataTypeName, formatShape, type NodeInfo, type Shape } from './model';
import type { Finding } from './preflight';
import { formatBytes, opsetText } from './summary';
import { mdCell, mdCode, mdText, oneLine } from '../common/escape';
import { limit } from '../common/limits';

export { GRAPH_LANGUAGE_ID } from './viewUri';

export interface Span {
  line: number;
  start: number;
  end: number;
}

export type LineTarget = { kind: 'node'; node: NodeInfo } | { kind: 'input' | 'output'; tensor: string } | { kind: 'header' };

export interface GraphView {
  text: string;
  /** What each line shows (undefined for blank/section lines). */
  lines: (LineTarget | undefined)[];
  /** Tensor names on each line, with their character ranges. */
  tensorSpans: Map<number, { start: number; end: number; tensor: string }[]>;
  nodeLine: Map<NodeInfo, number>;
  /** Span of the node's name (the part a hover or a go-to-definition lands on). */
  nodeNameSpan: Map<NodeInfo, Span>;
  inputLine: Map<string, number>;
  outputLine: Map<string, number>;
  /** Line of the summary header (model-level findings attach here). */
  headerLine: number;
  /** Lines of the "inputs:", "outputs:", "nodes:" section titles. */
  sections: { name: string; line: number; end: number }[];
}

export function renderGraphView(a: OnnxAnalysis, fileLabel: string): GraphView {
  const m = a.model;
  const g = m.graph;
  const out: string[] = [];
  const lines: (LineTarget | undefined)[] = [];
  const tensorSpans = new Map<number, { start: number; end: number; tensor: string }[]>();
  const nodeLine = new Map<NodeInfo, number>();
  const nodeNameSpan = new Map<NodeInfo, Span>();
  const inputLine = new Map<string, number>();
  const outputLine = new Map<string, number>();
  const sections: { name: string; line: number; end: number }[] = [];
  const push = (text: string, target?: LineTarget) => {
    out.push(text);
    lines.push(target);
    return out.length - 1;
  };
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of a.findings) counts[f.severity]++;

  // Names come from the file: a newline in one would misalign every line after it (oneLine).
  const headerLine = push(`# ONNX graph view (read-only): ${oneLine(fileLabel)}`, { kind: 'header' });
  push(
    oneLine(
      `# IR ${m.irVersion} · opsets ${opsetText(m.opsets)}${m.producerName ? ` · producer ${m.producerName} ${m.producerVersion}`.trimEnd() : ''} · ${formatBytes(m.fileSize)}`,
    ),
    { kind: 'header' },
  );
  push(
    `# ${g.nodes.length} nodes · ${Object.keys(a.operators).length} operators · ${g.initializers.length} initializers (${formatBytes(a.initializerBytes)})`,
    {
      kind: 'header',
    },
  );
  push(
    oneLine(
      `# operators: ${
        Object.entries(a.operators)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }`,
    ),
    { kind: 'header' },
  );
  push(
    `# tensor ranks: ${
      Object.entries(a.rankHistogram)
        .map(([k, v]) => `rank ${k}: ${v}`)
        .join(', ') || 'none'
    }${a.unknownRank ? `, unknown: ${a.unknownRank}` : ''}`,
    { kind: 'header' },
  );
  push(`# DFC pre-flight: ${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} note(s)`, { kind: 'header' });

  const typed = (name: string) => {
    const f = a.shapes.facts.get(name);
    return oneLine(`${dataTypeName(f?.dtype ?? 0)}${formatShape(f?.shape ?? null)}`);
  };
  const shapeOnly = (name: string) => oneLine(formatShape(a.shapes.facts.get(name)?.shape ?? null));

  /** Appends `name<suffix>` pieces to a line being built and records the tensor spans. */
  const builder = (lineNo: number) => {
    let text = '';
    const spans: { start: number; end: number; tensor: string }[] = [];
    return {
      raw(s: string) {
        text += s;
      },
      tensor(name: string, suffix: string) {
        const start = text.length;
        text += oneLine(name) || '∅';
        if (name) spans.push({ start, end: text.length, tensor: name });
        text += suffix;
      },
      done(target: LineTarget) {
        tensorSpans.set(lineNo, spans);
        return push(text, target);
      },
      get length() {
        return text.length;
      },
    };
  };

  push('');
  let sec = push('inputs:');
  for (const v of a.inputs) {
    const b = builder(out.length);
    b.raw('  ');
    b.tensor(v.name, `: ${typed(v.name)}`);
    inputLine.set(v.name, b.done({ kind: 'input', tensor: v.name }));
  }
  sections.push({ name: 'inputs', line: sec, end: out.length - 1 });
  push('');
  sec = push('outputs:');
  for (const v of g.outputs) {
    const b = builder(out.length);
    b.raw('  ');
    b.tensor(v.name, `: ${typed(v.name)}`);
    outputLine.set(v.name, b.done({ kind: 'output', tensor: v.name }));
  }
  sections.push({ name: 'outputs', line: sec, end: out.length - 1 });
  push('');
  sec = push('nodes:');
  // The server answers for documents up to LIMITS.documentChars: the view stays under it.
  const maxChars = limit('documentChars') - 4096;
  let chars = out.reduce((sum, l) => sum + l.length + 1, 0);
  for (let k = 0; k < g.nodes.length; k++) {
    const n = g.nodes[k];
    if (chars > maxChars) {
      push(
        `  … ${g.nodes.length - k} more nodes are not shown: the view stops at ${Math.round(maxChars / 2 ** 20)} MiB of text (\`hailo-tools onnx --json --shapes\` lists them all)`,
      );
      break;
    }
    const lineNo = out.length;
    const b = builder(lineNo);
    b.raw('  ');
    const label = oneLine(nodeLabel(n));
    const nameStart = b.length;
    b.raw(label);
    nodeNameSpan.set(n, { line: lineNo, start: nameStart, end: nameStart + label.length });
    b.raw(` = ${oneLine(opKey(n))}(`);
    n.inputs.forEach((i, k) => b.tensor(i, `${i ? shapeOnly(i) : ''}${k < n.inputs.length - 1 ? ', ' : ''}`));
    b.raw(') -> ');
    n.outputs.forEach((o, k) => b.tensor(o, `${o ? ` ${typed(o)}` : ''}${k < n.outputs.length - 1 ? ', ' : ''}`));
    nodeLine.set(n, b.done({ kind: 'node', node: n }));
    chars += out[out.length - 1].length + 1;
  }
  sections.push({ name: 'nodes', line: sec, end: out.length - 1 });
  return { text: out.join('\n') + '\n', lines, tensorSpans, nodeLine, nodeNameSpan, inputLine, outputLine, headerLine, sections };
}

/** What sits at a position: a tensor name, else the node/input/output of the line. */
export function targetAt(view: GraphView, line: number, character: number): { tensor?: string; target?: LineTarget; span?: Span } {
  const spans = view.tensorSpans.get(line) ?? [];
  const hit = spans.find((s) => character >= s.start && character <= s.end);
  const target = view.lines[line];
  if (hit) {
    // on a node line the name span is the node itself, even when the node is named like its output
    if (target?.kind === 'node') {
      const ns = view.nodeNameSpan.get(target.node)!;
      if (character >= ns.start && character <= ns.end) return { target, span: ns };
    }
    return { tensor: hit.tensor, target, span: { line, start: hit.start, end: hit.end } };
  }
  return { target };
}

/** Where a finding shows in the view. */
export function findingSpan(view: GraphView, a: OnnxAnalysis, f: Finding): Span {
  if (f.nodeIndex !== undefined) {
    const n = a.model.graph.nodes[f.nodeIndex];
    const s = n && view.nodeNameSpan.get(n);
    if (s) return s;
  }
  const t = f.tensor ?? f.node ?? undefined;
  if (t !== undefined) {
    const l = view.inputLine.get(t) ?? view.outputLine.get(t);
    if (l !== undefined) return { line: l, start: 2, end: 2 + oneLine(t).length };
  }
  const header = view.text.split('\n', 1)[0];
  return { line: view.headerLine, start: 0, end: header.length };
}

function shapeText(a: OnnxAnalysis, name: string): { dtype: string; shape: string; rank: string } {
  const f = a.shapes.facts.get(name);
  const s: Shape = f?.shape ?? null;
  return { dtype: dataTypeName(f?.dtype ?? 0), shape: formatShape(s), rank: s ? String(s.length) : '?' };
}

// Hover markdown: every file-derived string through mdCode (code span), mdCell (code span in a
// table cell) or mdText (plain text): no link, image or command: URI can come out of a name.
const mdEscape = mdText;
const code = mdCode;
const SEVERITY_ICON: Record<string, string> = { error: '⛔', warning: '⚠️', info: 'ℹ️' };

export function findingMarkdown(f: Finding): string {
  return `${SEVERITY_ICON[f.severity]} **${f.severity}** ${code(f.code)} (${f.confidence} confidence): ${mdEscape(f.message)}\n  \n  *evidence:* ${mdEscape(f.evidence)}\n  \n  *fix:* ${mdEscape(f.fix)}`;
}

export function attributeText(n: NodeInfo): string[] {
  return n.attributes.map((at) => {
    let v: string;
    if (at.i !== undefined) v = String(at.i);
    else if (at.f !== undefined) v = String(at.f);
    else if (at.s !== undefined) v = JSON.stringify(at.s.length > 80 ? at.s.slice(0, 80) + '…' : at.s);
    else if (at.ints) v = `[${at.ints.slice(0, 16).join(',')}${at.ints.length > 16 ? ',…' : ''}]`;
    else if (at.floats) v = `[${at.floats.slice(0, 16).join(',')}${at.floats.length > 16 ? ',…' : ''}]`;
    else if (at.strings) v = `[${at.strings.map((x) => JSON.stringify(x)).join(',')}]`;
    else if (at.t) v = `tensor ${dataTypeName(at.t.dataType)}${formatShape(at.t.dims)}`;
    else if (at.g) v = `graph (${at.g.nodes.length} nodes)`;
    else if (at.graphs) v = `${at.graphs.length} graphs`;
    else v = at.refAttrName ? `@${at.refAttrName}` : '?';
    return `${at.name}=${v}`;
  });
}

/** Hover for a node: op, inputs and outputs with shapes and ranks, attributes, DFC facts, findings. */
export function nodeHover(a: OnnxAnalysis, n: NodeInfo): string {
  const ranks = nodeRanks(a, n);
  const lines: string[] = [];
  lines.push(`**${code(nodeLabel(n))}** — ${code(opKey(n))} (node ${n.index + 1} of ${a.model.graph.nodes.length})`);
  lines.push('');
  lines.push('| | tensor | dtype | shape | rank |');
  lines.push('|---|---|---|---|---|');
  n.inputs.forEach((t, i) => {
    if (!t) return;
    const s = shapeText(a, t);
    lines.push(`| in ${i} | ${mdCell(t)} | ${s.dtype} | ${mdCell(s.shape)} | ${ranks.inputs[i] ?? '?'} |`);
  });
  n.outputs.forEach((t, i) => {
    if (!t) return;
    const s = shapeText(a, t);
    lines.push(`| out ${i} | ${mdCell(t)} | ${s.dtype} | ${mdCell(s.shape)} | ${ranks.outputs[i] ?? '?'} |`);
  });
  const attrs = attributeText(n);
  if (attrs.length) lines.push('', `attributes: ${attrs.map(code).join(', ')}`);
  if (n.subgraphs.length) lines.push('', `subgraphs: ${n.subgraphs.map((s) => `${code(s.attribute)} (${s.graph.nodes.length} nodes)`).join(', ')}`);
  if (a.foldable.has(n)) lines.push('', 'constant once input shapes are fixed: a simplifier (onnxsim) folds this node away');
  const k = opKnowledge(n.opType, n.domain);
  lines.push('', `**DFC:** ${mdEscape(k.summary)}  \n*source:* ${mdEscape(k.evidence)}`);
  const fs = a.findings.filter((f) => f.nodeIndex === n.index);
  if (fs.length) {
    lines.push('', '**Findings**', '');
    for (const f of fs) lines.push(`- ${findingMarkdown(f)}`);
  }
  return lines.join('\n');
}

/** Hover for a tensor: type, shape, rank, where it comes from and where it goes. */
export function tensorHover(a: OnnxAnalysis, name: string): string {
  const f = a.shapes.facts.get(name);
  const s = shapeText(a, name);
  const lines: string[] = [];
  lines.push(`**${code(name)}** — ${s.dtype}${mdCode(s.shape)} (rank ${s.rank})`);
  const init = a.model.graph.initializers.find((t) => t.name === name);
  if (init) {
    lines.push(
      '',
      `initializer, ${formatBytes(init.bytes)}${init.external ? `, external data in ${code(init.external.location)} at offset ${init.external.offset}` : ''}`,
    );
    if (init.external?.problem) lines.push('', `⚠️ ${mdEscape(init.external.problem)}`);
  } else if (f?.source === 'declared') lines.push('', 'shape as declared in the file (inference could not derive it)');
  if (f?.value && f.value.length <= 16) lines.push('', `value: ${code(`[${f.value.map((v) => (v === null ? '?' : String(v))).join(', ')}]`)}`);
  const p = a.shapes.producer.get(name);
  if (p) lines.push('', `produced by ${code(nodeLabel(p))} (${code(p.opType)})`);
  else if (a.inputs.some((v) => v.name === name)) lines.push('', 'graph input');
  const cs = a.shapes.consumers.get(name) ?? [];
  if (cs.length)
    lines.push(
      '',
      `consumed by ${cs
        .slice(0, 8)
        .map((c) => code(nodeLabel(c)))
        .join(', ')}${cs.length > 8 ? ` and ${cs.length - 8} more` : ''}`,
    );
  return lines.join('\n');
}

/** All tensor names the view can resolve (for tests and completion of end nodes). */
export function viewTensors(a: OnnxAnalysis): string[] {
  return tensorNames(a.model, a.inputs);
}

// The JSON document `hailo-tools onnx --json` prints (the issue's contract), and its text form.
import { tensorNames, type OnnxAnalysis } from './analysis';
import { dataTypeName, formatShape, type Dim, type Shape } from './model';
import { reportLines } from '../common/escape';

export interface OnnxSummary {
  irVersion: number;
  opsets: Record<string, number>;
  nodes: number;
  operators: Record<string, number>;
  rankHistogram: Record<string, number>;
  inputs: { name: string; shape: Dim[] | null }[];
  outputs: { name: string; shape: Dim[] | null }[];
  initializers: { count: number; bytes: number };
  findings: {
    code: string;
    severity: string;
    node: string | null;
    message: string;
    evidence: string;
    fix: string;
    confidence: string;
  }[];
  /** Every graph input and node output: dims (number, or string for a symbol), null when unknown. */
  shapes?: Record<string, Dim[] | null>;
}

export function summarize(a: OnnxAnalysis, withShapes: boolean): OnnxSummary {
  const shapeOf = (name: string): Shape => a.shapes.facts.get(name)?.shape ?? null;
  const s: OnnxSummary = {
    irVersion: a.model.irVersion,
    opsets: a.model.opsets,
    nodes: a.model.graph.nodes.length,
    operators: a.operators,
    rankHistogram: a.rankHistogram,
    inputs: a.inputs.map((v) => ({ name: v.name, shape: shapeOf(v.name) })),
    outputs: a.model.graph.outputs.map((v) => ({ name: v.name, shape: shapeOf(v.name) })),
    initializers: { count: a.model.graph.initializers.length, bytes: a.initializerBytes },
    findings: a.findings.map((f) => ({
      code: f.code,
      severity: f.severity,
      node: f.node,
      message: f.message,
      evidence: f.evidence,
      fix: f.fix,
      confidence: f.confidence,
    })),
  };
  if (withShapes) {
    s.shapes = {};
    for (const name of tensorNames(a.model, a.inputs)) s.shapes[name] = shapeOf(name);
  }
  return s;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export function opsetText(opsets: Record<string, number>): string {
  return Object.entries(opsets)
    .map(([d, v]) => `${d || 'ai.onnx'} ${v}`)
    .join(', ');
}

/** Human-readable report for the terminal. */
export function summaryText(a: OnnxAnalysis, file: string, withShapes: boolean): string {
  const m = a.model;
  const g = m.graph;
  const lines: string[] = [];
  const dtypeOf = (name: string) => dataTypeName(a.shapes.facts.get(name)?.dtype ?? 0);
  lines.push(`${file}`);
  lines.push(`  IR ${m.irVersion}, opsets ${opsetText(m.opsets)}${m.producerName ? `, producer ${m.producerName} ${m.producerVersion}`.trimEnd() : ''}`);
  lines.push(
    `  ${g.nodes.length} nodes, ${Object.keys(a.operators).length} operators, ${g.initializers.length} initializers (${formatBytes(a.initializerBytes)})`,
  );
  lines.push('', 'inputs:');
  for (const v of a.inputs) lines.push(`  ${v.name}  ${dtypeOf(v.name)}${formatShape(a.shapes.facts.get(v.name)?.shape ?? null)}`);
  lines.push('outputs:');
  for (const v of g.outputs) lines.push(`  ${v.name}  ${dtypeOf(v.name)}${formatShape(a.shapes.facts.get(v.name)?.shape ?? null)}`);
  lines.push('', 'operators:');
  lines.push(
    '  ' +
      Object.entries(a.operators)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
  );
  lines.push('tensor ranks:');
  lines.push(
    '  ' +
      (Object.entries(a.rankHistogram)
        .map(([k, v]) => `rank ${k}: ${v}`)
        .join(', ') || 'none') +
      (a.unknownRank ? `, unknown: ${a.unknownRank}` : ''),
  );
  lines.push('', a.findings.length ? `findings (${a.findings.length}):` : 'findings: none');
  for (const f of a.findings) {
    lines.push(`  ${f.severity.padEnd(7)} ${f.code}${f.node ? ` [${f.node}]` : ''} (${f.confidence} confidence)`);
    lines.push(`          ${f.message}`);
    lines.push(`          evidence: ${f.evidence}`);
    lines.push(`          fix: ${f.fix}`);
  }
  if (withShapes) {
    lines.push('', 'shapes:');
    for (const name of tensorNames(m, a.inputs)) lines.push(`  ${name}  ${dtypeOf(name)}${formatShape(a.shapes.facts.get(name)?.shape ?? null)}`);
  }
  return reportLines(lines);
}

// The bisection's answer as text (the terminal and the editor's output channel print the same).
import type { BisectOutcome } from './bisectRun';
import { reportLines } from '../../core/common/escape';

/** The answer for a terminal: the node, the message, what is known, then every parse. */
export function bisectText(o: BisectOutcome): string {
  const lines: string[] = [];
  const f = o.firstRefusal;
  lines.push(`model: ${o.model} (${o.nodes} nodes searched; DFC ${o.dfcVersion ?? 'version unknown'}, ${o.hwArch}${o.image ? `, ${o.image}` : ''})`);
  if (!f) lines.push('the whole model parses: translate_onnx_model did not refuse it');
  else {
    lines.push(`first refusal: ${f.node} (${f.opType})`);
    if (f.among.length > 1) lines.push(`  among: ${f.among.join(', ')} (unnamed nodes hide the cuts between them)`);
    for (const i of f.facts.inputs) lines.push(`  input  ${i.name}: ${i.shape}${i.rank === null ? '' : ` (rank ${i.rank})`}${i.constant ? ' constant' : ''}`);
    for (const t of f.facts.outputs) lines.push(`  output ${t.name}: ${t.shape}${t.rank === null ? '' : ` (rank ${t.rank})`}`);
    if (f.brings.length) lines.push(`  brings in constant plumbing: ${f.brings.map((b) => `${b.node} (${b.opType})`).join(', ')}`);
    lines.push(`  DFC: ${f.message}${f.frames.length ? `  [in ${f.frames[f.frames.length - 1]}]` : ''}`);
    if (f.dfcCode) lines.push(`  log reader: ${f.dfcCode}${f.dfcExplanation ? ` — ${f.dfcExplanation}` : ''}`);
    if (f.recommendedEndNodes.length) lines.push(`  the parser recommends end nodes: ${f.recommendedEndNodes.join(', ')}`);
    lines.push(`  the op: ${f.op.summary}`);
    for (const k of f.known) {
      lines.push(`  known (${k.severity}, ${k.code}): ${k.message}`);
      lines.push(`    fix: ${k.fix}`);
      lines.push(`    evidence: ${k.evidence}`);
    }
    lines.push(
      `  confirmed: ${f.lastParsed ? `the prefix before it parses (end nodes ${f.lastParsed.end!.join(', ')})` : 'it is the first node'}; with it the parser refuses`,
    );
  }
  lines.push('', 'parses:');
  for (const [i, r] of o.runs.entries()) {
    const cut = r.cut.end === null ? 'whole model' : `end_node_names=[${r.cut.end.join(', ')}]`;
    lines.push(
      `  ${String(i + 1).padStart(2)}. ${String(r.prefix).padStart(5)}/${o.nodes}  ${r.outcome.padEnd(7)}  ${r.seconds.toFixed(1).padStart(6)} s${r.cached ? ' (cached)' : ''}  ${cut}`,
    );
  }
  lines.push(`${o.runs.length} parse(s) of at most ${o.budget}${o.cache ? `; cache: ${o.cache}` : ''}`);
  for (const n of o.notes) lines.push(`note: ${n}`);
  return reportLines(lines);
}

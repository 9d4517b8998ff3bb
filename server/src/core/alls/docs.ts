// Markdown for hover and completion documentation, built from the schema and the parsed model.
import { mdCode } from '../common/escape';
import type { ModelLayer } from '../common/modelLayers';
import type { CommandSpec, EnumValue, ParamSpec, Signature, SubcommandSpec, ValueKind } from './schemaTypes';
import { STAGE_TITLES } from './schemaTypes';

const KIND_TEXT: Record<ValueKind, string> = {
  int: 'integer',
  number: 'number',
  bool: 'True/False',
  none: 'None',
  enum: 'word',
  layer: 'layer',
  glob: '{pattern}',
  layerList: '[layers]',
  string: '"string"',
  duration: 'duration (30m, 2h)',
  numberList: '[numbers]',
  intList: '[integers]',
  enumList: '[words]',
  name: 'name',
  any: 'value',
};

const EVIDENCE_TEXT = { corpus: "Hailo's model-zoo scripts", hailo: "Hailo's own code", 'third-party': 'third-party code only (unverified)' };

export function signatureText(spec: CommandSpec, s: Signature, isMethod = false): string {
  const params = s.params.map((p) => (p.variadic ? `${p.name}…` : p.optional ? `[${p.name}]` : p.name));
  const kw = Object.keys(spec.kwargs).length ? ['kw=…'] : [];
  const sub = spec.subcommands ? ['feature'] : [];
  return `${isMethod ? 'ctx.' : ''}${spec.name}(${[...sub, ...params, ...kw].join(', ')})`;
}

export function valuesSummary(prm: ParamSpec): string {
  const v = prm.value;
  const parts: string[] = [];
  for (const k of v.kinds) {
    if ((k === 'enum' || k === 'enumList') && v.enum) {
      const words = v.enum.values.map((x) => x.name);
      const shown = words.length > 6 ? words.slice(0, 6).join(' | ') + ' | …' : words.join(' | ');
      parts.push(k === 'enumList' ? `[${shown}]` : shown);
    } else if (k !== 'any' || parts.length === 0) parts.push(KIND_TEXT[k]);
  }
  let s = parts.join(' or ');
  if (v.min !== undefined || v.max !== undefined) s += ` (${v.min ?? '…'}–${v.max ?? '…'})`;
  if (v.length !== undefined) s += ` (${v.length} values)`;
  return s;
}

function evidenceLine(evidence: string | undefined, since: string | undefined): string {
  const bits: string[] = [];
  if (evidence) bits.push(`Source: ${EVIDENCE_TEXT[evidence as keyof typeof EVIDENCE_TEXT] ?? evidence}`);
  if (since) bits.push(`first seen ${since}`);
  return bits.length ? `\n\n*${bits.join('; ')}.*` : '';
}

export function commandMarkdown(spec: CommandSpec, isMethod = false): string {
  const forms = spec.signatures.map((s) => signatureText(spec, s, isMethod));
  let md =
    '```alls\n' +
    (spec.targets === 'required' ? 'name = ' : '') +
    forms.join('\n' + (spec.targets === 'required' ? 'name = ' : '')) +
    '\n```\n\n' +
    spec.doc +
    '.';
  md += `\n\nStage: ${STAGE_TITLES[spec.stage]}.`;
  if (spec.replacedBy) md += ` Legacy — newer scripts write \`${spec.replacedBy}\`.`;
  if (spec.subcommands)
    md += `\n\n${spec.subcommands.enumName}: ${Object.keys(spec.subcommands.items)
      .map((k) => `\`${k}\``)
      .join(', ')}.`;
  const kws = Object.values(spec.kwargs);
  if (kws.length) md += `\n\nKeywords: ${kws.map((k) => `\`${k.name}\``).join(', ')}.`;
  if (spec.arch) md += `\n\nSeen only in ${spec.arch.seenOn.join(', ')} scripts.`;
  return md + evidenceLine(spec.evidence, spec.since);
}

export function subcommandMarkdown(spec: CommandSpec, sub: SubcommandSpec): string {
  let md = '```alls\n' + `${spec.name}(${sub.name}${Object.keys(sub.kwargs).length ? ', kw=…' : ''})` + '\n```\n\n' + sub.doc + '.';
  const kws = Object.values(sub.kwargs);
  if (kws.length) md += '\n\n' + kws.map((k) => `- \`${k.name}\`: ${valuesSummary(k)} — ${k.doc}`).join('\n');
  if (sub.arch) md += `\n\nSeen only in ${sub.arch.seenOn.join(', ')} scripts.`;
  return md + evidenceLine(sub.evidence, sub.since);
}

export function paramMarkdown(prm: ParamSpec): string {
  let md = `\`${prm.name}\`: ${valuesSummary(prm)}\n\n${prm.doc}.`;
  if (prm.value.rangeNote && (prm.value.min !== undefined || prm.value.max !== undefined)) md += ` Range: ${prm.value.rangeNote}.`;
  if (prm.replacedBy) md += ` Legacy — newer scripts write \`${prm.replacedBy}\`.`;
  if (prm.arch) md += `\n\nSeen only in ${prm.arch.seenOn.join(', ')} scripts.`;
  if (prm.value.enum)
    md +=
      `\n\nValues (${prm.value.enum.source}${prm.value.enum.closed ? '' : '; may be incomplete'}):\n` +
      prm.value.enum.values.map((v) => `- \`${v.name}\` — ${v.doc}`).join('\n');
  return md + evidenceLine(prm.evidence, prm.since);
}

export function enumValueMarkdown(prm: ParamSpec, v: EnumValue): string {
  let md = `\`${v.name}\` — ${v.doc}.\n\nA value of \`${prm.name}\` (${prm.value.enum!.name}; ${prm.value.enum!.source}).`;
  if (v.arch) md += `\n\nSeen only in ${v.arch.seenOn.join(', ')} scripts.`;
  if (v.evidence === 'third-party') md += '\n\n*Third-party code only (unverified).*';
  return md;
}

function shapes(s: ModelLayer['inputShapes']): string {
  return s.map((x) => mdCode(`[${x.map((d) => (d === null ? '?' : String(d))).join(', ')}]`)).join(', ');
}

/** Hover for a layer of the model. Everything in it comes from the HAR: code spans only (mdCode). */
export function layerMarkdown(l: ModelLayer, source: string): string {
  const lines = [`**${mdCode(l.fullName || l.name)}** — ${mdCode(l.type)} layer`];
  if (l.inputShapes.length) lines.push(`- input: ${shapes(l.inputShapes)}`);
  if (l.outputShapes.length) lines.push(`- output: ${shapes(l.outputShapes)}`);
  if (l.originalNames.length) lines.push(`- ONNX: ${l.originalNames.map(mdCode).join(', ')}`);
  let md = lines.join('\n');
  if (l.detail) md += `\n\n${l.detail}`; // built escaped by har/layers.ts
  return md + `\n\n*From ${mdCode(source)}.*`;
}

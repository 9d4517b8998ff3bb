// Completion: commands at the start of a statement, context methods after `ctx.`, sub-commands,
// keywords, enum values, booleans, and layer names (from the parsed model and from names the
// script defined earlier).
import { mdCode } from '../common/escape';
import type { Span } from './ast';
import { positionalSpec, type AllsDocument } from './analysis';
import { cursorContext } from './cursor';
import type { CompletionEntry, CompletionKind } from './featureTypes';
import { layerLookup } from './layers';
import { COMMANDS, METHODS } from './schema';
import { STAGE_TITLES, type CommandSpec, type ParamSpec, type Signature } from './schemaTypes';
import { commandMarkdown, paramMarkdown, subcommandMarkdown, valuesSummary } from './docs';
import type { ModelLayerIndex } from '../common/modelLayers';
import type { Position } from '../common/types';

export interface FeatureOptions {
  model?: ModelLayerIndex;
}

const STAGE_ORDER = { modification: 0, optimization: 1, compilation: 2, allocation: 3 };

export function complete(doc: AllsDocument, pos: Position, options: FeatureOptions = {}): CompletionEntry[] {
  const offset = doc.lines.offsetAt(pos);
  const ctx = cursorContext(doc, offset);
  if (ctx.kind === 'none') return [];
  const range = doc.lines.range(ctx.prefix.start, ctx.prefix.end);
  const out: CompletionEntry[] = [];
  const add = (label: string, kind: CompletionKind, extra: Partial<CompletionEntry> = {}) => out.push({ label, kind, range, ...extra });

  if (ctx.kind === 'statementStart') {
    for (const c of COMMANDS.values()) {
      if (c.methodOnly) continue;
      add(c.name, 'command', {
        detail: STAGE_TITLES[c.stage],
        documentation: commandMarkdown(c),
        sortText: `${STAGE_ORDER[c.stage]}${c.name}`,
        ...(c.replacedBy ? { deprecated: true } : {}),
      });
    }
    for (const d of definedBefore(doc, ctx.statementStart)) {
      if (d.command === 'context') add(d.name, 'context', { detail: `context (line ${doc.lines.positionAt(d.start).line + 1})`, sortText: `9${d.name}` });
    }
    return out;
  }

  if (ctx.kind === 'method') {
    const isContext = definedBefore(doc, ctx.statementStart).some((d) => d.name === ctx.object && d.command === 'context');
    if (!isContext) return [];
    for (const m of METHODS.values()) add(m.name, 'method', { detail: `method of context ${ctx.object}`, documentation: commandMarkdown(m, true) });
    return out;
  }

  const spec = ctx.object ? METHODS.get(ctx.command) : COMMANDS.get(ctx.command);
  if (!spec) return [];
  const layers = (): void => addLayers(doc, ctx.statementStart, options.model, add);

  // After `keyword=` (or inside its list): the keyword's values.
  const sub = spec.subcommands && ctx.firstArgName ? spec.subcommands.items[ctx.firstArgName] : undefined;
  if (ctx.keyword) {
    const prm = (sub ? sub.kwargs : spec.kwargs)[ctx.keyword];
    if (prm) addValues(prm, ctx.inList, ctx.inPattern, add, layers);
    return out;
  }

  if (spec.subcommands) {
    if (ctx.argIndex === 0) {
      if (ctx.inList || ctx.inPattern) return [];
      for (const s of Object.values(spec.subcommands.items)) {
        add(s.name, 'subcommand', {
          detail: `${spec.subcommands.enumName}${s.evidence === 'third-party' ? ' (third-party only)' : ''}`,
          documentation: subcommandMarkdown(spec, s),
        });
      }
      return out;
    }
    if (!sub || ctx.inList || ctx.inPattern) return out;
    addKeywords(sub.kwargs, ctx.usedKeywords, add);
    return out;
  }

  // A positional slot or a new keyword.
  const positionalIndex = ctx.argIndex - ctx.keywordsBefore;
  const slot = ctx.keywordsBefore === 0 ? positionalSlot(spec, positionalIndex) : undefined;
  if (slot) addValues(slot, ctx.inList, ctx.inPattern, add, layers);
  if (!ctx.inList && !ctx.inPattern) addKeywords(spec.kwargs, ctx.usedKeywords, add);
  return out;
}

/** The positional parameter at `i` in any of the command's forms (first form that has it). */
function positionalSlot(spec: CommandSpec, i: number): ParamSpec | undefined {
  const forms: Signature[] = [...spec.signatures].sort((a, b) => b.params.length - a.params.length);
  // Prefer the form whose slot `i` is a layer/enum slot that exists; e.g. change_output_activation.
  const found = forms.map((s) => positionalSpec(s, i)).filter((x): x is ParamSpec => !!x);
  if (found.length <= 1) return found[0];
  // Merge alternatives (layer or activation in slot 0 of change_output_activation).
  const kinds = [...new Set(found.flatMap((f) => f.value.kinds))];
  const e = found.find((f) => f.value.enum)?.value.enum;
  return { ...found[0], name: found.map((f) => f.name).join(' | '), value: { kinds, ...(e ? { enum: e } : {}) } };
}

function addKeywords(kwargs: Record<string, ParamSpec>, used: Set<string>, add: (l: string, k: CompletionKind, e?: Partial<CompletionEntry>) => void): void {
  for (const prm of Object.values(kwargs)) {
    if (used.has(prm.name)) continue;
    add(prm.name, 'keyword', {
      insertText: `${prm.name}=`,
      detail: valuesSummary(prm),
      documentation: paramMarkdown(prm),
      sortText: `${prm.evidence === 'third-party' ? 'z' : 'a'}${prm.name}`,
      ...(prm.replacedBy ? { deprecated: true } : {}),
    });
  }
}

function addValues(
  prm: ParamSpec,
  inList: boolean,
  inPattern: boolean,
  add: (l: string, k: CompletionKind, e?: Partial<CompletionEntry>) => void,
  layers: () => void,
): void {
  const kinds = prm.value.kinds;
  if (inPattern) {
    if (kinds.includes('glob') || kinds.includes('layer')) layers();
    return;
  }
  const listy = kinds.includes('enumList') || kinds.includes('layerList') || kinds.includes('numberList') || kinds.includes('intList');
  if (inList && !listy) return;
  if (prm.value.enum && (kinds.includes('enum') || kinds.includes('enumList') || kinds.includes('any'))) {
    prm.value.enum.values.forEach((v, i) =>
      add(v.name, 'value', {
        detail: prm.value.enum!.name,
        documentation: v.doc + (v.evidence === 'third-party' ? ' *(third-party only)*' : ''),
        sortText: `a${String(i).padStart(3, '0')}`,
      }),
    );
  }
  if (!inList && kinds.includes('bool')) for (const b of ['True', 'False']) add(b, 'value', { detail: 'boolean', sortText: `b${b}` });
  if (!inList && kinds.includes('none')) add('None', 'value', { detail: 'no value', sortText: 'bNone' });
  if (kinds.includes('layer') || kinds.includes('layerList') || kinds.includes('glob')) layers();
}

interface DefinedName {
  name: string;
  command: string;
  start: number;
}

function definedBefore(doc: AllsDocument, offset: number): DefinedName[] {
  const out: DefinedName[] = [];
  for (const defs of doc.definitions.values()) {
    const d = defs[0];
    if (d.node.start < offset) out.push({ name: d.name, command: d.command, start: d.node.start });
  }
  return out;
}

function addLayers(
  doc: AllsDocument,
  statementStart: number,
  model: ModelLayerIndex | undefined,
  add: (l: string, k: CompletionKind, e?: Partial<CompletionEntry>) => void,
): void {
  const seen = new Set<string>();
  if (model) {
    const lookup = layerLookup(model);
    for (const l of lookup.index.layers.values()) {
      if (seen.has(l.name)) continue;
      seen.add(l.name);
      add(l.name, 'layer', {
        detail: `${l.type} — ${model.networkName || model.source}`,
        documentation: l.originalNames.length ? `ONNX: ${l.originalNames.map(mdCode).join(', ')}` : undefined,
        sortText: `c${l.name}`,
      });
    }
  }
  for (const d of definedBefore(doc, statementStart)) {
    if (seen.has(d.name) || d.command === 'context') continue;
    seen.add(d.name);
    add(d.name, 'name', { detail: `defined by ${d.command} (line ${doc.lines.positionAt(d.start).line + 1})`, sortText: `d${d.name}` });
  }
}

export type { Span };

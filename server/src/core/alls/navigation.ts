// Hover and go-to-definition: find the syntax node under the cursor, then explain it from the
// schema, the script's own definitions and (when known) the parsed model.
import { mdCode } from '../common/escape';
import type { ArgNode, GlobNode, NameNode, StatementNode, ValueNode } from './ast';
import { isBoolWord, isNoneWord, paramFor, type AllsDocument, type ResolvedStatement } from './analysis';
import { commandMarkdown, enumValueMarkdown, layerMarkdown, paramMarkdown, subcommandMarkdown } from './docs';
import type { HoverInfo, LocationInfo } from './featureTypes';
import { layerLookup } from './layers';
import { globMatcher } from '../common/glob';
import type { ParamSpec } from './schemaTypes';
import type { FeatureOptions } from './completion';
import type { Position } from '../common/types';

export type Hit =
  | { kind: 'command'; st: ResolvedStatement; node: NameNode }
  | { kind: 'object'; st: ResolvedStatement; node: NameNode }
  | { kind: 'sub'; st: ResolvedStatement; node: NameNode }
  | { kind: 'keyword'; st: ResolvedStatement; node: NameNode; prm?: ParamSpec }
  | { kind: 'value'; st: ResolvedStatement; node: ValueNode; prm?: ParamSpec }
  | { kind: 'target'; st: ResolvedStatement; node: NameNode | GlobNode };

function inside(n: { start: number; end: number }, offset: number): boolean {
  return n.start <= offset && offset <= n.end;
}

/** The statement whose text contains `offset` (binary search over statement starts). */
export function statementAt(doc: AllsDocument, offset: number): ResolvedStatement | undefined {
  const sts = doc.statements;
  let lo = 0;
  let hi = sts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sts[mid].node.start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return undefined;
  const st = sts[found];
  return offset <= st.node.end ? st : undefined;
}

function innermost(v: ValueNode, offset: number): ValueNode | undefined {
  if (!inside(v, offset)) return undefined;
  if (v.kind === 'list') {
    for (const item of v.items) {
      const hit = innermost(item, offset);
      if (hit) return hit;
    }
  } else if (v.kind === 'dict') {
    for (const e of v.entries) {
      const hit = innermost(e.key, offset) ?? innermost(e.value, offset);
      if (hit) return hit;
    }
  }
  return v;
}

export function hitAt(doc: AllsDocument, offset: number): Hit | undefined {
  const st = statementAt(doc, offset);
  if (!st) return undefined;
  const node: StatementNode = st.node;
  for (const t of node.targets) {
    if (!inside(t, offset)) continue;
    if (t.kind === 'dict') {
      for (const e of t.entries) {
        const v = innermost(e.key, offset) ?? innermost(e.value, offset);
        if (v && (v.kind === 'name' || v.kind === 'glob')) return { kind: e.key === v ? 'value' : 'target', st, node: v } as Hit;
      }
      return undefined;
    }
    return { kind: 'target', st, node: t };
  }
  const call = node.call;
  if (!call) return undefined;
  if (call.object && inside(call.object, offset)) return { kind: 'object', st, node: call.object };
  if (inside(call.name, offset)) return { kind: 'command', st, node: call.name };
  for (const a of call.args) {
    if (!inside(a, offset)) continue;
    if (a === st.subArg && a.value.kind === 'name') return { kind: 'sub', st, node: a.value };
    if (a.keyword && inside(a.keyword, offset)) return { kind: 'keyword', st, node: a.keyword, prm: paramFor(st, a) };
    const v = innermost(a.value, offset);
    if (v) return { kind: 'value', st, node: v, prm: paramFor(st, a) };
  }
  return undefined;
}

function isLayerSlot(prm: ParamSpec | undefined): boolean {
  const k = prm?.value.kinds ?? [];
  return k.includes('layer') || k.includes('layerList') || k.includes('glob');
}

function definitionText(doc: AllsDocument, name: string): string | undefined {
  const defs = doc.definitions.get(name);
  if (!defs) return undefined;
  const d = defs[0];
  const st = doc.statements[d.statement];
  const line = doc.lines.positionAt(st.node.start).line + 1;
  const text = doc.text.slice(st.node.start, Math.min(st.node.end, st.node.start + 160)).replace(/\s+/g, ' ');
  return `Defined on line ${line} by \`${d.command}\`:\n\n\`\`\`alls\n${text}${st.node.end - st.node.start > 160 ? ' …' : ''}\n\`\`\``;
}

export function hover(doc: AllsDocument, pos: Position, options: FeatureOptions = {}): HoverInfo | null {
  const offset = doc.lines.offsetAt(pos);
  const hit = hitAt(doc, offset);
  if (!hit) return null;
  const range = doc.lines.range(hit.node.start, hit.node.end);
  const lookup = options.model ? layerLookup(options.model) : undefined;
  const withLayer = (name: string, base: string | undefined): string | undefined => {
    const layer = lookup?.find(name);
    const parts = [base, layer ? layerMarkdown(layer, lookup!.index.source) : undefined].filter(Boolean);
    return parts.length ? parts.join('\n\n---\n\n') : undefined;
  };
  let md: string | undefined;
  switch (hit.kind) {
    case 'command':
      md = hit.st.spec ? commandMarkdown(hit.st.spec, hit.st.isMethod) : undefined;
      break;
    case 'object':
      md = definitionText(doc, hit.node.text) ?? `\`${hit.node.text}\` is not defined by a \`context([...])\` statement.`;
      break;
    case 'sub':
      md = hit.st.spec && hit.st.sub ? subcommandMarkdown(hit.st.spec, hit.st.sub) : undefined;
      break;
    case 'keyword':
      md = hit.prm ? paramMarkdown(hit.prm) : undefined;
      break;
    case 'target': {
      if (hit.node.kind === 'glob') {
        md = hit.node.pattern === '' ? '`{}`: the empty target set of `defuse_block` (its pieces are named by the compiler).' : undefined;
        break;
      }
      const cmd = hit.st.node.call?.name.text;
      const first = doc.definitions.get(hit.node.text)?.[0];
      const base =
        first && first.node !== hit.node
          ? `\`${hit.node.text}\` is redefined here; ${definitionText(doc, hit.node.text)}`
          : `\`${hit.node.text}\`: a name defined by this \`${cmd ?? '…'}\` statement${cmd === 'context' ? ' (a context: `' + hit.node.text + '.place(cluster, [layers])`)' : ' (the layer it creates)'}.`;
      md = withLayer(hit.node.text, base);
      break;
    }
    case 'value': {
      const v = hit.node;
      const prm = hit.prm;
      if (v.kind === 'name') {
        const ev = prm?.value.enum?.values.find((x) => x.name === v.text);
        if (ev && prm) md = enumValueMarkdown(prm, ev);
        else if (isBoolWord(v.text) || isNoneWord(v.text)) md = undefined;
        else if (isLayerSlot(prm) || doc.definitions.has(v.text) || lookup?.find(v.text))
          md = withLayer(v.text, definitionText(doc, v.text)) ?? (prm ? paramMarkdown(prm) : undefined);
        else if (prm) md = paramMarkdown(prm);
      } else if (v.kind === 'glob' && lookup) {
        const matches = lookup.matchGlob(v.pattern);
        const re = globMatcher(v.pattern);
        const local = [...doc.definitions.keys()].filter((n) => re.test(n));
        const names = [...matches.map((m) => m.name), ...local];
        md = `${mdCode(v.text)} matches ${names.length} layer${names.length === 1 ? '' : 's'}${names.length ? ': ' + names.slice(0, 20).map(mdCode).join(', ') + (names.length > 20 ? ', …' : '') : ''}.\n\n*From ${mdCode(lookup.index.source)}.*`;
      } else if (prm) md = paramMarkdown(prm);
      break;
    }
  }
  return md ? { markdown: md, range } : null;
}

export function definition(doc: AllsDocument, pos: Position, options: FeatureOptions = {}): LocationInfo[] {
  const offset = doc.lines.offsetAt(pos);
  const hit = hitAt(doc, offset);
  if (!hit || hit.node.kind !== 'name') return [];
  if (hit.kind === 'command' || hit.kind === 'sub' || hit.kind === 'keyword') return [];
  const name = hit.node.text;
  if (hit.kind === 'value' && hit.prm?.value.enum?.names.has(name)) return [];
  const out: LocationInfo[] = [];
  const d = doc.definitions.get(name)?.[0];
  if (d && d.node !== hit.node) out.push({ range: doc.lines.range(d.node.start, d.node.end) });
  const layer = options.model ? layerLookup(options.model).find(name) : undefined;
  if (layer?.location) out.push({ uri: layer.location.uri, range: layer.location.range });
  return out;
}

export type { ArgNode };

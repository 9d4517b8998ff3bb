// Document structure: outline grouped by stage, folding (multi-line statements and lists, runs of
// one command, comment blocks), semantic tokens, and quick fixes taken from diagnostics.
import type { ValueNode } from './ast';
import { isBoolWord, isNoneWord, keywordSpec, positionalSpec, type AllsDocument, type ResolvedStatement } from './analysis';
import type { FoldingInfo, SemanticTokenInfo, SemanticTokenModifier, SemanticTokenType, SymbolInfo } from './featureTypes';
import { STAGE_TITLES, type ParamSpec, type Stage } from './schemaTypes';
import type { Diagnostic, Fix, Range } from '../common/types';
import { UNLIMITED, type Budget } from '../common/budget';

/** Statements between two looks at the clock. */
const BUDGET_STRIDE = 256;

const STAGES: Stage[] = ['modification', 'optimization', 'compilation', 'allocation'];

function short(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? one.slice(0, n) + '…' : one;
}

/** The outline; with a `budget`, stops after the statements it had time for. */
export function documentSymbols(doc: AllsDocument, budget: Budget = UNLIMITED): SymbolInfo[] {
  const groups = new Map<Stage | 'unknown', SymbolInfo[]>();
  for (const st of doc.statements) {
    if (st.index % BUDGET_STRIDE === 0 && st.index > 0 && budget.expired()) break;
    const call = st.node.call;
    if (!call) continue;
    const stage = st.spec?.stage ?? 'unknown';
    const targets = st.node.targets.map((t) => (t.kind === 'name' ? t.text : t.kind === 'glob' ? t.text : '{…}')).join(', ');
    const sub = st.sub?.name ?? (st.subArg?.value.kind === 'name' ? st.subArg.value.text : undefined);
    const first = st.positionals[0]?.value;
    const what = sub ?? (first && (first.kind === 'name' || first.kind === 'glob') ? first.text : undefined);
    const cmd = (call.object ? `${call.object.text}.` : '') + call.name.text;
    const sym: SymbolInfo = {
      name: targets || (what ? `${cmd} ${short(what, 40)}` : cmd),
      detail: targets ? `${cmd}${what ? ' ' + short(what, 40) : ''}` : short(doc.text.slice(call.open >= 0 ? call.open : call.end, st.node.end), 60),
      kind: targets ? 'definition' : 'command',
      range: doc.lines.range(st.node.start, st.node.end),
      selectionRange: doc.lines.range(call.name.start, call.name.end),
    };
    const list = groups.get(stage);
    if (list) list.push(sym);
    else groups.set(stage, [sym]);
  }
  const out: SymbolInfo[] = [];
  for (const stage of [...STAGES, 'unknown' as const]) {
    const children = groups.get(stage);
    if (!children?.length) continue;
    const range: Range = { start: children[0].range.start, end: children[children.length - 1].range.end };
    out.push({
      name: stage === 'unknown' ? 'Unknown commands' : STAGE_TITLES[stage],
      detail: `${children.length} statement${children.length === 1 ? '' : 's'}`,
      kind: 'stage',
      range,
      selectionRange: children[0].selectionRange,
      children,
    });
  }
  return out;
}

const RUN_MIN = 5;

/** Folding ranges; with a `budget`, those of the statements (and comments before them) it had time for. */
export function foldingRanges(doc: AllsDocument, budget: Budget = UNLIMITED): FoldingInfo[] {
  const out: FoldingInfo[] = [];
  const line = (o: number) => doc.lines.positionAt(o).line;
  const lists = (v: ValueNode, stmtLine: number) => {
    if (v.kind !== 'list' && v.kind !== 'dict') return;
    const a = line(v.start);
    const b = line(v.end);
    if (b > a && a > stmtLine) out.push({ startLine: a, endLine: b, kind: 'region' });
    if (v.kind === 'list') for (const x of v.items) lists(x, stmtLine);
  };
  let runStart = -1;
  let runName = '';
  let runEnd = -1;
  let runLen = 0;
  const closeRun = () => {
    if (runLen >= RUN_MIN && runEnd > runStart) out.push({ startLine: runStart, endLine: runEnd, kind: 'region' });
    runLen = 0;
  };
  let stopAt = Infinity;
  for (const st of doc.statements) {
    if (st.index % BUDGET_STRIDE === 0 && st.index > 0 && budget.expired()) {
      stopAt = st.node.start;
      break;
    }
    const a = line(st.node.start);
    const b = line(st.node.end);
    if (b > a) {
      out.push({ startLine: a, endLine: b, kind: 'region' });
      for (const arg of st.node.call?.args ?? []) lists(arg.value, a);
    }
    const name = st.node.call?.name.text ?? '';
    if (name === runName && a === runEnd + 1) {
      runEnd = b;
      runLen++;
    } else {
      closeRun();
      runName = name;
      runStart = a;
      runEnd = b;
      runLen = 1;
    }
  }
  closeRun();
  // Blocks of full-line comments.
  let blockStart = -2; // no block yet (line -1 would touch line 0)
  let blockEnd = -2;
  for (const c of doc.script.comments) {
    if (c.start >= stopAt) break;
    const l = line(c.start);
    if (doc.lines.lineStarts[l] !== undefined && doc.text.slice(doc.lines.lineStarts[l], c.start).trim() !== '') continue;
    if (l === blockEnd + 1) blockEnd = l;
    else {
      if (blockEnd > blockStart) out.push({ startLine: blockStart, endLine: blockEnd, kind: 'comment' });
      blockStart = blockEnd = l;
    }
  }
  if (blockEnd > blockStart) out.push({ startLine: blockStart, endLine: blockEnd, kind: 'comment' });
  return out.sort((x, y) => x.startLine - y.startLine || y.endLine - x.endLine);
}

/** Semantic tokens; with a `budget`, those of the statements (and comments before them) it had time for. */
export function semanticTokens(doc: AllsDocument, budget: Budget = UNLIMITED): SemanticTokenInfo[] {
  const raw: { start: number; end: number; type: SemanticTokenType; modifiers: SemanticTokenModifier[] }[] = [];
  const push = (n: { start: number; end: number }, type: SemanticTokenType, modifiers: SemanticTokenModifier[] = []) => {
    if (n.end > n.start) raw.push({ start: n.start, end: n.end, type, modifiers });
  };
  const value = (v: ValueNode, prm: ParamSpec | undefined) => {
    switch (v.kind) {
      case 'name':
        if (isBoolWord(v.text) || isNoneWord(v.text)) push(v, 'keyword');
        else if (prm?.value.enum?.names.has(v.text)) push(v, 'enumMember', ['defaultLibrary']);
        else if (doc.definitions.has(v.text)) push(v, 'variable');
        else push(v, 'property');
        break;
      case 'number':
        push(v, 'number');
        break;
      case 'string':
        push(v, 'string');
        break;
      case 'glob':
        push(v, 'property');
        break;
      case 'list':
        for (const x of v.items) value(x, prm);
        break;
      case 'dict':
        for (const e of v.entries) {
          value(e.key, prm);
          value(e.value, prm);
        }
        break;
    }
  };
  const statement = (st: ResolvedStatement) => {
    for (const t of st.node.targets) {
      if (t.kind === 'name') push(t, 'variable', ['declaration']);
      else if (t.kind === 'glob') push(t, 'property');
      else
        for (const e of t.entries) {
          value(e.key, undefined);
          if (e.value.kind === 'list') for (const x of e.value.items) if (x.kind === 'name') push(x, 'variable', ['declaration']);
        }
    }
    const call = st.node.call;
    if (!call) return;
    if (call.object) push(call.object, 'variable');
    const mods: SemanticTokenModifier[] = st.spec ? ['defaultLibrary'] : [];
    if (st.spec?.replacedBy) mods.push('deprecated');
    push(call.name, st.isMethod ? 'method' : 'function', mods);
    let positional = 0; // index among st.positionals, counted here: paramFor's lookup is linear per argument
    for (const a of call.args) {
      if (a === st.subArg && a.value.kind === 'name') {
        push(a.value, 'method', st.sub ? ['defaultLibrary'] : []);
        continue;
      }
      const prm = a.keyword ? keywordSpec(st, a.keyword.text) : a === st.subArg ? undefined : positionalSpec(st.signature, positional++);
      if (a.keyword) push(a.keyword, 'parameter', prm?.replacedBy ? ['deprecated'] : []);
      value(a.value, prm);
    }
  };
  let stopAt = Infinity;
  for (const st of doc.statements) {
    if (st.index % BUDGET_STRIDE === 0 && st.index > 0 && budget.expired()) {
      stopAt = st.node.start;
      break;
    }
    statement(st);
  }
  for (const c of doc.script.comments) if (c.start < stopAt) push(c, 'comment');
  raw.sort((a, b) => a.start - b.start);
  const out: SemanticTokenInfo[] = [];
  let lastEnd = -1;
  for (const r of raw) {
    if (r.start < lastEnd) continue; // never overlap
    const p = doc.lines.positionAt(r.start);
    const lineEnd = doc.lines.lineEnd(p.line);
    const end = Math.min(r.end, lineEnd); // tokens may not span lines
    if (end <= r.start) continue;
    out.push({ line: p.line, character: p.character, length: end - r.start, type: r.type, modifiers: r.modifiers });
    lastEnd = r.end;
  }
  return out;
}

function intersects(a: Range, b: Range): boolean {
  const before = (x: Range['start'], y: Range['start']) => x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** Quick fixes of the diagnostics that touch `range`. */
export function codeActions(diagnostics: Diagnostic[], range: Range): { fix: Fix; diagnostic: Diagnostic }[] {
  const out: { fix: Fix; diagnostic: Diagnostic }[] = [];
  for (const d of diagnostics) {
    if (!d.fixes?.length || !intersects(d.range, range)) continue;
    for (const fix of d.fixes) out.push({ fix, diagnostic: d });
  }
  return out;
}

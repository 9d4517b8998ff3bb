// One analysed `.alls` document: the syntax tree, each statement resolved against the schema
// (command, sub-command, chosen positional form), the names its targets define, and every layer
// reference. Diagnostics and editor features all read this; it is computed once per version.
import type { ArgNode, GlobNode, NameNode, Script, StatementNode, ValueNode } from './ast';
import { LineIndex } from './lineIndex';
import { parseTokens } from './parser';
import { tokenize, tokenizeWithin } from './lexer';
import { limit, limitMessage } from '../common/limits';
import { COMMANDS, METHODS } from './schema';
import { KIND_BIT, LAYER_BITS, kindBits, type CommandSpec, type ParamSpec, type Signature, type SubcommandSpec } from './schemaTypes';

export interface ResolvedStatement {
  index: number;
  node: StatementNode;
  /** The command, when known. */
  spec?: CommandSpec;
  /** Called as `ctx.name(...)`. */
  isMethod: boolean;
  sub?: SubcommandSpec;
  /** The argument that names the sub-command. */
  subArg?: ArgNode;
  /** Positional arguments after the sub-command. */
  positionals: ArgNode[];
  keywords: ArgNode[];
  /** Every positional argument comes before the keyword arguments (R4). */
  argsInOrder: boolean;
  /** The positional form that fits best (undefined when none has the right count). */
  signature?: Signature;
}

export interface NameDefinition {
  name: string;
  node: NameNode;
  statement: number;
  /** Command of the defining statement, e.g. `context`, `defuse`. */
  command: string;
}

export type LayerRefVisitor = (node: NameNode | GlobNode, statement: number) => void;

export interface AllsDocument {
  text: string;
  script: Script;
  lines: LineIndex;
  statements: ResolvedStatement[];
  /** Every name an assignment target defines, in order (first definition first). */
  definitions: Map<string, NameDefinition[]>;
  /** The text contains NUL characters: binary, not analysed. */
  binary: boolean;
  /** Not analysed because it crosses a limit (LIMITS.allsTokens / allsLines): the sentence to show. */
  skipped?: string;
}

// Asked for nearly every word of a script: plain comparisons cost less than a set lookup.
export function isBoolWord(text: string): boolean {
  return text === 'True' || text === 'False' || text === 'true' || text === 'false';
}

export function isNoneWord(text: string): boolean {
  return text === 'None' || text === 'null';
}

/** The spec of a keyword argument of a resolved statement. */
export function keywordSpec(st: ResolvedStatement, name: string): ParamSpec | undefined {
  const own = st.sub ? st.sub.kwargs : st.spec?.kwargs;
  return own ? own[name] : undefined; // keyword tables have no prototype
}

/** The spec of the i-th positional (after the sub-command) under the chosen form. */
export function positionalSpec(sig: Signature | undefined, i: number): ParamSpec | undefined {
  if (!sig || sig.params.length === 0) return undefined;
  if (i < sig.params.length) return sig.params[i];
  const last = sig.params[sig.params.length - 1];
  return last.variadic ? last : undefined;
}

export function paramFor(st: ResolvedStatement, arg: ArgNode): ParamSpec | undefined {
  if (arg.keyword) return keywordSpec(st, arg.keyword.text);
  const i = st.positionals.indexOf(arg);
  return i >= 0 ? positionalSpec(st.signature, i) : undefined;
}

export function signatureArity(sig: Signature): { min: number; max: number } {
  let min = 0;
  let max = 0;
  for (const prm of sig.params) {
    if (prm.variadic) max = Infinity;
    else max++;
    if (!prm.optional && !prm.variadic) min++;
  }
  if (sig.params.some((x) => x.variadic && !x.optional)) min = Math.max(min, 1);
  return { min, max };
}

/** Does a value look like something this slot accepts (kinds only, no ranges)? */
export function valueFits(value: ValueNode, prm: ParamSpec): boolean {
  const bits = kindBits(prm.value);
  if (bits & KIND_BIT.any) return true;
  switch (value.kind) {
    case 'missing':
      return true;
    case 'number':
      return (bits & KIND_BIT.number) !== 0 || ((bits & KIND_BIT.int) !== 0 && Number.isInteger(value.value));
    case 'string':
      return (bits & KIND_BIT.string) !== 0 || ((bits & KIND_BIT.enum) !== 0 && !!prm.value.enum?.names.has(value.value));
    case 'glob':
      return (bits & KIND_BIT.glob) !== 0;
    case 'dict':
      return false;
    case 'name': {
      const t = value.text;
      if (isBoolWord(t)) return (bits & KIND_BIT.bool) !== 0;
      if (isNoneWord(t)) return (bits & KIND_BIT.none) !== 0;
      if (bits & (KIND_BIT.layer | KIND_BIT.name)) return true;
      if (bits & KIND_BIT.enum && prm.value.enum?.names.has(t)) return true;
      return (bits & KIND_BIT.duration) !== 0 && /^\d+(\.\d+)?[smhd]$/.test(t);
    }
    case 'list': {
      const items = value.items;
      if (bits & (KIND_BIT.layerList | KIND_BIT.enumList) && items.every((x) => x.kind === 'name' || x.kind === 'missing')) return true;
      if (bits & KIND_BIT.numberList && items.every((x) => x.kind === 'number' || x.kind === 'missing')) return true;
      return (bits & KIND_BIT.intList) !== 0 && items.every((x) => (x.kind === 'number' && Number.isInteger(x.value)) || x.kind === 'missing');
    }
  }
}

/** Can `sig` take `n` positionals? (signatureArity without building its result.) */
function takesCount(sig: Signature, n: number): boolean {
  const { min, max } = signatureArity(sig);
  return n >= min && n <= max;
}

function allFit(positionals: ArgNode[], sig: Signature): boolean {
  for (let i = 0; i < positionals.length; i++) if (!valueFits(positionals[i].value, positionalSpec(sig, i)!)) return false;
  return true;
}

function chooseSignature(spec: CommandSpec, positionals: ArgNode[]): Signature | undefined {
  const n = positionals.length;
  let byCount: Signature | undefined;
  for (const s of spec.signatures) {
    if (!takesCount(s, n)) continue;
    byCount ??= s;
    if (allFit(positionals, s)) return s;
  }
  return byCount;
}

/** Made with a constructor, not a literal, for the reason given in nodes.ts. */
class ResolvedStatementObject implements ResolvedStatement {
  declare index: number;
  declare node: StatementNode;
  declare spec: CommandSpec | undefined;
  declare isMethod: boolean;
  declare sub: SubcommandSpec | undefined;
  declare subArg: ArgNode | undefined;
  declare positionals: ArgNode[];
  declare keywords: ArgNode[];
  declare argsInOrder: boolean;
  declare signature: Signature | undefined;
  constructor(
    index: number,
    node: StatementNode,
    spec: CommandSpec | undefined,
    sub: SubcommandSpec | undefined,
    subArg: ArgNode | undefined,
    positionals: ArgNode[],
    keywords: ArgNode[],
    argsInOrder: boolean,
  ) {
    this.index = index;
    this.node = node;
    this.spec = spec;
    this.isMethod = !!node.call?.object;
    this.sub = sub;
    this.subArg = subArg;
    this.positionals = positionals;
    this.keywords = keywords;
    this.argsInOrder = argsInOrder;
    this.signature = undefined;
  }
}

export function resolveStatement(node: StatementNode, index: number): ResolvedStatement {
  const call = node.call;
  if (!call) return new ResolvedStatementObject(index, node, undefined, undefined, undefined, [], [], true);
  const spec = call.object ? METHODS.get(call.name.text) : COMMANDS.get(call.name.text);
  const args = call.args;
  let first = 0;
  let subArg: ArgNode | undefined;
  let sub: SubcommandSpec | undefined;
  if (spec?.subcommands && args.length > 0 && !args[0].keyword) {
    subArg = args[0];
    if (subArg.value.kind === 'name') sub = spec.subcommands.items[subArg.value.text];
    first = 1;
  }
  // Positionals and keywords live as long as the document, so they are sliced at their exact size:
  // in a well-formed call the positionals come first.
  let firstKeyword = first;
  while (firstKeyword < args.length && !args[firstKeyword].keyword) firstKeyword++;
  let argsInOrder = true;
  for (let i = firstKeyword; i < args.length; i++) if (!args[i].keyword) argsInOrder = false;
  const st = argsInOrder
    ? new ResolvedStatementObject(index, node, spec, sub, subArg, args.slice(first, firstKeyword), args.slice(firstKeyword), true)
    : // A positional after a keyword (reported by the checker, R4): keep source order in each list.
      new ResolvedStatementObject(
        index,
        node,
        spec,
        sub,
        subArg,
        args.slice(first).filter((a) => !a.keyword),
        args.slice(first).filter((a) => a.keyword),
        false,
      );
  if (spec && !spec.subcommands) st.signature = chooseSignature(spec, st.positionals);
  return st;
}

function isLayerSlot(prm: ParamSpec | undefined): boolean {
  return !!prm && (kindBits(prm.value) & LAYER_BITS) !== 0;
}

function collectRefs(value: ValueNode, prm: ParamSpec, statement: number, out: LayerRefVisitor): void {
  switch (value.kind) {
    case 'name':
      if (isBoolWord(value.text) || isNoneWord(value.text)) return;
      // A slot that takes a layer or an enum word (format_conversion): enum words are not layers.
      if (prm.value.enum?.names.has(value.text)) return;
      if (kindBits(prm.value) & (KIND_BIT.layer | KIND_BIT.layerList)) out(value, statement);
      return;
    case 'glob':
      if (kindBits(prm.value) & (KIND_BIT.glob | KIND_BIT.layer)) out(value, statement);
      return;
    case 'list':
      for (const item of value.items) collectRefs(item, prm, statement, out);
      return;
    default:
      return;
  }
}

/** Made with a constructor, not a literal, for the reason given in nodes.ts. */
class NameDefinitionObject implements NameDefinition {
  declare name: string;
  declare node: NameNode;
  declare statement: number;
  declare command: string;
  constructor(node: NameNode, statement: number, command: string) {
    this.name = node.text;
    this.node = node;
    this.statement = statement;
    this.command = command;
  }
}

function addDefinition(definitions: Map<string, NameDefinition[]>, node: NameNode, statement: number, command: string): void {
  const d = new NameDefinitionObject(node, statement, command);
  const list = definitions.get(node.text);
  if (list) list.push(d);
  else definitions.set(node.text, [d]);
}

export function defineTargets(st: ResolvedStatement, definitions: Map<string, NameDefinition[]>): void {
  const targets = st.node.targets;
  if (targets.length === 0) return; // most statements
  const command = st.node.call?.name.text ?? '';
  for (const t of targets) {
    if (t.kind === 'name') addDefinition(definitions, t, st.index, command);
    else if (t.kind === 'dict') {
      // `{ layer: [piece, …] } = defuse_block(...)`: the list values are the new names.
      for (const e of t.entries) {
        if (e.value.kind === 'list') for (const x of e.value.items) if (x.kind === 'name') addDefinition(definitions, x, st.index, command);
        if (e.value.kind === 'name') addDefinition(definitions, e.value, st.index, command);
      }
    }
  }
}

function emptyScript(text: string): Script {
  return { text, tokens: tokenize(''), statements: [], comments: [], trailingComments: [], errors: [] };
}

/** More than `max` line breaks? Counted without building anything (a hostile file has millions). */
function linesOver(text: string, max: number): number | undefined {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (++lines > max) return lines;
  if (text.indexOf('\r') >= 0) {
    lines = 1; // a lone \r also breaks a line (LSP's rules)
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) if (++lines > max) return lines;
    }
  }
  return undefined;
}

/** The sentence for a script over the size limits, or undefined when it may be analysed. */
export function documentLimit(text: string, tokenCount?: number, lineCount?: number): string | undefined {
  if (text.length > limit('documentChars')) return limitMessage('documentChars', 'This file', text.length);
  const lines = lineCount !== undefined ? (lineCount > limit('allsLines') ? lineCount : undefined) : linesOver(text, limit('allsLines'));
  if (lines !== undefined)
    return limitMessage('allsLines', 'This file', lineCount === undefined ? `more than ${limit('allsLines').toLocaleString('en-US')} lines` : lines);
  if (tokenCount !== undefined && tokenCount > limit('allsTokens')) return limitMessage('allsTokens', 'This file', tokenCount);
  return undefined;
}

function skippedDocument(text: string, why: string): AllsDocument {
  return { text, script: emptyScript(text), lines: new LineIndex(text), statements: [], definitions: new Map(), binary: false, skipped: why };
}

export function analyze(text: string): AllsDocument {
  if (text.indexOf('\0') >= 0) {
    return { text, script: emptyScript(text), lines: new LineIndex(text), statements: [], definitions: new Map(), binary: true };
  }
  const over = documentLimit(text);
  if (over) return skippedDocument(text, over);
  const tokens = tokenizeWithin(text, limit('allsTokens'));
  if (!tokens) return skippedDocument(text, limitMessage('allsTokens', 'This file', `more than ${limit('allsTokens').toLocaleString('en-US')} tokens`));
  const script = parseTokens(text, tokens);
  const statements: ResolvedStatement[] = [];
  const definitions = new Map<string, NameDefinition[]>();
  for (let i = 0; i < script.statements.length; i++) {
    const st = resolveStatement(script.statements[i], i);
    statements.push(st);
    defineTargets(st, definitions);
  }
  return { text, script, lines: new LineIndex(text), statements, definitions, binary: false };
}

/**
 * Every layer reference (a name or `{pattern}` in a layer slot), in order. Walked on demand rather
 * than stored: allocator dumps hold ~10⁵ of them.
 */
const layerKeywordTables = new WeakMap<Record<string, ParamSpec>, boolean>();

/** Does a keyword table have any layer slot? (Most don't: compilation_param's 20 keywords.) */
function hasLayerKeywords(kwargs: Record<string, ParamSpec>): boolean {
  let v = layerKeywordTables.get(kwargs);
  if (v === undefined) {
    v = Object.values(kwargs).some(isLayerSlot);
    layerKeywordTables.set(kwargs, v);
  }
  return v;
}

export function forEachLayerRef(doc: AllsDocument, visit: LayerRefVisitor): void {
  for (const st of doc.statements) {
    if (!st.spec) continue;
    const own = st.sub ? st.sub.kwargs : st.spec.kwargs;
    if (st.keywords.length && hasLayerKeywords(own)) {
      for (const a of st.keywords) {
        const prm = own[a.keyword!.text];
        if (prm && isLayerSlot(prm)) collectRefs(a.value, prm, st.index, visit);
      }
    }
    for (let i = 0; i < st.positionals.length; i++) {
      const prm = positionalSpec(st.signature, i);
      if (prm && isLayerSlot(prm)) collectRefs(st.positionals[i].value, prm, st.index, visit);
    }
  }
}

/** Names usable as layer references at a statement: targets defined before it. */
export function namesDefinedBefore(doc: AllsDocument, statement: number): NameDefinition[] {
  const out: NameDefinition[] = [];
  for (const defs of doc.definitions.values()) if (defs[0].statement < statement) out.push(defs[0]);
  return out;
}

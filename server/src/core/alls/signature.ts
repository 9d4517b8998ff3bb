// Signature help inside a call: the command's positional forms plus its keywords, with the
// argument at the cursor highlighted. Commands with dozens of keywords (allocator_param) show the
// ones already written and the current one, then `…`.
import type { AllsDocument } from './analysis';
import { cursorContext } from './cursor';
import { paramMarkdown, valuesSummary } from './docs';
import type { SignatureEntry, SignatureHelpInfo, SignatureParameter } from './featureTypes';
import { COMMANDS, METHODS } from './schema';
import type { ParamSpec } from './schemaTypes';
import type { Position } from '../common/types';

const MAX_KEYWORDS_SHOWN = 8;

class LabelBuilder {
  label: string;
  params: SignatureParameter[] = [];
  names: string[] = [];
  private first = true;
  constructor(head: string) {
    this.label = head + '(';
  }
  part(text: string, name: string, doc?: string): void {
    if (!this.first) this.label += ', ';
    this.first = false;
    const start = this.label.length;
    this.label += text;
    this.params.push({ label: [start, this.label.length], ...(doc ? { documentation: doc } : {}) });
    this.names.push(name);
  }
  plain(text: string): void {
    if (!this.first) this.label += ', ';
    this.first = false;
    this.label += text;
  }
  done(doc?: string): SignatureEntry {
    return { label: this.label + ')', parameters: this.params, ...(doc ? { documentation: doc } : {}) };
  }
}

export function signatureHelp(doc: AllsDocument, pos: Position): SignatureHelpInfo | null {
  const ctx = cursorContext(doc, doc.lines.offsetAt(pos));
  if (ctx.kind !== 'argument') return null;
  const spec = ctx.object ? METHODS.get(ctx.command) : COMMANDS.get(ctx.command);
  if (!spec) return null;
  const head = (ctx.object ? `${ctx.object}.` : '') + spec.name;
  const sub = spec.subcommands && ctx.firstArgName ? spec.subcommands.items[ctx.firstArgName] : undefined;
  const kwargs: Record<string, ParamSpec> = sub ? sub.kwargs : spec.kwargs;
  const all = Object.values(kwargs);
  const current = ctx.keyword ?? ctx.keywordAtCursor;
  const shownKw = all.length <= MAX_KEYWORDS_SHOWN ? all : all.filter((k) => ctx.usedKeywords.has(k.name) || k.name === current);
  const moreKw = shownKw.length < all.length;

  const addKeywords = (b: LabelBuilder) => {
    for (const k of shownKw) b.part(`${k.name}=${valuesSummary(k).length > 30 ? '…' : valuesSummary(k)}`, `kw:${k.name}`, paramMarkdown(k));
    if (moreKw) b.plain(`…${all.length - shownKw.length} more keywords`);
  };

  const signatures: SignatureEntry[] = [];
  let activeSignature = 0;
  let activeParameter = 0;
  if (spec.subcommands) {
    const b = new LabelBuilder(head);
    b.part(
      sub ? sub.name : spec.subcommands.enumName,
      'sub',
      sub ? sub.doc : `the ${spec.subcommands.enumName}: ${Object.keys(spec.subcommands.items).join(', ')}`,
    );
    addKeywords(b);
    signatures.push(b.done(sub ? sub.doc : spec.doc));
    activeParameter = current ? b.names.indexOf(`kw:${current}`) : ctx.argIndex === 0 ? 0 : -1;
  } else {
    const positional = ctx.argIndex - ctx.keywordsBefore;
    let chosen = -1;
    spec.signatures.forEach((s, si) => {
      const b = new LabelBuilder(head);
      s.params.forEach((p, i) => b.part(p.variadic ? `${p.name}…` : p.optional ? `[${p.name}]` : p.name, `pos:${i}`, `${valuesSummary(p)} — ${p.doc}`));
      addKeywords(b);
      signatures.push(b.done(spec.doc));
      const variadic = s.params.length > 0 && s.params[s.params.length - 1].variadic;
      if (chosen < 0 && (positional < s.params.length || variadic)) chosen = si;
      if (si === (chosen < 0 ? 0 : chosen)) {
        if (current) activeParameter = b.names.indexOf(`kw:${current}`);
        else activeParameter = variadic ? Math.min(positional, s.params.length - 1) : positional < s.params.length ? positional : -1;
      }
    });
    activeSignature = Math.max(0, chosen);
  }
  return { signatures, activeSignature, activeParameter };
}

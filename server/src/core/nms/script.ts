// What a model script's `nms_postprocess(...)` says: the config path, meta_arch, engine and any
// inline values (the model zoo's `--classes N` appends `classes=N`, main_utils.py
// `_handle_classes_argument`; third-party code passes thresholds inline). Pure.
import type { AllsDocument, ResolvedStatement } from '../alls/analysis';
import type { ValueNode } from '../alls/ast';
import type { Range } from '../common/types';
import type { Located } from './config';

export type InlineValue = number | boolean | string | number[];

export interface NmsScriptCall {
  /** The whole statement, and its first line (where a summary goes). */
  range: Range;
  /** The command name (`nms_postprocess`). */
  nameRange: Range;
  configPath?: Located<string>;
  metaArch?: Located<string>;
  engine?: Located<string>;
  /** Keyword values other than the three above, by keyword. */
  inline: Map<string, Located<InlineValue>>;
}

function valueOf(v: ValueNode): InlineValue | undefined {
  switch (v.kind) {
    case 'number':
      return v.value;
    case 'string':
      return v.value;
    case 'name':
      if (v.text === 'True' || v.text === 'true') return true;
      if (v.text === 'False' || v.text === 'false') return false;
      return v.text;
    case 'list': {
      const nums = v.items.map((i) => (i.kind === 'number' ? i.value : NaN));
      return nums.every((n) => !Number.isNaN(n)) ? nums : undefined;
    }
    default:
      return undefined;
  }
}

function fromStatement(doc: AllsDocument, st: ResolvedStatement): NmsScriptCall {
  const call = st.node.call!;
  const r = (a: { start: number; end: number }) => doc.lines.range(a.start, a.end);
  const out: NmsScriptCall = { range: r(st.node), nameRange: r(call.name), inline: new Map() };
  const pos0 = st.positionals[0]?.value;
  if (pos0?.kind === 'string') out.configPath = { value: pos0.value, range: r(pos0) };
  const pos1 = st.positionals.find((a) => a.value.kind === 'name' || (a.value.kind === 'string' && a !== st.positionals[0]))?.value;
  if (pos1 && (pos1.kind === 'name' || pos1.kind === 'string')) out.metaArch = { value: pos1.kind === 'name' ? pos1.text : pos1.value, range: r(pos1) };
  for (const kw of st.keywords) {
    const name = kw.keyword!.text;
    const v = valueOf(kw.value);
    if (v === undefined) continue;
    const loc = { value: v, range: r(kw.value) };
    if (name === 'config_path' && typeof v === 'string') out.configPath = loc as Located<string>;
    else if (name === 'meta_arch' && typeof v === 'string') out.metaArch = loc as Located<string>;
    else if (name === 'engine' && typeof v === 'string') out.engine = loc as Located<string>;
    else out.inline.set(name, loc);
  }
  return out;
}

/** The script's `nms_postprocess` statements (Hailo's scripts have at most one). */
export function nmsCalls(doc: AllsDocument): NmsScriptCall[] {
  return doc.statements.filter((st) => st.spec?.name === 'nms_postprocess' && st.node.call && !st.isMethod).map((st) => fromStatement(doc, st));
}

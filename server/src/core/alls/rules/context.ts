// What every rule family shares while one script is checked: the options, the target
// architecture, the model's layers, the findings so far (offsets, turned into ranges once at the
// end) and the small helpers their messages and fixes use.
import type { ResolvedStatement, AllsDocument, NameDefinition } from '../analysis';
import type { ValueNode } from '../ast';
import type { AllsCode } from '../codes';
import { layerLookup, type LayerLookup } from '../layers';
import { suggest } from '../suggest';
import type { ArchNote } from '../schemaTypes';
import type { Diagnostic, Fix, Severity } from '../../common/types';
import type { HailoSettings } from '../../common/settings';
import { DEFAULT_SETTINGS } from '../../common/settings';
import type { ModelLayerIndex } from '../../common/modelLayers';
import { limit } from '../../common/limits';
import { archFamily, FAMILY_LABEL, type ArchFamily } from '../../common/arch';

export interface CheckOptions {
  /** What the rules read of the settings (only the target architecture). */
  settings?: Pick<HailoSettings, 'hwArch'>;
  /**
   * Where `settings.hwArch` came from, for messages: "from qwen.hef beside this script"
   * (common/archInference.ts); default "setting `hailo.hwArch`".
   */
  archFrom?: string;
  /** The parsed model the script is for (from a `.har`), enabling layer checks (R19). */
  model?: ModelLayerIndex;
  /**
   * Does an `nms_postprocess` config path exist? The host resolves it against the script's folder
   * and the environment; `undefined` = cannot tell (the check is skipped).
   */
  fileExists?: (rawPath: string) => boolean | undefined;
  /** Stop after this many diagnostics (one more says how many were left out). */
  maxDiagnostics?: number;
}

export interface Pending {
  start: number;
  end: number;
  severity: Severity;
  code: AllsCode;
  message: string;
  related?: { start: number; end: number; message: string }[];
  fixes?: { title: string; edits: { start: number; end: number; newText: string }[]; preferred?: boolean }[];
  tags?: ('unnecessary' | 'deprecated')[];
}

export class RuleContext {
  readonly out: Pending[] = [];
  readonly settings: Pick<HailoSettings, 'hwArch'>;
  readonly family: ArchFamily | undefined;
  readonly archFrom: string;
  readonly lookup: LayerLookup | undefined;
  /** Keyword → the statement it was last seen in (duplicate keywords without clearing a set per statement). */
  readonly keywordSeenIn = new Map<string, number>();
  /** Commands whose bare legacy form was already hinted in this script. */
  readonly bareFormHinted = new Set<string>();
  /** Answers of searches over every layer, by name or pattern: at most LIMITS.allsNameSearches per script (issue 29). */
  private readonly searches = new Map<string, string[] | boolean>();
  /** Name → its first `context([...])` definition, indexed once on first use (issue 29: a scan per statement was quadratic). */
  private contextDefs: Map<string, NameDefinition> | undefined;

  constructor(
    readonly doc: AllsDocument,
    readonly options: CheckOptions,
  ) {
    this.settings = options.settings ?? DEFAULT_SETTINGS;
    this.family = archFamily(this.settings.hwArch);
    this.archFrom = options.archFrom ?? 'setting `hailo.hwArch`';
    this.lookup = options.model ? layerLookup(options.model) : undefined;
  }

  add(start: number, end: number, severity: Severity, code: AllsCode, message: string, extra: Partial<Pending> = {}): void {
    this.out.push({ start, end, severity, code, message, ...extra });
  }

  /**
   * "Did you mean" candidates for an unknown `word` among `candidates()` — a walk over every layer or
   * definition, so each word (in a `scope`, when the candidates depend on where it is) is searched
   * once and at most LIMITS.allsNameSearches words per script (then none).
   */
  nearNames(word: string, candidates: () => Iterable<string>, scope = ''): string[] {
    const key = `n\0${scope}\0${word}`;
    const known = this.searches.get(key);
    if (known !== undefined) return known as string[];
    if (this.searches.size >= limit('allsNameSearches')) return [];
    const found = suggest(word, candidates());
    this.searches.set(key, found);
    return found;
  }

  /** Whether a glob matches nothing (`test` walks every layer): each pattern once, within the same budget; undefined past it. */
  globMatchesNothing(pattern: string, test: () => boolean): boolean | undefined {
    const key = `g\0${pattern}`;
    const known = this.searches.get(key);
    if (known !== undefined) return known as boolean;
    if (this.searches.size >= limit('allsNameSearches')) return undefined;
    const none = test();
    this.searches.set(key, none);
    return none;
  }

  /** The first `name = context([...])` in the script, wherever it is. */
  firstContextDefinition(name: string): NameDefinition | undefined {
    if (!this.contextDefs) {
      this.contextDefs = new Map();
      for (const [n, defs] of this.doc.definitions) {
        const d = defs.find((x) => x.command === 'context');
        if (d) this.contextDefs.set(n, d);
      }
    }
    return this.contextDefs.get(name);
  }

  renameFixes(node: { start: number; end: number }, candidates: string[], what: string): Pending['fixes'] {
    return candidates.map((c, i) => ({ title: `Change ${what} to \`${c}\``, edits: [{ start: node.start, end: node.end, newText: c }], preferred: i === 0 }));
  }

  /** 1-based line of an offset, for messages. */
  line(offset: number): number {
    return this.doc.lines.positionAt(offset).line + 1;
  }

  checkArch(node: { start: number; end: number }, what: string, arch: ArchNote): void {
    const fam = this.family;
    if (!fam || arch.seenOn.includes(fam)) return;
    const where = arch.seenOn.map((f) => FAMILY_LABEL[f]).join(' and ');
    const legacy = arch.seenOn.length === 1 && arch.seenOn[0] === 'hailo8';
    this.add(
      node.start,
      node.end,
      legacy ? 'info' : 'warning',
      'alls/arch-specific',
      `${what} appears only in ${where} scripts; the target is ${this.settings.hwArch} (${this.archFrom}).${legacy ? '' : ' It may not exist for this architecture.'}`,
    );
  }

  skipSpaces(offset: number): number {
    let o = offset;
    while (o < this.doc.text.length && (this.doc.text[o] === ' ' || this.doc.text[o] === '\t')) o++;
    return o;
  }

  freshName(base: string): string {
    for (let i = 1; ; i++) if (!this.doc.definitions.has(`${base}${i}`)) return `${base}${i}`;
  }

  /** The findings as diagnostics, in document order, at most `maxDiagnostics` (+ one saying how many were left out). */
  finish(): Diagnostic[] {
    const max = this.options.maxDiagnostics ?? 1000;
    const lines = this.doc.lines;
    const sorted = this.out.sort((a, b) => a.start - b.start || a.end - b.end);
    const shown = sorted.length > max ? sorted.slice(0, max) : sorted;
    const result: Diagnostic[] = shown.map((p) => {
      const d: Diagnostic = { range: lines.range(p.start, p.end), severity: p.severity, code: p.code, message: p.message };
      if (p.related?.length) d.related = p.related.map((r) => ({ range: lines.range(r.start, r.end), message: r.message }));
      if (p.fixes?.length)
        d.fixes = p.fixes.map((f): Fix => ({
          title: f.title,
          edits: f.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })),
          ...(f.preferred ? { preferred: true } : {}),
        }));
      if (p.tags) d.tags = p.tags;
      return d;
    });
    if (sorted.length > max) {
      result.push({
        range: lines.range(0, 0),
        severity: 'info',
        code: 'alls/too-many-problems',
        message: `${sorted.length - max} more problems are not shown (limit ${max}).`,
      });
    }
    return result;
  }
}

/** The last value given for a keyword. */
export function kwValue(st: ResolvedStatement, name: string): ValueNode | undefined {
  for (let i = st.keywords.length - 1; i >= 0; i--) if (st.keywords[i].keyword!.text === name) return st.keywords[i].value;
  return undefined;
}

/** A closed list of numbers, else undefined. */
export function numbers(v: ValueNode | undefined): number[] | undefined {
  if (v?.kind !== 'list' || v.close < 0) return undefined;
  const out: number[] = [];
  for (const x of v.items) {
    if (x.kind !== 'number') return undefined;
    out.push(x.value);
  }
  return out;
}

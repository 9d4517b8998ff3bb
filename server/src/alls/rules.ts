// Diagnostics for `.alls` scripts: syntax errors from the parser plus rules R1–R20 of the
// reference (§3) and known DFC faults. Severities follow the evidence: errors where the DFC is
// known to fail or a set is authoritative, warnings where the facts are corpus-derived, infos for
// advice. Every message names its evidence.
import type { ArgNode, GlobNode, ListNode, NameNode, ValueNode } from './ast';
import {
  analyze,
  forEachLayerRef,
  isBoolWord,
  isNoneWord,
  keywordSpec,
  positionalSpec,
  signatureArity,
  valueFits,
  type AllsDocument,
  type ResolvedStatement,
} from './analysis';
import type { AllsCode } from './codes';
import { layerLookup, type LayerLookup } from './layers';
import { globToRegExp } from './glob';
import { METHODS, NMS_CONFIG_ARGUMENTS, argumentSetOf, commandNames } from './schema';
import { KIND_BIT, kindBits, type ArchNote, type CommandSpec, type EnumSpec, type ParamSpec, type ZooUse } from './schemaTypes';
import { suggest } from './suggest';
import type { Diagnostic, Fix, Severity } from '../common/types';
import type { HailoSettings } from '../common/settings';
import { DEFAULT_SETTINGS } from '../common/settings';
import type { ModelLayerIndex } from '../common/modelLayers';
import { noisyLayerDiagnostics } from './noisyLayers';
import { archFamily, FAMILY_LABEL, type ArchFamily } from '../common/arch';

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

interface Pending {
  start: number;
  end: number;
  severity: Severity;
  code: AllsCode;
  message: string;
  related?: { start: number; end: number; message: string }[];
  fixes?: { title: string; edits: { start: number; end: number; newText: string }[]; preferred?: boolean }[];
  tags?: ('unnecessary' | 'deprecated')[];
}

/** Highest `place` cluster index seen per family (reference R10: observed maxima, GUESS as limits). */
const MAX_CLUSTER: Record<ArchFamily, number> = { hailo8: 7, hailo15: 4, hailo15l: 2 };

/** Model-modification commands that insert a layer right after the input (RidgeRun wiki). */
const INPUT_INSERTERS = new Set(['input_conversion', 'resize', 'resize_input', 'yuv_to_rgb']);

const DESCRIBE_KIND: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  bool: '`True`/`False`',
  none: '`None`',
  enum: 'one of its words',
  layer: 'a layer name',
  glob: 'a `{pattern}`',
  layerList: 'a `[list]` of layer names',
  string: 'a "string"',
  duration: 'a duration like `30m`',
  numberList: 'a `[list]` of numbers',
  intList: 'a `[list]` of integers',
  enumList: 'a `[list]` of words',
  name: 'a name',
  any: 'a value',
};

function describeValue(v: ValueNode): string {
  switch (v.kind) {
    case 'name':
      return isBoolWord(v.text) ? `the boolean \`${v.text}\`` : isNoneWord(v.text) ? '`None`' : `the word \`${short(v.text)}\``;
    case 'number':
      return `the number \`${v.text}\``;
    case 'string':
      return 'a string';
    case 'glob':
      return `the pattern \`${short(v.text)}\``;
    case 'list':
      return 'a list';
    case 'dict':
      return 'a dictionary';
    default:
      return 'nothing';
  }
}

/** How messages name a value's slot: the keyword `precision_mode`, or the positional `place(cluster)`. */
function slotLabel(name: string, command: string | undefined): string {
  return command === undefined ? name : `${command}(${name})`;
}

function short(s: string, n = 60): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function listWords(words: string[], max = 12): string {
  const shown = words.slice(0, max).map((w) => `\`${w}\``);
  return shown.join(', ') + (words.length > max ? `, … (${words.length} in all)` : '');
}

/** `model zoo v1.0–v5.0.0, 67 script versions`. */
function zooText(z: ZooUse): string {
  return `model zoo ${z.releases}, ${z.scripts} script version${z.scripts === 1 ? '' : 's'}`;
}

function precisionBits(mode: string): { input: number; output: number } | undefined {
  const m = /^a(\d+)_w(\d+)(?:_a(\d+))?/.exec(mode);
  if (!m) return undefined;
  const input = Number(m[1]);
  return { input, output: m[3] ? Number(m[3]) : input };
}

class Checker {
  private readonly out: Pending[] = [];
  private readonly settings: Pick<HailoSettings, 'hwArch'>;
  private readonly family: ArchFamily | undefined;
  private readonly archFrom: string;
  private readonly lookup: LayerLookup | undefined;
  /** Keyword → the statement it was last seen in (duplicate keywords without clearing a set per statement). */
  private readonly keywordSeenIn = new Map<string, number>();
  /** Commands whose bare legacy form was already hinted in this script. */
  private readonly bareFormHinted = new Set<string>();

  constructor(
    private readonly doc: AllsDocument,
    private readonly options: CheckOptions,
  ) {
    this.settings = options.settings ?? DEFAULT_SETTINGS;
    this.family = archFamily(this.settings.hwArch);
    this.archFrom = options.archFrom ?? 'setting `hailo.hwArch`';
    this.lookup = options.model ? layerLookup(options.model) : undefined;
  }

  private add(start: number, end: number, severity: Severity, code: AllsCode, message: string, extra: Partial<Pending> = {}): void {
    this.out.push({ start, end, severity, code, message, ...extra });
  }

  private renameFixes(node: { start: number; end: number }, candidates: string[], what: string): Pending['fixes'] {
    return candidates.map((c, i) => ({ title: `Change ${what} to \`${c}\``, edits: [{ start: node.start, end: node.end, newText: c }], preferred: i === 0 }));
  }

  run(): Diagnostic[] {
    const doc = this.doc;
    if (doc.binary) {
      this.add(0, 0, 'error', 'alls/binary-file', 'This file contains NUL bytes: it looks binary, not like a model script. Not analysed.');
      return this.finish();
    }
    if (doc.skipped) {
      this.add(0, 0, 'warning', 'alls/limit', doc.skipped);
      return this.finish();
    }
    for (const e of doc.script.errors) {
      this.add(e.start, e.end, e.severity, e.code as AllsCode, e.message, e.related ? { related: e.related } : {});
    }
    for (const c of doc.script.trailingComments) {
      this.add(
        c.start,
        c.end,
        'info',
        'alls/trailing-comment',
        "Comment after code: Hailo's scripts only use full-line comments, and whether the DFC accepts a trailing comment is unknown. Move it to its own line to be safe.",
        {
          fixes: [],
        },
      );
    }
    const facts = this.collectFacts();
    let firstInserter: ResolvedStatement | undefined;
    for (const st of doc.statements) {
      this.checkStatement(st, facts);
      const name = st.node.call?.name.text;
      if (st.spec && !st.isMethod && name) {
        if (name === 'normalization' && firstInserter) this.checkOrder(st, firstInserter);
        if (INPUT_INSERTERS.has(name) && !firstInserter) firstInserter = st;
      }
    }
    this.checkLayerRefs();
    return this.finish();
  }

  private finish(): Diagnostic[] {
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

  // ---- whole-script facts ------------------------------------------------------------------

  private collectFacts(): { calibsetSize?: number } {
    const facts: { calibsetSize?: number } = {};
    for (const st of this.doc.statements) {
      if (st.spec?.name === 'model_optimization_config' && st.sub?.name === 'calibration') {
        for (const k of st.keywords) if (k.keyword!.text === 'calibset_size' && k.value.kind === 'number') facts.calibsetSize = k.value.value;
      }
    }
    return facts;
  }

  // ---- one statement -------------------------------------------------------------------------

  private checkStatement(st: ResolvedStatement, facts: { calibsetSize?: number }): void {
    const call = st.node.call;
    if (!call) return;
    if (call.object) {
      this.checkContextObject(st);
      if (!st.spec) {
        const cands = suggest(call.name.text, METHODS.keys());
        this.add(
          call.name.start,
          call.name.end,
          'error',
          'alls/unknown-method',
          `\`${call.name.text}\` is not a context method: a context has \`place(cluster, [layers])\` and \`compilation_param(...)\`.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
          {
            fixes: this.renameFixes(call.name, cands, 'the method'),
          },
        );
        return;
      }
    } else if (!st.spec) {
      const cands = suggest(call.name.text, commandNames());
      this.add(
        call.name.start,
        call.name.end,
        'error',
        'alls/unknown-command',
        `Unknown command \`${short(call.name.text)}\`.${cands.length ? ` Did you mean ${cands.map((c) => `\`${c}\``).join(' or ')}?` : ''}`,
        {
          fixes: this.renameFixes(call.name, cands, 'the command'),
        },
      );
      return;
    }
    const spec = st.spec;
    if (spec.methodOnly && !call.object) {
      if (!spec.bareForm) {
        this.add(
          call.name.start,
          call.name.end,
          'error',
          'alls/undefined-context',
          `\`${spec.name}\` is called on a context: \`context_0.${spec.name}(...)\` after \`context_0 = context([...])\`.`,
        );
        return;
      }
      // A released form (single-context allocator scripts): the DFC accepted it, so only a hint,
      // and once per script (allocator dumps hold hundreds of these).
      if (!this.bareFormHinted.has(spec.name)) {
        this.bareFormHinted.add(spec.name);
        this.add(
          call.name.start,
          call.name.end,
          'hint',
          'alls/legacy',
          `Legacy form: a bare \`${spec.name}(...)\` (single-context allocator scripts; ${zooText(spec.bareForm)}); newer scripts write \`context_0.${spec.name}(...)\` after \`context_0 = context([...])\`.`,
          { tags: ['deprecated'] },
        );
      }
    }
    if (spec.replacedBy) {
      this.add(
        call.name.start,
        call.name.end,
        'hint',
        'alls/legacy',
        `Legacy form: \`${spec.name}\`${spec.zoo ? ` (${zooText(spec.zoo)})` : ''}; newer Hailo scripts write \`${spec.replacedBy}\`.`,
        { tags: ['deprecated'] },
      );
    }
    if (spec.arch) this.checkArch(call.name, `\`${spec.name}\``, spec.arch);
    const ordered = this.checkArgOrder(st);
    this.checkTargets(st, spec, ordered);
    if (spec.subcommands) this.checkSubcommand(st, spec);
    this.checkKeywords(st, spec);
    if (ordered) this.checkPositionals(st, spec);
    this.checkSpecific(st, spec, facts);
  }

  private checkContextObject(st: ResolvedStatement): void {
    const obj = st.node.call!.object!;
    const defs = this.doc.definitions.get(obj.text);
    const before = defs?.find((d) => d.statement < st.index);
    if (before && before.command === 'context') return;
    const contexts = [...this.doc.definitions.values()].filter((ds) => ds[0].command === 'context' && ds[0].statement < st.index).map((ds) => ds[0].name);
    if (before) {
      this.add(
        obj.start,
        obj.end,
        'error',
        'alls/undefined-context',
        `\`${obj.text}\` is defined by \`${before.command}(...)\` (line ${this.line(before.node.start)}), not by \`context([...])\`; only contexts have \`.${st.node.call!.name.text}(...)\`.`,
      );
      return;
    }
    const later = defs?.find((d) => d.command === 'context');
    const cands = suggest(obj.text, contexts);
    this.add(
      obj.start,
      obj.end,
      'error',
      'alls/undefined-context',
      later
        ? `\`${obj.text}\` is used before \`${obj.text} = context([...])\` (line ${this.line(later.node.start)}); in Hailo's scripts the context is always defined first (2,776 of 2,776).`
        : `\`${obj.text}\` is not defined: write \`${obj.text} = context([...])\` before \`${obj.text}.${st.node.call!.name.text}(...)\`.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
      { fixes: this.renameFixes(obj, cands, 'the context') },
    );
  }

  private line(offset: number): number {
    return this.doc.lines.positionAt(offset).line + 1;
  }

  private checkArch(node: { start: number; end: number }, what: string, arch: ArchNote): void {
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

  // ---- R5 / R6 / R8 targets --------------------------------------------------------------------

  private checkTargets(st: ResolvedStatement, spec: CommandSpec, ordered: boolean): void {
    const node = st.node;
    const call = node.call!;
    const n = node.targets.length;
    if (n === 0 && spec.targets === 'required' && !call.object) {
      const confirmed = spec.targetEvidence === 'confirmed';
      const name = this.freshName(spec.name);
      this.add(
        call.name.start,
        call.name.end,
        confirmed ? 'error' : 'warning',
        'alls/missing-target',
        confirmed
          ? `\`${spec.name}\` must be assigned, e.g. \`${name} = ${spec.name}(...)\`: the DFC rejects a bare call ("Parsing failed at: >!<${spec.name}(...)", third-party traceback), and all 972 uses in Hailo's scripts are assigned.`
          : `\`${spec.name}\` is always assigned in Hailo's scripts (\`name = ${spec.name}(...)\`): the target names the layer it creates.`,
        {
          fixes: [
            { title: `Assign it: \`${name} = ${spec.name}(...)\``, edits: [{ start: node.start, end: node.start, newText: `${name} = ` }], preferred: true },
          ],
        },
      );
      return;
    }
    if (n > 0 && (spec.targets === 'none' || call.object)) {
      const first = node.targets[0];
      const end = node.assign >= 0 ? node.assign + 1 : node.targets[n - 1].end;
      this.add(
        first.start,
        node.targets[n - 1].end,
        'warning',
        'alls/unexpected-target',
        `\`${spec.name}\` is never assigned in Hailo's scripts; the target has no meaning there.`,
        {
          fixes: [{ title: 'Remove the assignment', edits: [{ start: first.start, end: this.skipSpaces(end), newText: '' }], preferred: true }],
        },
      );
      return;
    }
    if (n === 0 || node.broken || !ordered) return;
    const expected = this.expectedTargets(st, spec);
    if (expected && !expected.counts.includes(n)) {
      const first = node.targets[0];
      this.add(
        first.start,
        node.targets[n - 1].end,
        expected.refused?.(n) ? 'error' : 'warning',
        'alls/target-count',
        `${expected.what} creates ${expected.counts.join(' or ')} layer${expected.counts.length === 1 && expected.counts[0] === 1 ? '' : 's'}, so ${expected.counts.join(' or ')} target${expected.counts.length === 1 && expected.counts[0] === 1 ? '' : 's'}; found ${n}.${expected.evidence ? ' ' + expected.evidence : ''}`,
      );
    }
    if (spec.name === 'network_group' && n === 1 && node.targets[0].kind === 'name') {
      const v = st.positionals[0]?.value;
      if (v?.kind === 'list' && v.items.length === 1 && v.items[0].kind === 'name' && v.items[0].text !== node.targets[0].text) {
        this.add(
          node.targets[0].start,
          node.targets[0].end,
          'info',
          'alls/network-group-name',
          `In Hailo's scripts the network_group target equals its single element (38 of 38): \`${v.items[0].text} = network_group([${v.items[0].text}])\`.`,
        );
      }
    }
    if (spec.name === 'defuse_block' && !node.targets.every((t) => (t.kind === 'glob' && t.pattern === '') || t.kind === 'dict')) {
      this.add(
        node.targets[0].start,
        node.targets[n - 1].end,
        'warning',
        'alls/target-count',
        "`defuse_block` is assigned to `{}` or to a `{ layer: [pieces] }` dictionary in Hailo's scripts.",
      );
    }
  }

  private skipSpaces(offset: number): number {
    let o = offset;
    while (o < this.doc.text.length && (this.doc.text[o] === ' ' || this.doc.text[o] === '\t')) o++;
    return o;
  }

  private freshName(base: string): string {
    for (let i = 1; ; i++) if (!this.doc.definitions.has(`${base}${i}`)) return `${base}${i}`;
  }

  /** `refused(n)`: the DFC is known to reject `n` targets (then an error, else a warning). */
  private expectedTargets(
    st: ResolvedStatement,
    spec: CommandSpec,
  ): { counts: number[]; what: string; evidence?: string; refused?: (n: number) => boolean } | undefined {
    switch (spec.name) {
      case 'defuse': {
        const nArg = st.positionals[1]?.value;
        if (nArg?.kind !== 'number' || !Number.isInteger(nArg.value)) return undefined;
        const n = nArg.value;
        const typeArg = st.keywords.find((k) => k.keyword!.text === 'defuse_type')?.value;
        const type = typeArg?.kind === 'name' ? typeArg.text : 'default';
        const table: Record<string, number[]> = {
          default: [n + 1, n + 2],
          SPATIAL: [n + 1, n + 2],
          INPUT_FEATURES: [n + 2],
          DYNAMIC_WEIGHTS: [n + 2],
          NMS: [n + 2],
          COMPUTE_LANES: [n + 1],
          DOUBLE_PRECISION_CONV: [4],
          EW_MULT_ON_MAC: [n],
          SUPER_DW: [n],
          CONST_INPUT: [n],
          DECONV: [n + 1],
          SUPER_DECONV: [n + 1],
        };
        const counts = Object.hasOwn(table, type) ? table[type] : undefined; // `type` is the script's word
        if (!counts) return undefined;
        const what = type === 'default' ? `\`defuse(…, ${n})\`` : `\`defuse(…, ${n}, defuse_type=${type})\``;
        if (type === 'default') {
          return {
            counts,
            what,
            // Only the pieces without their concat is a known refusal; other counts are corpus-derived.
            refused: (found) => found === n,
            evidence:
              'Default defuse targets are the pieces `_d0…`, the concat `_dc` and optionally `_transpose`. Omitting the concat target is refused: "all three return values required — omitting the auto-generated concat layer `defuse_c` throws `AllocatorScriptParserException`" (a DFC user\'s notes on `defuse(conv49, 2)`).',
          };
        }
        return { counts, what, evidence: "Counts observed in Hailo's compiler-written scripts." };
      }
      case 'input_conversion': {
        const t = st.positionals[st.positionals.length - 1]?.value;
        if (t?.kind !== 'name') return undefined;
        if (t.text === 'nv12_to_rgb' || t.text === 'yuy2_to_rgb')
          return {
            counts: [2],
            what: `\`input_conversion(${t.text})\``,
            evidence: 'Hybrid conversions create a reshape and a yuv_to_rgb layer (model-zoo code; 17 of 17 scripts).',
          };
        if (t.text === 'nv12_to_hailo_yuv')
          return { counts: [1, 3], what: '`input_conversion(nv12_to_hailo_yuv)`', evidence: 'FHD NV12 models use 3 targets (reshape, resize, concat).' };
        return { counts: [1], what: `\`input_conversion(${t.text})\`` };
      }
      case 'transpose_concat':
        return { counts: [3], what: '`transpose_concat`', evidence: 'Seen with 3 targets in all 24 uses.' };
      case 'mux_demux':
        return { counts: [2], what: '`mux_demux`', evidence: 'A mux and a demux.' };
      case 'normalization':
      case 'defuse_block':
        return undefined;
      default:
        return spec.targets === 'required' ? { counts: [1], what: `\`${spec.name}\`` } : undefined;
    }
  }

  // ---- R2 sub-commands -----------------------------------------------------------------------

  private checkSubcommand(st: ResolvedStatement, spec: CommandSpec): void {
    const call = st.node.call!;
    const items = spec.subcommands!.items;
    const known = Object.keys(items).filter((k) => items[k].evidence !== 'third-party');
    const arg = st.subArg;
    if (!arg || arg.value.kind !== 'name') {
      const at = arg ?? call.args[0];
      this.add(
        at ? at.start : call.name.start,
        at ? at.end : call.name.end,
        'error',
        'alls/missing-subcommand',
        `\`${spec.name}\` takes the ${spec.name === 'model_optimization_config' ? 'component' : 'feature'} as its first argument, a bare name: ${listWords(known)}.`,
      );
      return;
    }
    const name = arg.value.text;
    const sub = st.sub;
    if (!sub) {
      const cands = suggest(name, Object.keys(items));
      this.add(
        arg.value.start,
        arg.value.end,
        'error',
        'alls/unknown-subcommand',
        `\`${short(name)}\` is not a valid ${spec.subcommands!.enumName} (the DFC raises "'${short(name)}' is not a valid ${spec.subcommands!.enumName}"). Known: ${listWords(known)}.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
        {
          fixes: this.renameFixes(arg.value, cands, 'the feature'),
        },
      );
      return;
    }
    if (sub.evidence === 'third-party') {
      this.add(
        arg.value.start,
        arg.value.end,
        'warning',
        'alls/unverified-subcommand',
        `\`${name}\` appears only in third-party code, never in Hailo's scripts; this DFC may not know it.`,
      );
    }
    if (sub.arch) this.checkArch(arg.value, `\`${spec.name}(${name})\``, sub.arch);
  }

  // ---- R4 / R14 / R3 arguments ---------------------------------------------------------------

  /** Returns false when a positional follows a keyword: positions are then meaningless. */
  private checkArgOrder(st: ResolvedStatement): boolean {
    if (st.argsInOrder) return true; // known from resolving: nothing to report
    let ok = true;
    let seenKeyword: ArgNode | undefined;
    for (const a of st.node.call!.args) {
      if (a.keyword) seenKeyword ??= a;
      else if (seenKeyword) {
        ok = false;
        this.add(
          a.start,
          a.end,
          'error',
          'alls/positional-after-keyword',
          `A positional argument after the keyword argument \`${seenKeyword.keyword!.text}=\`: positional arguments come first (Python call syntax; never violated in 97k statements).`,
          {
            related: [{ start: seenKeyword.start, end: seenKeyword.end, message: 'first keyword argument' }],
          },
        );
      }
    }
    return ok;
  }

  private checkKeywords(st: ResolvedStatement, spec: CommandSpec): void {
    if (spec.subcommands && !st.sub) return; // unknown feature: its keywords are unknowable
    const own = st.sub ? st.sub.kwargs : spec.kwargs;
    const keywords = st.keywords;
    const seenIn = this.keywordSeenIn;
    for (let i = 0; i < keywords.length; i++) {
      const a = keywords[i];
      const k = a.keyword!;
      let prev: ArgNode | undefined;
      if (seenIn.get(k.text) === st.index) prev = keywords.find((x) => x.keyword!.text === k.text);
      else seenIn.set(k.text, st.index);
      if (prev) {
        // Info, not warning: a released script does it (model zoo v5.1.0), so the DFC accepts it.
        this.add(
          k.start,
          a.end,
          'info',
          'alls/duplicate-kwarg',
          `\`${k.text}\` is given twice in this call. The DFC accepts it (model zoo v5.1.0's \`generic/clip_vit_l_14_336_image_encoder.alls\` does it), but which value wins is undocumented: keep one.`,
          {
            related: [{ start: prev.start, end: prev.end, message: 'first given here' }],
          },
        );
      }
      const prm = keywordSpec(st, k.text);
      if (!prm) {
        const owner = st.sub ? `\`${spec.name}(${st.sub.name}, …)\`` : `\`${spec.name}\``;
        const names = Object.keys(own);
        const cands = suggest(k.text, names);
        let elsewhere = '';
        if (spec.subcommands) {
          const subs = Object.values(spec.subcommands.items)
            .filter((s) => s.kwargs[k.text])
            .map((s) => s.name);
          if (subs.length) elsewhere = ` It is a keyword of ${subs.map((s) => `\`${s}\``).join(', ')}.`;
        }
        // Error only where the keyword list is known complete; a corpus-derived list says so.
        const set = argumentSetOf(spec, st.sub);
        const documented = set.kind === 'documented';
        this.add(
          k.start,
          k.end,
          documented ? 'error' : 'warning',
          'alls/unknown-kwarg',
          documented
            ? `\`${short(k.text)}\` is not a keyword of ${owner}${set.refusal ? `: the DFC refuses it with "${set.refusal} ${short(k.text)}"` : ''}${names.length ? ` (its keywords: ${listWords(names, 8)})` : ' (it takes none)'}.${elsewhere}${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''} The list is complete: ${set.evidence}.`
            : `\`${short(k.text)}\` is not a keyword seen for ${owner}${names.length ? ` (seen: ${listWords(names, 8)})` : ' (it takes none)'}.${elsewhere}${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''} The list comes from Hailo's scripts and is not exhaustive.`,
          { fixes: this.renameFixes(k, cands, 'the keyword') },
        );
        continue;
      }
      if (prm.replacedBy) {
        this.add(
          k.start,
          k.end,
          'hint',
          'alls/legacy',
          `Legacy form: \`${k.text}\`${prm.zoo ? ` (${zooText(prm.zoo)})` : ''}; newer Hailo scripts write \`${prm.replacedBy}\`.`,
          {
            tags: ['deprecated'],
            fixes: [{ title: `Rename to \`${prm.replacedBy}\``, edits: [{ start: k.start, end: k.end, newText: prm.replacedBy }], preferred: true }],
          },
        );
      }
      if (prm.arch) this.checkArch(k, `\`${k.text}\``, prm.arch);
      this.checkValue(a.value, prm, k.text);
    }
  }

  private checkPositionals(st: ResolvedStatement, spec: CommandSpec): void {
    const call = st.node.call!;
    if (spec.subcommands) {
      if (st.sub && st.positionals.length > 0 && !st.node.broken) {
        const a = st.positionals[0];
        this.add(
          a.start,
          st.positionals[st.positionals.length - 1].end,
          'warning',
          'alls/argument-count',
          `\`${spec.name}(${st.sub.name}, …)\` takes only keyword arguments after the feature name.`,
        );
      }
      return;
    }
    if (!st.signature) {
      if (st.node.broken) return;
      const n = st.positionals.length;
      const forms = spec.signatures.map(
        (s) =>
          `\`${st.isMethod ? 'ctx.' : ''}${spec.name}(${s.params.map((x) => (x.optional ? `[${x.name}]` : x.variadic ? `${x.name}…` : x.name)).join(', ')})\``,
      );
      const at = n > 0 ? { start: st.positionals[0].start, end: st.positionals[n - 1].end } : { start: call.name.start, end: call.name.end };
      const ranges = spec.signatures.map(signatureArity);
      const min = Math.min(...ranges.map((r) => r.min));
      // A missing required argument is an error only where the signature is known complete.
      const set = spec.argumentSet;
      const refused = set.kind === 'documented' && n < min;
      this.add(
        at.start,
        at.end,
        refused ? 'error' : 'warning',
        'alls/argument-count',
        `${n < min ? 'Too few' : 'Too many'} positional arguments for \`${spec.name}\` (${n}); its form${forms.length > 1 ? 's are' : ' is'} ${forms.join(' or ')}.${refused ? ` The signature is complete: ${set.evidence}.` : " (Forms seen in Hailo's scripts.)"}`,
      );
      return;
    }
    for (let i = 0; i < st.positionals.length; i++) {
      const prm = positionalSpec(st.signature, i);
      if (prm) this.checkValue(st.positionals[i].value, prm, prm.name, spec.name);
    }
  }

  // ---- R9 / R10 / R20 values -----------------------------------------------------------------

  /**
   * `name` is the keyword, or the parameter of `command`'s positional: how messages name the slot
   * (built only for a message — most values are fine).
   */
  private checkValue(value: ValueNode, prm: ParamSpec, name: string, command?: string): void {
    if (value.kind === 'missing') return;
    const spec = prm.value;
    if (!valueFits(value, prm)) {
      this.reportMisfit(value, spec, slotLabel(name, command));
      return;
    }
    // Kinds fit; now words inside lists, enum details, ranges and lengths.
    if (value.kind === 'list') {
      if (kindBits(spec) & KIND_BIT.enumList && spec.enum) {
        for (const item of value.items) if (item.kind === 'name' && !spec.enum.names.has(item.text)) this.badEnum(item, spec.enum, slotLabel(name, command));
      }
      if (spec.length !== undefined && value.items.length !== spec.length && value.close >= 0) {
        this.add(
          value.start,
          value.end,
          spec.rangeSeverity ?? 'warning',
          'alls/list-length',
          `\`${slotLabel(name, command)}\` takes ${spec.length} values; found ${value.items.length}.`,
        );
      }
      for (const item of value.items) if (item.kind === 'number') this.checkRange(item.value, item, spec, name, command);
      return;
    }
    if (value.kind === 'number') this.checkRange(value.value, value, spec, name, command);
    if (value.kind === 'name' && spec.enum) {
      const ev = spec.enum.byName.get(value.text);
      if (ev?.arch && !(ev.name === 'a16_w8' && this.settings.hwArch === 'hailo10h'))
        this.checkArch(value, `\`${slotLabel(name, command)}=${ev.name}\``, ev.arch);
    }
  }

  /** A value of the wrong kind for its slot. */
  private reportMisfit(value: Exclude<ValueNode, { kind: 'missing' }>, spec: ParamSpec['value'], label: string): void {
    const layerish = spec.kinds.every((k) => k === 'layer' || k === 'glob' || k === 'layerList');
    if (value.kind === 'name' && (isBoolWord(value.text) || isNoneWord(value.text))) {
      // e.g. `share_config=True`: some keywords take both spellings, this one was only seen with words.
      const accepts = spec.kinds
        .map((k) =>
          k === 'enum' && spec.enum
            ? `one of ${listWords(
                spec.enum.values.map((v) => v.name),
                6,
              )}`
            : DESCRIBE_KIND[k],
        )
        .join(' or ');
      this.add(value.start, value.end, 'warning', 'alls/value-type', `\`${label}\` takes ${accepts} in Hailo's scripts; found ${describeValue(value)}.`);
    } else if (spec.enum && (value.kind === 'name' || value.kind === 'string')) {
      this.badEnum(value, spec.enum, label, spec.kinds.includes('bool'));
    } else if (layerish && (value.kind === 'name' || value.kind === 'glob' || value.kind === 'list')) {
      const accepts = spec.kinds.map((k) => DESCRIBE_KIND[k]).join(' or ');
      this.add(value.start, value.end, 'info', 'alls/layer-ref-kind', `\`${label}\` takes ${accepts} in Hailo's scripts; found ${describeValue(value)}.`);
    } else {
      const accepts = spec.kinds
        .map((k) =>
          k === 'enum' && spec.enum
            ? `one of ${listWords(
                spec.enum.values.map((v) => v.name),
                6,
              )}`
            : DESCRIBE_KIND[k],
        )
        .join(' or ');
      this.add(value.start, value.end, 'warning', 'alls/value-type', `\`${label}\` takes ${accepts}; found ${describeValue(value)}.`);
    }
  }

  private badEnum(value: NameNode | Extract<ValueNode, { kind: 'string' }>, e: EnumSpec, label: string, alsoBool = false): void {
    const word = value.kind === 'name' ? value.text : value.value;
    const names = e.values.map((v) => v.name);
    if (alsoBool) names.push('True', 'False');
    const cands = suggest(word, names);
    const mean = cands.length ? ` Did you mean \`${cands[0]}\`?` : '';
    if (e.closed) {
      this.add(
        value.start,
        value.end,
        'error',
        'alls/invalid-value',
        `\`${short(word)}\` is not a valid \`${label}\`: expected one of ${listWords(names, 20)} (${e.source}).${mean}`,
        {
          fixes: this.renameFixes(value, cands, 'the value'),
        },
      );
    } else {
      this.add(
        value.start,
        value.end,
        'warning',
        'alls/unrecognized-value',
        `\`${short(word)}\` is not among the \`${label}\` values seen: ${listWords(names, 12)} (${e.source}; the set may be incomplete).${mean}`,
        {
          fixes: this.renameFixes(value, cands, 'the value'),
        },
      );
    }
  }

  private checkRange(v: number, node: { start: number; end: number }, spec: ParamSpec['value'], name: string, command?: string): void {
    const low = spec.min !== undefined && v < spec.min;
    const high = spec.max !== undefined && v > spec.max;
    if (!low && !high) return;
    const label = slotLabel(name, command);
    const bounds = spec.max === undefined ? `≥ ${spec.min}` : spec.min === undefined ? `≤ ${spec.max}` : `${spec.min}–${spec.max}`;
    this.add(
      node.start,
      node.end,
      spec.rangeSeverity ?? 'warning',
      'alls/out-of-range',
      `\`${label}\` must be ${bounds}${spec.rangeNote ? ` (${spec.rangeNote})` : ''}; found ${v}.`,
    );
  }

  // ---- command-specific rules ----------------------------------------------------------------

  private kwValue(st: ResolvedStatement, name: string): ValueNode | undefined {
    for (let i = st.keywords.length - 1; i >= 0; i--) if (st.keywords[i].keyword!.text === name) return st.keywords[i].value;
    return undefined;
  }

  private checkSpecific(st: ResolvedStatement, spec: CommandSpec, facts: { calibsetSize?: number }): void {
    switch (spec.name) {
      case 'normalization':
        this.checkNormalization(st);
        break;
      case 'quantization_param':
        this.checkPrecision(st);
        this.checkClipping(st, 'activation_clipping_values', 'activation_clipping_mode');
        break;
      case 'pre_quantization_optimization':
        if (st.sub?.name === 'activation_clipping' || st.sub?.name === 'weights_clipping') this.checkClipping(st, 'clipping_values', 'mode');
        break;
      case 'model_optimization_flavor':
        this.checkOptimizationLevel(st);
        break;
      case 'model_optimization_config':
        if (st.sub?.name === 'calibration') {
          const v = this.kwValue(st, 'calibset_size');
          if (v?.kind === 'number' && v.value > 64)
            this.add(
              v.start,
              v.end,
              'info',
              'alls/calibset-size',
              `calibset_size above 64 only affects statistics collection (Hailo's HACE inspector); fine-tuning uses its own \`dataset_size\`.`,
            );
        }
        break;
      case 'nms_postprocess':
        this.checkNmsPath(st);
        this.checkNmsArguments(st);
        break;
      case 'place':
        this.checkCluster(st);
        break;
    }
  }

  private numbers(v: ValueNode | undefined): number[] | undefined {
    if (v?.kind !== 'list' || v.close < 0) return undefined;
    const out: number[] = [];
    for (const x of v.items) {
      if (x.kind !== 'number') return undefined;
      out.push(x.value);
    }
    return out;
  }

  private checkNormalization(st: ResolvedStatement): void {
    const [meanArg, stdArg] = st.positionals;
    const mean = this.numbers(meanArg?.value);
    const std = this.numbers(stdArg?.value);
    if (!mean || !std) return;
    if (mean.length !== std.length) {
      this.add(
        meanArg.start,
        stdArg.end,
        'error',
        'alls/normalization-shape',
        `normalization has ${mean.length} mean values but ${std.length} std values: both are per channel.`,
      );
    }
    const stdList = stdArg.value as ListNode;
    stdList.items.forEach((x) => {
      if (x.kind === 'number' && x.value === 0) this.add(x.start, x.end, 'error', 'alls/out-of-range', 'std 0 divides by zero: `(x - mean) / std`.');
    });
    if (mean.length && [...mean, ...std].every((x) => Math.abs(x) < 1)) {
      this.add(
        meanArg.start,
        stdArg.end,
        'warning',
        'alls/normalization-scale',
        'All mean and std values are below 1: normalization works on the 0–255 input scale (Hailo\'s HACE inspector: "Mean or std values were less than 1. Expected values in range of [0, 255]"). Multiply by 255, e.g. ImageNet is [123.675, 116.28, 103.53], [58.395, 57.12, 57.375].',
      );
    }
  }

  private checkClipping(st: ResolvedStatement, valuesKw: string, modeKw: string): void {
    const v = this.kwValue(st, valuesKw);
    const nums = this.numbers(v);
    if (!nums || nums.length !== 2) return;
    const mode = this.kwValue(st, modeKw);
    const [lo, hi] = nums;
    if (lo >= hi) this.add(v!.start, v!.end, 'error', 'alls/out-of-range', `\`${valuesKw}\` is [lo, hi] with lo < hi; found [${lo}, ${hi}].`);
    if (mode?.kind === 'name' && (mode.text === 'percentile' || mode.text === 'percentile_force') && (lo < 0 || hi > 100)) {
      this.add(v!.start, v!.end, 'error', 'alls/out-of-range', `With \`${modeKw}=${mode.text}\` the values are percentiles in [0, 100]; found [${lo}, ${hi}].`);
    }
  }

  private checkPrecision(st: ResolvedStatement): void {
    const v = this.kwValue(st, 'precision_mode');
    if (v?.kind !== 'name') return;
    const mode = v.text;
    if (mode === 'a16_w4') {
      this.add(
        v.start,
        v.end,
        'warning',
        'alls/dfc-known-fault',
        "Known DFC 5.3.0 fault: optimize() with precision_mode=a16_w4 fails with `AttributeError: 'function' object has no attribute 'set_wraparound_loss'` (recorded in a hailo10h DFC 5.3.0 logbook; a DFC bug). Use a16_w16 or a8_w4 until it is fixed.",
      );
    } else if (mode === 'a16_w8' && this.settings.hwArch === 'hailo10h') {
      this.add(
        v.start,
        v.end,
        'warning',
        'alls/dfc-known-fault',
        "Known DFC 5.3.0 fault on hailo10h: `Unsupported value [PrecisionMode.a16_w8] for fields ['precision_mode']` (third-party report). Hailo's scripts use a16_w8 only for hailo15l. Use a16_w16 on hailo10h.",
      );
    } else if (mode === 'native') {
      this.add(
        v.start,
        v.end,
        'warning',
        'alls/dfc-known-fault',
        'precision_mode=native keeps the layer in float: it does not compile (DFC 5.3.0 logbook: every deployable mode is integer).',
      );
    }
    const bits = precisionBits(mode);
    if (bits && bits.input !== bits.output) {
      const target = st.positionals[0]?.value;
      const names: NameNode[] =
        target?.kind === 'name' ? [target] : target?.kind === 'list' ? (target.items.filter((x) => x.kind === 'name') as NameNode[]) : [];
      for (const n of names) {
        const type = this.layerType(n.text);
        if (type === 'concat' || type === 'shortcut' || type === 'feature_splitter') {
          this.add(
            n.start,
            n.end,
            'info',
            'alls/precision-propagation',
            `\`${n.text}\` is a ${type} layer: concat, shortcut and feature_splitter layers can only output the format they get as input (8→8 or 16→16, not ${bits.input}→${bits.output}) — Hailo's 16-bit notebook. Set the precision on its producers instead.`,
          );
        }
      }
    }
  }

  /** HN type of a layer: from the model when known, else from its name (`concat3` → concat). */
  private layerType(name: string): string | undefined {
    const hit = this.lookup?.find(name);
    if (hit) return hit.type;
    const base = name.slice(name.lastIndexOf('/') + 1);
    const m = /^(concat|shortcut|feature_splitter)\d+$/.exec(base);
    return m ? m[1] : undefined;
  }

  /**
   * What an explicit optimization_level does without a GPU. The DFC lowers only its *default*
   * level (2) to 0 when it finds no GPU ("Reducing optimization level to 0 … no available GPU");
   * an explicit level runs as asked: level 1 (bias correction) on the CPU, slower but fine, levels
   * 2–4 train (fine-tuning, AdaRound) on the CPU — hours, and one record saw QAFT diverge there
   * (docs/alls-rules.md, R13). Level 1 gets no finding.
   */
  private checkOptimizationLevel(st: ResolvedStatement): void {
    const v = this.kwValue(st, 'optimization_level');
    if (v?.kind !== 'number' || !Number.isInteger(v.value) || v.value < 2 || v.value > 4) return;
    const algorithm = v.value === 2 ? 'Quantization-Aware Fine-Tuning' : 'AdaRound';
    const images = v.value === 3 ? 256 : 1024;
    this.add(
      v.start,
      v.end,
      'info',
      'alls/optimization-needs-gpu',
      `optimization_level ${v.value} trains (${algorithm}) during optimize. The DFC lowers only its default level to 0 without a GPU; a level written here runs as asked, so without a GPU it trains on the CPU — hours, and one record saw fine-tuning on the CPU diverge (with 645 images). Give the container a GPU, or use optimization_level=1 (bias correction, which runs on the CPU). The level trains on ${images} images of the calibration set: give optimize at least that many.`,
    );
  }

  private checkNmsPath(st: ResolvedStatement): void {
    if (!this.options.fileExists) return;
    const pos = st.positionals[0]?.value;
    const kwv = this.kwValue(st, 'config_path');
    const v = pos?.kind === 'string' ? pos : kwv?.kind === 'string' ? kwv : undefined;
    if (!v || !v.terminated || v.value === '') return;
    const exists = this.options.fileExists(v.value);
    if (exists === false) {
      this.add(
        v.start,
        v.end,
        'warning',
        'alls/nms-config-not-found',
        `NMS config not found: \`${short(v.value, 120)}\` (relative paths resolve against the script's folder). The DFC fails at compile time with "AllocatorScriptParserException: Post-process config file isn't found".`,
      );
    }
  }

  /**
   * What the DFC refuses in an nms_postprocess call besides unknown keywords: no meta_arch (a
   * user's failing `nms_postprocess("config.json")`; every model-zoo version names it), and a config
   * path together with the config's values as keywords ("Both config path and config arguments
   * were given"; the model zoo's own code edits the JSON instead of adding `classes=` when a path
   * is there).
   */
  private checkNmsArguments(st: ResolvedStatement): void {
    const call = st.node.call!;
    if (st.node.broken) return;
    const meta = st.keywords.some((a) => a.keyword!.text === 'meta_arch') || st.positionals.some((a) => a.value.kind === 'name');
    if (!meta) {
      this.add(
        call.name.start,
        call.name.end,
        'error',
        'alls/nms-meta-arch-missing',
        `nms_postprocess without meta_arch: the DFC needs the detector family to decode the outputs (meta_arch=yolov8, yolov5, yolox, ssd, …). A user's \`nms_postprocess("config.json")\` failed for exactly this ("meta architecture missing"), and every nms_postprocess of Hailo's 1,345 model-zoo script versions names it.`,
      );
    }
    const path = st.positionals.find((a) => a.value.kind === 'string') ?? st.keywords.find((a) => a.keyword!.text === 'config_path');
    if (!path) return;
    for (const a of st.keywords) {
      const k = a.keyword!;
      if (!NMS_CONFIG_ARGUMENTS.has(k.text)) continue;
      this.add(
        k.start,
        a.end,
        'error',
        'alls/nms-config-conflict',
        `\`${k.text}\` is one of the NMS config's values, and this call also names a config file: the DFC refuses the pair with "Both config path and config arguments were given" (a user's run). Hailo's model zoo writes such a value into the JSON when a path is given (core/main_utils.py) — do that, or drop the path and give the values as keywords.`,
      );
    }
  }

  private checkCluster(st: ResolvedStatement): void {
    const v = st.positionals[0]?.value;
    if (v?.kind !== 'number' || !this.family) return;
    const max = MAX_CLUSTER[this.family];
    if (v.value > max) {
      this.add(
        v.start,
        v.end,
        'warning',
        'alls/out-of-range',
        `Cluster index ${v.value} is above the highest seen in ${FAMILY_LABEL[this.family]} scripts (${max}); the target is ${this.settings.hwArch} (${this.archFrom}).`,
      );
    }
  }

  private checkOrder(norm: ResolvedStatement, inserter: ResolvedStatement): void {
    const name = norm.node.call!.name;
    const other = inserter.node.call!.name.text;
    this.add(
      name.start,
      name.end,
      'info',
      'alls/modification-order',
      `normalization comes after \`${other}\` (line ${this.line(inserter.node.start)}). Each model-modification command inserts its layer right after the input, so the later one ends up first: normalization will run on the input before ${other} (RidgeRun wiki). Hailo's scripts put normalization first.`,
      { related: [{ start: inserter.node.start, end: inserter.node.end, message: `${other} is written here` }] },
    );
  }

  // ---- R18 / R19 layer references ------------------------------------------------------------

  private checkLayerRefs(): void {
    const doc = this.doc;
    const lookup = this.lookup;
    forEachLayerRef(doc, (node, statement) => {
      if (node.kind === 'name') {
        const defs = doc.definitions.get(node.text);
        if (defs) {
          if (defs[0].statement > statement && !(lookup && lookup.find(node.text))) {
            this.add(
              node.start,
              node.end,
              'info',
              'alls/use-before-definition',
              `\`${short(node.text)}\` is used before the statement that defines it (line ${this.line(defs[0].node.start)}); Hailo's allocator scripts define names before using them.`,
              {
                related: [{ start: defs[0].node.start, end: defs[0].node.end, message: 'defined here' }],
              },
            );
          }
          return;
        }
        if (!lookup || lookup.find(node.text)) return;
        const cands = suggest(node.text, [...lookup.names, ...doc.definitions.keys()]);
        this.add(
          node.start,
          node.end,
          'warning',
          'alls/unknown-layer',
          `No layer \`${short(node.text)}\` in ${lookup.index.networkName || 'the model'} (${lookup.index.source}), and no statement defines it.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
          {
            fixes: this.renameFixes(node, cands, 'the layer'),
          },
        );
      } else if (lookup) {
        this.checkGlob(node, lookup);
      }
    });
  }

  private checkGlob(node: GlobNode, lookup: LayerLookup): void {
    if (node.pattern === '') return;
    if (lookup.matchGlob(node.pattern).length > 0) return;
    const re = globToRegExp(node.pattern);
    for (const n of this.doc.definitions.keys()) if (re.test(n)) return;
    this.add(
      node.start,
      node.end,
      'warning',
      'alls/glob-no-match',
      `\`${short(node.text)}\` matches no layer of ${lookup.index.networkName || 'the model'} (${lookup.index.source}).`,
    );
  }
}

export function checkDocument(doc: AllsDocument, options: CheckOptions = {}): Diagnostic[] {
  const list = new Checker(doc, options).run();
  // A noise analysis of the model: its 16-bit line, checked on the edited script without the noise.
  const noise = options.model?.noise;
  if (noise) list.push(...noisyLayerDiagnostics(doc, noise, list, (text) => checkText(text, { ...options, model: { ...options.model!, noise: undefined } })));
  return list;
}

export function checkText(text: string, options: CheckOptions = {}): Diagnostic[] {
  return checkDocument(analyze(text), options);
}

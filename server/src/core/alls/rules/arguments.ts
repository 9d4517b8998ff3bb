// R4 / R14 / R3: a call's arguments — positional after keyword, unknown and duplicate keywords,
// positional counts against the known forms; each value then goes to values.ts.
import { keywordSpec, positionalSpec, signatureArity, type ResolvedStatement } from '../analysis';
import type { ArgNode } from '../ast';
import { argumentSetOf } from '../schema';
import type { CommandSpec } from '../schemaTypes';
import { suggest } from '../suggest';
import type { RuleContext } from './context';
import { listWords, short, zooText } from './messages';
import { checkValue } from './values';
import { minOf } from '../../common/arrays';

// ---- R4 / R14 / R3 arguments ---------------------------------------------------------------

/** Returns false when a positional follows a keyword: positions are then meaningless. */
export function checkArgOrder(ctx: RuleContext, st: ResolvedStatement): boolean {
  if (st.argsInOrder) return true; // known from resolving: nothing to report
  let ok = true;
  let seenKeyword: ArgNode | undefined;
  for (const a of st.node.call!.args) {
    if (a.keyword) seenKeyword ??= a;
    else if (seenKeyword) {
      ok = false;
      ctx.add(
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

export function checkKeywords(ctx: RuleContext, st: ResolvedStatement, spec: CommandSpec): void {
  if (spec.subcommands && !st.sub) return; // unknown feature: its keywords are unknowable
  const own = st.sub ? st.sub.kwargs : spec.kwargs;
  const keywords = st.keywords;
  const seenIn = ctx.keywordSeenIn;
  for (let i = 0; i < keywords.length; i++) {
    const a = keywords[i];
    const k = a.keyword!;
    let prev: ArgNode | undefined;
    if (seenIn.get(k.text) === st.index) prev = keywords.find((x) => x.keyword!.text === k.text);
    else seenIn.set(k.text, st.index);
    if (prev) {
      // Info, not warning: a released script does it (model zoo v5.1.0), so the DFC accepts it.
      ctx.add(
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
      ctx.add(
        k.start,
        k.end,
        documented ? 'error' : 'warning',
        'alls/unknown-kwarg',
        documented
          ? `\`${short(k.text)}\` is not a keyword of ${owner}${set.refusal ? `: the DFC refuses it with "${set.refusal} ${short(k.text)}"` : ''}${names.length ? ` (its keywords: ${listWords(names, 8)})` : ' (it takes none)'}.${elsewhere}${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''} The list is complete: ${set.evidence}.`
          : `\`${short(k.text)}\` is not a keyword seen for ${owner}${names.length ? ` (seen: ${listWords(names, 8)})` : ' (it takes none)'}.${elsewhere}${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''} The list comes from Hailo's scripts and is not exhaustive.`,
        { fixes: ctx.renameFixes(k, cands, 'the keyword') },
      );
      continue;
    }
    if (prm.replacedBy) {
      ctx.add(
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
    if (prm.arch) ctx.checkArch(k, `\`${k.text}\``, prm.arch);
    checkValue(ctx, a.value, prm, k.text);
  }
}

export function checkPositionals(ctx: RuleContext, st: ResolvedStatement, spec: CommandSpec): void {
  const call = st.node.call!;
  if (spec.subcommands) {
    if (st.sub && st.positionals.length > 0 && !st.node.broken) {
      const a = st.positionals[0];
      ctx.add(
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
    const min = minOf(ranges.map((r) => r.min));
    // A missing required argument is an error only where the signature is known complete.
    const set = spec.argumentSet;
    const refused = set.kind === 'documented' && n < min;
    ctx.add(
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
    if (prm) checkValue(ctx, st.positionals[i].value, prm, prm.name, spec.name);
  }
}

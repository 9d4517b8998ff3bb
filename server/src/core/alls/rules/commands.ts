// R1 / R2: the command or context method itself — unknown names, contexts used before they are
// defined, legacy and architecture-specific forms, and the feature a sub-command family names.
import type { ResolvedStatement } from '../analysis';
import { METHODS, commandNames } from '../schema';
import type { CommandSpec } from '../schemaTypes';
import { suggest } from '../suggest';
import type { RuleContext } from './context';
import { listWords, short, zooText } from './messages';

/**
 * The command itself: known, called on a defined context, not a legacy or other-architecture form.
 * Returns its spec when the arguments are worth checking next.
 */
export function checkCommand(ctx: RuleContext, st: ResolvedStatement): CommandSpec | undefined {
  const call = st.node.call;
  if (!call) return undefined;
  if (call.object) {
    checkContextObject(ctx, st);
    if (!st.spec) {
      const cands = suggest(call.name.text, METHODS.keys());
      ctx.add(
        call.name.start,
        call.name.end,
        'error',
        'alls/unknown-method',
        `\`${call.name.text}\` is not a context method: a context has \`place(cluster, [layers])\` and \`compilation_param(...)\`.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
        {
          fixes: ctx.renameFixes(call.name, cands, 'the method'),
        },
      );
      return undefined;
    }
  } else if (!st.spec) {
    const cands = suggest(call.name.text, commandNames());
    ctx.add(
      call.name.start,
      call.name.end,
      'error',
      'alls/unknown-command',
      `Unknown command \`${short(call.name.text)}\`.${cands.length ? ` Did you mean ${cands.map((c) => `\`${c}\``).join(' or ')}?` : ''}`,
      {
        fixes: ctx.renameFixes(call.name, cands, 'the command'),
      },
    );
    return undefined;
  }
  const spec = st.spec;
  if (spec.methodOnly && !call.object) {
    if (!spec.bareForm) {
      ctx.add(
        call.name.start,
        call.name.end,
        'error',
        'alls/undefined-context',
        `\`${spec.name}\` is called on a context: \`context_0.${spec.name}(...)\` after \`context_0 = context([...])\`.`,
      );
      return undefined;
    }
    // A released form (single-context allocator scripts): the DFC accepted it, so only a hint,
    // and once per script (allocator dumps hold hundreds of these).
    if (!ctx.bareFormHinted.has(spec.name)) {
      ctx.bareFormHinted.add(spec.name);
      ctx.add(
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
    ctx.add(
      call.name.start,
      call.name.end,
      'hint',
      'alls/legacy',
      `Legacy form: \`${spec.name}\`${spec.zoo ? ` (${zooText(spec.zoo)})` : ''}; newer Hailo scripts write \`${spec.replacedBy}\`.`,
      { tags: ['deprecated'] },
    );
  }
  if (spec.arch) ctx.checkArch(call.name, `\`${spec.name}\``, spec.arch);
  return spec;
}

function checkContextObject(ctx: RuleContext, st: ResolvedStatement): void {
  const obj = st.node.call!.object!;
  const defs = ctx.doc.definitions.get(obj.text);
  const before = defs && defs[0].statement < st.index ? defs[0] : undefined; // definitions are in statement order
  if (before && before.command === 'context') return;
  // the contexts defined before this statement: a walk over every definition, within the script's search budget
  const contexts = () => [...ctx.doc.definitions.values()].filter((ds) => ds[0].command === 'context' && ds[0].statement < st.index).map((ds) => ds[0].name);
  if (before) {
    ctx.add(
      obj.start,
      obj.end,
      'error',
      'alls/undefined-context',
      `\`${obj.text}\` is defined by \`${before.command}(...)\` (line ${ctx.line(before.node.start)}), not by \`context([...])\`; only contexts have \`.${st.node.call!.name.text}(...)\`.`,
    );
    return;
  }
  const later = ctx.firstContextDefinition(obj.text);
  const cands = ctx.nearNames(obj.text, contexts, `context@${st.index}`);
  ctx.add(
    obj.start,
    obj.end,
    'error',
    'alls/undefined-context',
    later
      ? `\`${obj.text}\` is used before \`${obj.text} = context([...])\` (line ${ctx.line(later.node.start)}); in Hailo's scripts the context is always defined first (2,776 of 2,776).`
      : `\`${obj.text}\` is not defined: write \`${obj.text} = context([...])\` before \`${obj.text}.${st.node.call!.name.text}(...)\`.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
    { fixes: ctx.renameFixes(obj, cands, 'the context') },
  );
}

// ---- R2 sub-commands -----------------------------------------------------------------------

export function checkSubcommand(ctx: RuleContext, st: ResolvedStatement, spec: CommandSpec): void {
  const call = st.node.call!;
  const items = spec.subcommands!.items;
  const known = Object.keys(items).filter((k) => items[k].evidence !== 'third-party');
  const arg = st.subArg;
  if (!arg || arg.value.kind !== 'name') {
    const at = arg ?? call.args[0];
    ctx.add(
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
    ctx.add(
      arg.value.start,
      arg.value.end,
      'error',
      'alls/unknown-subcommand',
      `\`${short(name)}\` is not a valid ${spec.subcommands!.enumName} (the DFC raises "'${short(name)}' is not a valid ${spec.subcommands!.enumName}"). Known: ${listWords(known)}.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
      {
        fixes: ctx.renameFixes(arg.value, cands, 'the feature'),
      },
    );
    return;
  }
  if (sub.evidence === 'third-party') {
    ctx.add(
      arg.value.start,
      arg.value.end,
      'warning',
      'alls/unverified-subcommand',
      `\`${name}\` appears only in third-party code, never in Hailo's scripts; this DFC may not know it.`,
    );
  }
  if (sub.arch) ctx.checkArch(arg.value, `\`${spec.name}(${name})\``, sub.arch);
}

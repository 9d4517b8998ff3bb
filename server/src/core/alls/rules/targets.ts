// R5 / R6 / R8: assignment targets — required, unexpected, and how many layers a command creates.
import type { ResolvedStatement } from '../analysis';
import type { CommandSpec } from '../schemaTypes';
import type { RuleContext } from './context';

// ---- R5 / R6 / R8 targets --------------------------------------------------------------------

export function checkTargets(ctx: RuleContext, st: ResolvedStatement, spec: CommandSpec, ordered: boolean): void {
  const node = st.node;
  const call = node.call!;
  const n = node.targets.length;
  if (n === 0 && spec.targets === 'required' && !call.object) {
    const confirmed = spec.targetEvidence === 'confirmed';
    const name = ctx.freshName(spec.name);
    ctx.add(
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
    ctx.add(
      first.start,
      node.targets[n - 1].end,
      'warning',
      'alls/unexpected-target',
      `\`${spec.name}\` is never assigned in Hailo's scripts; the target has no meaning there.`,
      {
        fixes: [{ title: 'Remove the assignment', edits: [{ start: first.start, end: ctx.skipSpaces(end), newText: '' }], preferred: true }],
      },
    );
    return;
  }
  if (n === 0 || node.broken || !ordered) return;
  const expected = expectedTargets(st, spec);
  if (expected && !expected.counts.includes(n)) {
    const first = node.targets[0];
    ctx.add(
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
      ctx.add(
        node.targets[0].start,
        node.targets[0].end,
        'info',
        'alls/network-group-name',
        `In Hailo's scripts the network_group target equals its single element (38 of 38): \`${v.items[0].text} = network_group([${v.items[0].text}])\`.`,
      );
    }
  }
  if (spec.name === 'defuse_block' && !node.targets.every((t) => (t.kind === 'glob' && t.pattern === '') || t.kind === 'dict')) {
    ctx.add(
      node.targets[0].start,
      node.targets[n - 1].end,
      'warning',
      'alls/target-count',
      "`defuse_block` is assigned to `{}` or to a `{ layer: [pieces] }` dictionary in Hailo's scripts.",
    );
  }
}

/** `refused(n)`: the DFC is known to reject `n` targets (then an error, else a warning). */
function expectedTargets(
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

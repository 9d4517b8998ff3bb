// R18 / R19: layer references — used before their definition, unknown to the model, globs that
// match nothing.
import { forEachLayerRef } from '../analysis';
import type { GlobNode } from '../ast';
import { globMatcher } from '../../common/glob';
import type { LayerLookup } from '../layers';
import { short } from './messages';
import type { RuleContext } from './context';

// ---- R18 / R19 layer references ------------------------------------------------------------

export function checkLayerRefs(ctx: RuleContext): void {
  const doc = ctx.doc;
  const lookup = ctx.lookup;
  forEachLayerRef(doc, (node, statement) => {
    if (node.kind === 'name') {
      const defs = doc.definitions.get(node.text);
      if (defs) {
        if (defs[0].statement > statement && !(lookup && lookup.find(node.text))) {
          ctx.add(
            node.start,
            node.end,
            'info',
            'alls/use-before-definition',
            `\`${short(node.text)}\` is used before the statement that defines it (line ${ctx.line(defs[0].node.start)}); Hailo's allocator scripts define names before using them.`,
            {
              related: [{ start: defs[0].node.start, end: defs[0].node.end, message: 'defined here' }],
            },
          );
        }
        return;
      }
      if (!lookup || lookup.find(node.text)) return;
      const cands = ctx.nearNames(node.text, () => [...lookup.names, ...doc.definitions.keys()]);
      ctx.add(
        node.start,
        node.end,
        'warning',
        'alls/unknown-layer',
        `No layer \`${short(node.text)}\` in ${lookup.index.networkName || 'the model'} (${lookup.index.source}), and no statement defines it.${cands.length ? ` Did you mean \`${cands[0]}\`?` : ''}`,
        {
          fixes: ctx.renameFixes(node, cands, 'the layer'),
        },
      );
    } else if (lookup) {
      checkGlob(ctx, node, lookup);
    }
  });
}

function checkGlob(ctx: RuleContext, node: GlobNode, lookup: LayerLookup): void {
  if (node.pattern === '') return;
  const none = ctx.globMatchesNothing(node.pattern, () => {
    if (lookup.matchGlob(node.pattern).length > 0) return false;
    const re = globMatcher(node.pattern);
    for (const n of ctx.doc.definitions.keys()) if (re.test(n)) return false;
    return true;
  });
  if (!none) return;
  ctx.add(
    node.start,
    node.end,
    'warning',
    'alls/glob-no-match',
    `\`${short(node.text)}\` matches no layer of ${lookup.index.networkName || 'the model'} (${lookup.index.source}).`,
  );
}

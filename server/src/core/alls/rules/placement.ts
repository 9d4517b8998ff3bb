// place: cluster indices against the highest seen for the target architecture.
import type { ResolvedStatement } from '../analysis';
import { FAMILY_LABEL, type ArchFamily } from '../../common/arch';
import type { RuleContext } from './context';

/** Highest `place` cluster index seen per family (reference R10: observed maxima, GUESS as limits). */
const MAX_CLUSTER: Record<ArchFamily, number> = { hailo8: 7, hailo15: 4, hailo15l: 2 };

export function checkCluster(ctx: RuleContext, st: ResolvedStatement): void {
  const v = st.positionals[0]?.value;
  if (v?.kind !== 'number' || !ctx.family) return;
  const max = MAX_CLUSTER[ctx.family];
  if (v.value > max) {
    ctx.add(
      v.start,
      v.end,
      'warning',
      'alls/out-of-range',
      `Cluster index ${v.value} is above the highest seen in ${FAMILY_LABEL[ctx.family]} scripts (${max}); the target is ${ctx.settings.hwArch} (${ctx.archFrom}).`,
    );
  }
}

// Quantization and optimization: precision modes (known DFC faults, what concat-like layers can
// output), clipping ranges, optimization levels that train, the calibration set size.
import type { ResolvedStatement } from '../analysis';
import type { NameNode } from '../ast';
import { kwValue, numbers, type RuleContext } from './context';

function precisionBits(mode: string): { input: number; output: number } | undefined {
  const m = /^a(\d+)_w(\d+)(?:_a(\d+))?/.exec(mode);
  if (!m) return undefined;
  const input = Number(m[1]);
  return { input, output: m[3] ? Number(m[3]) : input };
}

export function checkClipping(ctx: RuleContext, st: ResolvedStatement, valuesKw: string, modeKw: string): void {
  const v = kwValue(st, valuesKw);
  const nums = numbers(v);
  if (!nums || nums.length !== 2) return;
  const mode = kwValue(st, modeKw);
  const [lo, hi] = nums;
  if (lo >= hi) ctx.add(v!.start, v!.end, 'error', 'alls/out-of-range', `\`${valuesKw}\` is [lo, hi] with lo < hi; found [${lo}, ${hi}].`);
  if (mode?.kind === 'name' && (mode.text === 'percentile' || mode.text === 'percentile_force') && (lo < 0 || hi > 100)) {
    ctx.add(v!.start, v!.end, 'error', 'alls/out-of-range', `With \`${modeKw}=${mode.text}\` the values are percentiles in [0, 100]; found [${lo}, ${hi}].`);
  }
}

export function checkPrecision(ctx: RuleContext, st: ResolvedStatement): void {
  const v = kwValue(st, 'precision_mode');
  if (v?.kind !== 'name') return;
  const mode = v.text;
  if (mode === 'a16_w4') {
    ctx.add(
      v.start,
      v.end,
      'warning',
      'alls/dfc-known-fault',
      "Known DFC 5.3.0 fault: optimize() with precision_mode=a16_w4 fails with `AttributeError: 'function' object has no attribute 'set_wraparound_loss'` (recorded in a hailo10h DFC 5.3.0 logbook; a DFC bug). Use a16_w16 or a8_w4 until it is fixed.",
    );
  } else if (mode === 'a16_w8' && ctx.settings.hwArch === 'hailo10h') {
    ctx.add(
      v.start,
      v.end,
      'warning',
      'alls/dfc-known-fault',
      "Known DFC 5.3.0 fault on hailo10h: `Unsupported value [PrecisionMode.a16_w8] for fields ['precision_mode']` (third-party report). Hailo's scripts use a16_w8 only for hailo15l. Use a16_w16 on hailo10h.",
    );
  } else if (mode === 'native') {
    ctx.add(
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
    const names: NameNode[] = target?.kind === 'name' ? [target] : target?.kind === 'list' ? (target.items.filter((x) => x.kind === 'name') as NameNode[]) : [];
    for (const n of names) {
      const type = layerType(ctx, n.text);
      if (type === 'concat' || type === 'shortcut' || type === 'feature_splitter') {
        ctx.add(
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
function layerType(ctx: RuleContext, name: string): string | undefined {
  const hit = ctx.lookup?.find(name);
  if (hit) return hit.type;
  const base = name.slice(name.lastIndexOf('/') + 1);
  const m = /^(concat|shortcut|feature_splitter)\d+$/.exec(base);
  return m ? m[1] : undefined;
}

/**
 * What an explicit optimization_level does without a GPU. The DFC lowers only its *default*
 * level (2) to 0 when it finds no GPU (the catalogue's `optimization-level-0`, core/common/dfcMessages.ts);
 * an explicit level runs as asked: level 1 (bias correction) on the CPU, slower but fine, levels
 * 2–4 train (fine-tuning, AdaRound) on the CPU — hours, and one record saw QAFT diverge there
 * (docs/alls-rules.md, R13). Level 1 gets no finding.
 */
export function checkOptimizationLevel(ctx: RuleContext, st: ResolvedStatement): void {
  const v = kwValue(st, 'optimization_level');
  if (v?.kind !== 'number' || !Number.isInteger(v.value) || v.value < 2 || v.value > 4) return;
  const algorithm = v.value === 2 ? 'Quantization-Aware Fine-Tuning' : 'AdaRound';
  const images = v.value === 3 ? 256 : 1024;
  ctx.add(
    v.start,
    v.end,
    'info',
    'alls/optimization-needs-gpu',
    `optimization_level ${v.value} trains (${algorithm}) during optimize. The DFC lowers only its default level to 0 without a GPU; a level written here runs as asked, so without a GPU it trains on the CPU — hours, and one record saw fine-tuning on the CPU diverge (with 645 images). Give the container a GPU, or use optimization_level=1 (bias correction, which runs on the CPU). The level trains on ${images} images of the calibration set: give optimize at least that many.`,
  );
}

/** model_optimization_config(calibration, calibset_size=…) above what statistics use. */
export function checkCalibration(ctx: RuleContext, st: ResolvedStatement): void {
  if (st.sub?.name !== 'calibration') return;
  const v = kwValue(st, 'calibset_size');
  if (v?.kind === 'number' && v.value > 64)
    ctx.add(
      v.start,
      v.end,
      'info',
      'alls/calibset-size',
      `calibset_size above 64 only affects statistics collection (Hailo's HACE inspector); fine-tuning uses its own \`dataset_size\`.`,
    );
}

// normalization: mean/std per channel, the 0–255 scale, and its place among the commands that
// insert a layer after the input.
import type { ResolvedStatement } from '../analysis';
import type { ListNode } from '../ast';
import { numbers, type RuleContext } from './context';

/** Model-modification commands that insert a layer right after the input (RidgeRun wiki). */
export const INPUT_INSERTERS = new Set(['input_conversion', 'resize', 'resize_input', 'yuv_to_rgb']);

export function checkNormalization(ctx: RuleContext, st: ResolvedStatement): void {
  const [meanArg, stdArg] = st.positionals;
  const mean = numbers(meanArg?.value);
  const std = numbers(stdArg?.value);
  if (!mean || !std) return;
  if (mean.length !== std.length) {
    ctx.add(
      meanArg.start,
      stdArg.end,
      'error',
      'alls/normalization-shape',
      `normalization has ${mean.length} mean values but ${std.length} std values: both are per channel.`,
    );
  }
  const stdList = stdArg.value as ListNode;
  stdList.items.forEach((x) => {
    if (x.kind === 'number' && x.value === 0) ctx.add(x.start, x.end, 'error', 'alls/out-of-range', 'std 0 divides by zero: `(x - mean) / std`.');
  });
  if (mean.length && [...mean, ...std].every((x) => Math.abs(x) < 1)) {
    ctx.add(
      meanArg.start,
      stdArg.end,
      'warning',
      'alls/normalization-scale',
      'All mean and std values are below 1: normalization works on the 0–255 input scale (Hailo\'s HACE inspector: "Mean or std values were less than 1. Expected values in range of [0, 255]"). Multiply by 255, e.g. ImageNet is [123.675, 116.28, 103.53], [58.395, 57.12, 57.375].',
    );
  }
}

export function checkOrder(ctx: RuleContext, norm: ResolvedStatement, inserter: ResolvedStatement): void {
  const name = norm.node.call!.name;
  const other = inserter.node.call!.name.text;
  ctx.add(
    name.start,
    name.end,
    'info',
    'alls/modification-order',
    `normalization comes after \`${other}\` (line ${ctx.line(inserter.node.start)}). Each model-modification command inserts its layer right after the input, so the later one ends up first: normalization will run on the input before ${other} (RidgeRun wiki). Hailo's scripts put normalization first.`,
    { related: [{ start: inserter.node.start, end: inserter.node.end, message: `${other} is written here` }] },
  );
}

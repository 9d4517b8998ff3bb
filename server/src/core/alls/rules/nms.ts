// nms_postprocess: the config path exists, meta_arch is named, a path and the config's values are
// not given together.
import type { ResolvedStatement } from '../analysis';
import { NMS_CONFIG_ARGUMENTS } from '../schema';
import { kwValue, type RuleContext } from './context';
import { short } from './messages';

export function checkNmsPath(ctx: RuleContext, st: ResolvedStatement): void {
  if (!ctx.options.fileExists) return;
  const pos = st.positionals[0]?.value;
  const kwv = kwValue(st, 'config_path');
  const v = pos?.kind === 'string' ? pos : kwv?.kind === 'string' ? kwv : undefined;
  if (!v || !v.terminated || v.value === '') return;
  const exists = ctx.options.fileExists(v.value);
  if (exists === false) {
    ctx.add(
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
export function checkNmsArguments(ctx: RuleContext, st: ResolvedStatement): void {
  const call = st.node.call!;
  if (st.node.broken) return;
  const meta = st.keywords.some((a) => a.keyword!.text === 'meta_arch') || st.positionals.some((a) => a.value.kind === 'name');
  if (!meta) {
    ctx.add(
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
    ctx.add(
      k.start,
      a.end,
      'error',
      'alls/nms-config-conflict',
      `\`${k.text}\` is one of the NMS config's values, and this call also names a config file: the DFC refuses the pair with "Both config path and config arguments were given" (a user's run). Hailo's model zoo writes such a value into the JSON when a path is given (core/main_utils.py) — do that, or drop the path and give the values as keywords.`,
    );
  }
}

// What a model script says about its calibration set: `calibset_size` (default 64), the
// `normalization` statements (the chip computes (x − mean) / std on what the set holds, so the set
// must be in the scale before it), the optimization level and fine-tuning policy (they want ≥ 1024
// entries). With offsets, so the editor can put a diagnostic or a hover on the statement. Pure.
import { analyze, type AllsDocument } from '../alls/analysis';
import { numbers } from '../alls/normalization';

export interface Spanned<T> {
  value: T;
  start: number;
  end: number;
}

export interface ScriptNormalization {
  mean: number[];
  std: number[];
  inputLayer?: string;
  /** Whole statement. */
  start: number;
  end: number;
  line: number;
}

export interface ScriptFacts {
  /** `model_optimization_config(calibration, calibset_size=N)`: the value's span. */
  calibsetSize?: Spanned<number>;
  /** The `model_optimization_config(calibration, …)` statement. */
  calibrationStatement?: { start: number; end: number };
  normalizations: ScriptNormalization[];
  /** `model_optimization_flavor(optimization_level=N)`. */
  optimizationLevel?: Spanned<number>;
  /** `post_quantization_optimization(finetune, policy=enabled)`. */
  finetuneEnabled?: { start: number; end: number };
}

/** The DFC's default when the script does not set calibset_size (Hailo's HACE inspector). */
export const DEFAULT_CALIBSET_SIZE = 64;
/** Below this, optimization levels ≥ 1 and fine-tuning want more (HACE inspector; rf-detr's compile_hef.py). */
export const FINETUNE_MIN_ENTRIES = 1024;

export function scriptFacts(doc: AllsDocument): ScriptFacts {
  const facts: ScriptFacts = { normalizations: [] };
  for (const st of doc.statements) {
    const name = st.spec?.name;
    const kw = (k: string) => {
      for (let i = st.keywords.length - 1; i >= 0; i--) if (st.keywords[i].keyword!.text === k) return st.keywords[i].value;
      return undefined;
    };
    if (name === 'model_optimization_config' && st.sub?.name === 'calibration') {
      facts.calibrationStatement = { start: st.node.start, end: st.node.end };
      const v = kw('calibset_size');
      if (v?.kind === 'number') facts.calibsetSize = { value: v.value, start: v.start, end: v.end };
    } else if (name === 'normalization' && !st.isMethod) {
      const [m, s, layer] = st.positionals;
      const mean = numbers(m?.value);
      const std = numbers(s?.value);
      if (!mean || !std || !mean.length || mean.length !== std.length || std.some((x) => x === 0)) continue;
      facts.normalizations.push({
        mean,
        std,
        inputLayer: layer?.value.kind === 'name' ? layer.value.text : undefined,
        start: st.node.start,
        end: st.node.end,
        line: doc.lines.positionAt(st.node.start).line + 1,
      });
    } else if (name === 'model_optimization_flavor') {
      const v = kw('optimization_level');
      if (v?.kind === 'number') facts.optimizationLevel = { value: v.value, start: v.start, end: v.end };
    } else if (name === 'post_quantization_optimization' && st.sub?.name === 'finetune') {
      const v = kw('policy');
      if (v?.kind === 'name' && v.text === 'enabled') facts.finetuneEnabled = { start: st.node.start, end: st.node.end };
    }
  }
  return facts;
}

export function scriptFactsOf(text: string): { doc: AllsDocument; facts: ScriptFacts } {
  const doc = analyze(text);
  return { doc, facts: scriptFacts(doc) };
}

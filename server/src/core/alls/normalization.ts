// The script's `normalization(mean, std[, input_layer])` statements, as numbers: what the chip does
// to an input before the first layer, so the float reference (client/src/device/reference.ts)
// can feed the ONNX model the same values. Reads the analysed tree; never guesses a value.
import { analyze } from './analysis';
import type { ValueNode } from './ast';

export interface Normalization {
  mean: number[];
  std: number[];
  /** The input layer it applies to, when written; undefined means the (first) input. */
  inputLayer?: string;
  /** The assignment target, e.g. `normalization1`. */
  name?: string;
  /** 1-based line of the statement. */
  line: number;
}

export interface NormalizationResult {
  normalizations: Normalization[];
  /** One sentence per statement that names normalization but could not be read as numbers. */
  problems: string[];
}

/** A closed list of finite numbers, or undefined. */
export function numbers(v: ValueNode | undefined): number[] | undefined {
  if (v?.kind !== 'list' || v.close < 0) return undefined;
  const out: number[] = [];
  for (const x of v.items) {
    if (x.kind !== 'number' || !Number.isFinite(x.value)) return undefined;
    out.push(x.value);
  }
  return out;
}

export function readNormalizations(text: string): NormalizationResult {
  const doc = analyze(text);
  const normalizations: Normalization[] = [];
  const problems: string[] = [];
  for (const st of doc.statements) {
    if (st.spec?.name !== 'normalization' || st.isMethod) continue;
    const line = doc.lines.positionAt(st.node.start).line + 1;
    const [meanArg, stdArg, layerArg] = st.positionals;
    const mean = numbers(meanArg?.value);
    const std = numbers(stdArg?.value);
    if (!mean || !std || mean.length === 0 || mean.length !== std.length || std.some((s) => s === 0)) {
      problems.push(`line ${line}: normalization is not two equally long lists of numbers with a non-zero std, so it cannot be applied.`);
      continue;
    }
    const target = st.node.targets[0];
    normalizations.push({
      mean,
      std,
      inputLayer: layerArg?.value.kind === 'name' ? layerArg.value.text : undefined,
      name: target?.kind === 'name' ? target.text : undefined,
      line,
    });
  }
  return { normalizations, problems };
}

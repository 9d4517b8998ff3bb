// Pre-flight rules for the transformer pitfalls people porting attention blocks to DFC 5.x report,
// each with the DFC release it was seen on and the rewrite that worked. The evidence is one public
// probe per pitfall (st5463978-boop/PetalWild, hailo_port/: DFC 5.4.0, hailo10h), so each is a
// warning, never an error, and an info when the DFC in use is known to be another release. What the
// evidence does NOT say is not said: attention (MatMul + Softmax) parses; a MatMul of two
// activations is an optimize-time matter, not a parse refusal; LayerNormalization translates.
import type { NodeInfo } from './model';
import type { Finding, OnnxAnalysis } from './types';

type Ctx = Omit<OnnxAnalysis, 'findings' | 'ms'>;

const PROBE = 'https://github.com/st5463978-boop/PetalWild/blob/main/hailo_port';

/** One known pitfall: where it was seen, and whether the DFC in use is that release. */
interface Pitfall {
  /** DFC releases the failure was reported on. */
  seenOn: string[];
}

const ROTATE_HALF: Pitfall = { seenOn: ['5.4.0'] };
const RANK3_MASK: Pitfall = { seenOn: ['5.4.0'] };
const MATMUL_ZP: Pitfall = { seenOn: ['5.4.0'] };

/** 'warning' unless the DFC in use is known and is not a release the failure was seen on. */
function severityFor(p: Pitfall, dfcVersion: string | undefined): { severity: 'warning' | 'info'; note: string } {
  if (!dfcVersion) return { severity: 'warning', note: `seen on DFC ${p.seenOn.join(', ')}; the DFC in use is not known here` };
  const mm = (v: string) => v.split('.').slice(0, 2).join('.');
  if (p.seenOn.some((s) => mm(s) === mm(dfcVersion)))
    return { severity: 'warning', note: `seen on DFC ${p.seenOn.join(', ')}, the release in use (${dfcVersion})` };
  return { severity: 'info', note: `seen on DFC ${p.seenOn.join(', ')}; not reported for ${dfcVersion}` };
}

const label = (n: NodeInfo) => n.name || `${n.opType}#${n.index}`;

export function transformerFindings(a: Ctx, dfcVersion?: string): Finding[] {
  const out: Finding[] = [];
  const initNames = new Set(a.model.graph.initializers.map((t) => t.name));
  const isConst = (t: string) => t === '' || initNames.has(t) || (a.shapes.producer.has(t) && a.foldable.has(a.shapes.producer.get(t)!));
  const producer = (t: string) => a.shapes.producer.get(t);
  const shape = (t: string) => a.shapes.facts.get(t)?.shape ?? null;
  const activationMatMuls: NodeInfo[] = [];
  for (const n of a.shapes.order) {
    if (n.opType === 'Concat') rotateHalf(n);
    else if (n.opType === 'Softmax') additiveMask(n);
    else if (n.opType === 'MatMul' && n.inputs.length === 2 && !isConst(n.inputs[0]) && !isConst(n.inputs[1])) activationMatMuls.push(n);
  }
  matmulCorrection();
  return out;

  /** Where a half of a tensor comes from: the data input of a Slice or of a Split. */
  function halfSource(t: string): string | undefined {
    const p = producer(t);
    return p && (p.opType === 'Slice' || p.opType === 'Split') ? p.inputs[0] : undefined;
  }

  // rotate_half(x) = cat(-x[..., d/2:], x[..., :d/2]): a Concat of Neg(half) and the other half of one tensor.
  function rotateHalf(n: NodeInfo): void {
    if (n.inputs.length !== 2) return;
    const neg = n.inputs.map(producer).findIndex((p) => p?.opType === 'Neg');
    if (neg < 0) return;
    const negated = halfSource(producer(n.inputs[neg])!.inputs[0]);
    const other = halfSource(n.inputs[1 - neg]);
    if (!negated || negated !== other) return;
    const { severity, note } = severityFor(ROTATE_HALF, dfcVersion);
    out.push({
      code: 'onnx/rotate-half',
      severity,
      node: label(n),
      nodeIndex: n.index,
      message: `RoPE rotate_half (Neg of one half, Concat with the other) of '${negated}': the DFC's fuser turns it into a negated feature shuffle and has crashed there (${note})`,
      evidence: `translate_onnx_model: fuser.py _handle_neg_feature_shuffle — IndexError: list assignment index out of range, on a full-attention block with RoPE; the same block without rotate_half parsed (DFC 5.4.0, hailo10h): ${PROBE}/compile_rope_probe.py`,
      fix: 'rewrite rotate_half without Neg: swap the halves (Concat(x2, x1), or a fixed permutation) and multiply by a constant sign vector [-1…-1, +1…+1] — the probe\'s "masked" variant that parsed; or apply RoPE on the host and feed Q/K after it',
      confidence: 'medium',
    });
  }

  // scores + mask → Softmax, the mask a constant of lower rank than the scores.
  function additiveMask(n: NodeInfo): void {
    const add = producer(n.inputs[0]);
    if (!add || add.opType !== 'Add') return;
    const c = add.inputs.findIndex((t) => isConst(t));
    if (c < 0 || isConst(add.inputs[1 - c])) return;
    const mask = shape(add.inputs[c]);
    const scores = shape(add.inputs[1 - c]);
    if (!mask || !scores || mask.length > 3) return;
    const { severity, note } = severityFor(RANK3_MASK, dfcVersion);
    out.push({
      code: 'onnx/softmax-additive-mask',
      severity,
      node: label(add),
      nodeIndex: add.index,
      message: `a constant rank-${mask.length} additive mask '${add.inputs[c]}' goes into Softmax '${label(n)}': the DFC fuses it into the softmax, keeps it as [S, S] and its post-fuser has crashed broadcasting it onto the [-1, 1, S, S] scores (${note}); parsing succeeds, the crash comes before optimize finishes`,
      evidence: `post-fuser is_spatial_broadcast crash on a causal mask fused into softmax (DFC 5.4.0, hailo10h): ${PROBE}/compile_attn_core.py — a [1, 1, S, S] mask in the ONNX did not parse there either (matmul shape inference IndexError)`,
      fix: "what compiled: after translate_onnx_model, give the parsed mask a leading 1 — params = runner.get_params(); params[k] = params[k].reshape(1, *params[k].shape) for the key ending in 'additive_mask:0'; runner.load_params(params) — so the constant becomes [-1, 1, S, S]",
      confidence: 'low',
    });
  }

  // Q·Kᵀ and P·V: the default matmul zero-point correction walks back for a weight and raises at the input.
  function matmulCorrection(): void {
    const weighted = (n: NodeInfo) => ['Conv', 'ConvTranspose', 'Gemm'].includes(n.opType) || (n.opType === 'MatMul' && n.inputs.some((t) => isConst(t)));
    // Whether a tensor reaches a graph input through non-constant inputs without a weighted layer
    // between: once per tensor, in topological order (a recursive walk per MatMul was quadratic and
    // overflowed the stack on a long chain, issue 29). Tensors of nodes in cycles count as not reaching.
    const reaches = new Map<string, boolean>();
    const reachesInputUnweighted = (t: string): boolean => {
      const known = reaches.get(t);
      if (known !== undefined) return known;
      return !producer(t) && !initNames.has(t); // a graph input (or a tensor nothing writes)
    };
    for (const p of a.shapes.order) {
      const r = !weighted(p) && p.inputs.some((i) => i !== '' && !isConst(i) && reachesInputUnweighted(i));
      for (const o of p.outputs) if (o && producer(o) === p) reaches.set(o, r);
    }
    const exposed = activationMatMuls.filter((n) => n.inputs.some((t) => reachesInputUnweighted(t)));
    if (!exposed.length) return;
    // The DFC names the activation×activation MatMuls matmul1, matmul2, … in graph order (weighted ones become conv).
    const position = new Map(activationMatMuls.map((n, i) => [n, i + 1]));
    // Every finding repeats the list: at most LISTED names, so a file of 10⁵ such MatMuls does not make 10¹⁰ characters.
    const LISTED = 256;
    const layerList =
      exposed
        .slice(0, LISTED)
        .map((n) => `matmul${position.get(n)}`)
        .join(', ') + (exposed.length > LISTED ? `, … (${exposed.length - LISTED} more; \`hailo-tools onnx --json\` lists every finding)` : '');
    const { severity, note } = severityFor(MATMUL_ZP, dfcVersion);
    for (const n of exposed) {
      out.push({
        code: 'onnx/matmul-two-activations',
        severity,
        node: label(n),
        nodeIndex: n.index,
        message: `MatMul of two activations with no weighted layer between it and the graph input: it parses (the DFC parses attention), but optimize's default matmul zero-point correction (zp_comp_block) walks back for a weight and has raised 'No predecessor with weight for layer …' (${note})`,
        evidence: `optimize on an attention core whose Q, K, V are graph inputs (DFC 5.4.0, hailo10h): ${PROBE}/compile_attn_core.py`,
        fix: `in the .alls: pre_quantization_optimization(matmul_correction, layers=[${layerList}], correction_type=zp_comp_none) — layer names assumed from graph order; check them in the parsed HAR (hailo-tools har)`,
        confidence: 'low',
      });
    }
  }
}

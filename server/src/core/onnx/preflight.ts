// DFC pre-flight: what the Dataflow Compiler's ONNX parser is known to refuse, found statically.
// Every finding carries the evidence it rests on and a confidence. What the evidence cleared is
// never flagged: fused LayerNormalization, the opset level, attention (MatMul+Softmax) as such,
// a missing batch dimension on its own, rank 5 on its own (zoo ViTs parse with it).
import { quoteDfc } from '../common/dfcMessages';
import { opKnowledge, REJECTED } from './dfcFacts';
import { transformerFindings } from './transformerRules';
import { quantizedModelFinding, quantizedOpFinding, quantSummary } from './quantized';
import type { Confidence, Finding, OnnxAnalysis, PreflightOptions } from './types';
import type { ShapeResult } from './inferShapes';
import { isAiOnnx, isIntegerType, type Dim, type NodeInfo, type Shape } from './model';
import { pushAll } from '../common/arrays';

export type { Confidence, Finding, PreflightOptions };

/** Default for "large": a guess (the only data point is a 151 k-vocabulary lm_head); see the finding's text. */
export const LARGE_MODEL_BYTES = 512 * 1024 * 1024;

type Ctx = Omit<OnnxAnalysis, 'findings' | 'ms'>;

const label = (n: NodeInfo) => n.name || `${n.opType}#${n.index}`;

export function preflight(a: Ctx, options: PreflightOptions = {}): Finding[] {
  const out: Finding[] = [];
  const shape = (t: string): Shape => (t ? (a.shapes.facts.get(t)?.shape ?? null) : null);
  const initNames = new Set(a.model.graph.initializers.map((t) => t.name));
  const isConst = (t: string) => t === '' || initNames.has(t) || foldedOutput(a, t);
  const fixShapesHint = simplifyCommand(a);
  // The DFC retries a failed parse on an onnxsim-simplified model, which folds constant plumbing —
  // unless the model is large enough for it to skip that (onnx/large-model).
  const retryFolds = a.initializerBytes < (options.largeModelBytes ?? LARGE_MODEL_BYTES);
  const retriedConcats: string[] = [];

  // ---- graph inputs ----
  for (const v of a.inputs) {
    const s = v.type.kind === 'tensor' ? v.type.shape : null;
    if (s && s.length < 2) {
      out.push({
        code: 'onnx/rank1-input',
        severity: 'error',
        node: v.name,
        tensor: v.name,
        message: `input '${v.name}' has rank ${s.length}; the DFC needs inputs of rank ≥ 2`,
        evidence: "TypeError: object of type 'NoneType' has no len() in get_input_layer_shapes for a rank-1 input (onnx-notes §3)",
        fix: 'give the input a batch and feature axis, e.g. [1, N]',
        confidence: 'high',
      });
    }
    const dyn = s === null ? null : s.filter((d) => typeof d !== 'number' || d <= 0);
    if (s === null || (dyn && dyn.length)) {
      out.push({
        code: 'onnx/dynamic-input',
        severity: 'warning',
        node: v.name,
        tensor: v.name,
        message:
          s === null
            ? `input '${v.name}' has no declared shape`
            : `input '${v.name}' has unspecified dims ${fmt(s)}: the DFC needs every input at a fixed shape`,
        evidence: "ValueError: Unspecified inputs: {'attention_mask'} — every input must be declared with a static shape (onnx-notes §3)",
        fix: `pass fixed shapes: translate_onnx_model(..., net_input_shapes={'${v.name}': [...]}) or hailo parser onnx --tensor-shapes ${v.name}:…; or re-export at a fixed shape`,
        confidence: 'high',
      });
    }
  }

  // ---- per node ----
  const g = a.model.graph;
  const quant = quantizedModelFinding(quantSummary(g.nodes));
  if (quant) out.push(quant);
  for (const n of g.nodes) {
    const base = { node: label(n), nodeIndex: n.index };
    const q = quantizedOpFinding(n, label(n));
    if (q) {
      out.push(q); // instead of custom-domain / not-listed: the quantizer, not an optimiser, wrote it
      continue;
    }
    if (!isAiOnnx(n.domain)) {
      out.push({
        ...base,
        code: 'onnx/custom-domain',
        severity: 'warning',
        message: `${n.domain}.${n.opType} is outside the standard ai.onnx domain`,
        evidence: 'custom-domain ops (e.g. com.microsoft, from onnxruntime-optimised files) are not in the DFC tables (dfc-flow.md §4.1)',
        fix: 'export the model without onnxruntime graph optimisations so only ai.onnx operators remain',
        confidence: 'medium',
      });
      continue;
    }
    if (n.subgraphs.length) {
      out.push({
        ...base,
        code: 'onnx/control-flow',
        severity: 'error',
        message: `${n.opType} holds ${n.subgraphs.length} subgraph(s); the DFC parses straight-line graphs`,
        evidence: 'If/Loop/Scan are not in the DFC tables (dfc-flow.md §4.1); onnx-notes §2 (flag them as unsupported)',
        fix: 'unroll the loop / resolve the branch at export (fixed shapes), or cut the graph before this node',
        confidence: 'medium',
      });
      continue;
    }
    const folded = a.foldable.has(n);
    const rej = REJECTED[n.opType];
    if (rej && !folded && rej.confidence !== 'low') {
      out.push({
        ...base,
        code: 'onnx/unsupported-op',
        severity: 'error',
        message: `${n.opType} is rejected by the DFC parser (${rej.error})`,
        evidence: rej.evidence,
        fix: `cut the graph before it (end_node_names=[<the node(s) feeding ${label(n)}>]) and run the rest on the host; the parser's ParsingWithRecommendationException suggests the cut`,
        confidence: rej.confidence,
      });
      continue;
    }
    switch (n.opType) {
      case 'Concat':
        checkConcat(a, n, base, shape, folded, fixShapesHint, out, retryFolds ? retriedConcats : undefined);
        break;
      case 'Tile':
        checkTile(a, n, base, out);
        break;
      case 'Expand':
      case 'Where':
      case 'Squeeze':
      case 'ConstantOfShape':
        if (!folded) {
          const k = opKnowledge(n.opType);
          const low = n.opType === 'Squeeze';
          out.push({
            ...base,
            code: 'onnx/unexpected-node',
            severity: low ? 'info' : 'warning',
            message: `${n.opType} on a run-time tensor: ${k.summary}`,
            evidence: k.evidence,
            fix:
              n.opType === 'Expand'
                ? 'replace the broadcast by an explicit op the DFC maps (e.g. concat/repeat folded at a fixed shape), or cut before it'
                : 'fold it at a fixed input shape (onnxsim) or rewrite the block without it',
            confidence: low ? 'low' : n.opType === 'Expand' ? 'high' : 'medium',
          });
        }
        break;
      case 'Gather':
        if (!folded) checkGather(a, n, base, isConst, out);
        break;
      case 'ReduceMax':
        checkReduceMax(a, n, base, shape, out);
        break;
      case 'Erf':
        if (!isGeluErf(a, n)) {
          out.push({
            ...base,
            code: 'onnx/standalone-erf',
            severity: 'warning',
            message: 'Erf outside the Mul+Erf GELU pattern',
            evidence:
              'UnsupportedActivationLayerError … Gelu/Erf: Unexpected activation (Keras export, DFC 3.31); the table lists Erf only inside GELU; torch-style Erf-GELU in zoo ViTs parses',
            fix: 'export GELU in the x*0.5*(1+erf(x/√2)) form, or use the tanh approximation',
            confidence: 'medium',
          });
        }
        break;
      case 'Reshape':
      case 'Transpose':
        if (!folded) checkShuffle(a, n, base, shape, out);
        break;
      case 'LSTM': {
        const acts = n.attributes.find((x) => x.name === 'activations')?.strings;
        if (acts && acts.some((s, i) => s !== ['Sigmoid', 'Tanh', 'Tanh'][i % 3])) {
          out.push({
            ...base,
            code: 'onnx/lstm-activations',
            severity: 'warning',
            message: `LSTM with activations [${acts.join(', ')}]`,
            evidence: 'UnsupportedLSTMLayerError: activation types [...] are not supported (onnx-notes §3)',
            fix: 'use the default Sigmoid/Tanh/Tanh activations',
            confidence: 'medium',
          });
        }
        break;
      }
      default:
        break;
    }
  }

  // ---- model level ----
  const plumbing = a.foldable.size;
  if (plumbing > 0) {
    const folding = [...a.foldable].filter((n) => n.opType !== 'Constant').length;
    if (folding > 0) {
      const concats = retriedConcats.length
        ? ` They include ${retriedConcats.length} rank-1 shape Concat${retriedConcats.length > 1 ? 's' : ''} (${retriedConcats.slice(0, 3).join(', ')}${retriedConcats.length > 3 ? ', …' : ''}): the DFC's first parse attempt may stop at them (IndexError in get_concat_info), and its own onnxsim retry folds them — nothing to change, or simplify first to skip the retry.`
        : '';
      out.push({
        code: 'onnx/foldable-plumbing',
        severity: 'info',
        node: null,
        message: `${folding} of ${g.nodes.length} nodes (plus ${plumbing - folding} Constant) are constant at fixed input shapes; a simplifier removes them (≈ ${g.nodes.length - plumbing} nodes after).${concats}`,
        evidence: `onnxsim at a fixed shape took the Qwen3-VL tower from 3192 to 1250 nodes (dfc-flow.md §4.1)${
          retriedConcats.length
            ? "; the DFC retries a failed parse on its own onnxsim-simplified model ('Simplified ONNX model for a parsing retry attempt'), and on the tower the get_concat_info error of the first attempt was gone after it (dfc-flow.md §3.5)"
            : ''
        }`,
        fix: fixShapesHint,
        confidence: 'high',
      });
    }
  }
  const large = options.largeModelBytes ?? LARGE_MODEL_BYTES;
  if (a.initializerBytes >= large) {
    const needsSimplify = [...a.foldable].some((n) => n.opType === 'Concat');
    out.push({
      code: 'onnx/large-model',
      severity: needsSimplify ? 'warning' : 'info',
      node: null,
      message: `${(a.initializerBytes / 2 ** 20).toFixed(0)} MiB of weights: the DFC may skip its own onnxsim retry on a model this large${
        needsSimplify ? ', and this graph has shape plumbing only that retry would fold' : ''
      }`,
      evidence:
        'NetworkXUnfeasible: Graph contains a cycle after the DFC disabled its internal simplification on a large model (a 151 k-vocabulary lm_head was enough); the size threshold is a guess (onnx-notes §3)',
      fix: 'python -m onnxsim in.onnx out.onnx --no-large-tensor (with --overwrite-input-shape), then parse out.onnx',
      confidence: 'low',
    });
  }
  linearForms(a, initNames, out);
  pushAll(out, transformerFindings(a, options.dfcVersion));
  endNodes(a, out);
  if (a.unresolved > 0) {
    out.push({
      code: 'onnx/unresolved-shapes',
      severity: 'info',
      node: null,
      message: `${a.unresolved} tensor(s) keep unknown dims after inference${a.unknownRank ? ` (${a.unknownRank} of unknown rank)` : ''}; checks that need their shapes skip them`,
      evidence: 'symbolic input dims, data-dependent ops or ops outside the inference rules',
      fix: 'fix the input shapes (net_input_shapes) to resolve symbolic dims',
      confidence: 'high',
    });
  }
  for (const p of a.model.problems) {
    const n = p.tensors?.length ?? 0;
    out.push({
      code: p.code,
      severity: 'warning',
      node: null,
      message: `${p.message}${n ? ` (${n} tensor${n > 1 ? 's' : ''}: ${p.tensors!.slice(0, 3).join(', ')}${n > 3 ? ', …' : ''})` : ''}`,
      evidence: p.evidence ?? "the model's external_data entries (location, offset, length)",
      fix:
        p.code === 'onnx/invalid-dim'
          ? 're-export the model; fix the dim in the exporter or with onnx.shape_inference'
          : 'keep the external data file beside the model, under the name the model records',
      confidence: 'high',
    });
  }
  return out;
}

function checkConcat(
  a: Ctx,
  n: NodeInfo,
  base: { node: string; nodeIndex: number },
  shape: (t: string) => Shape,
  folded: boolean,
  hint: string,
  out: Finding[],
  /** Set when the DFC's own onnxsim retry will fold constant plumbing (a model it does not skip as too large). */
  retried?: string[],
): void {
  const s = shape(n.outputs[0]);
  const fact = a.shapes.facts.get(n.outputs[0]);
  if (s && s.length === 1) {
    const fromShape = hasShapeAncestor(a, n);
    if (!fromShape && !isIntegerType(fact?.dtype ?? 0)) return;
    const value = fact?.value;
    const constantNow = !!value && value.every((d) => typeof d === 'number');
    if (folded && retried && constantNow) {
      // Constant at the model's own input shapes (torch's `x.view(x.size(0), -1, k)` heads): the DFC's
      // retry on its onnxsim-simplified model folds it — counted in the model-level note, not warned per
      // node. With a symbolic input the value is not constant until net_input_shapes fixes it: warned.
      retried.push(label(n));
      return;
    }
    const feeds = (a.shapes.consumers.get(n.outputs[0]) ?? []).map((c) => c.opType);
    out.push({
      ...base,
      code: 'onnx/shape-plumbing-concat',
      severity: 'warning',
      message: `rank-1 shape computation ${fromShape ? '(Shape→…→Concat) ' : ''}${feeds.length ? `feeding ${[...new Set(feeds)].join('/')}` : ''}: the DFC's first parse attempt fails on it`,
      evidence:
        'IndexError in get_concat_info on the raw Qwen3-VL tower (3192 nodes, DFC 5.3.0): Concat vertices of Shape/Concat/Unsqueeze chains feeding Reshape (dfc-flow.md §3.5)',
      fix: folded && constantNow ? hint : `fix the input shapes first (this chain depends on a run-time value), then ${hint}`,
      // High only where the retry cannot fold it although it is constant (a model large enough to skip the retry).
      confidence: folded && constantNow ? 'high' : 'medium',
    });
    return;
  }
  if (s && s.length >= 2) {
    const axis = n.attributes.find((x) => x.name === 'axis')?.i ?? 0;
    if (axis === 0 || axis === -s.length) {
      out.push({
        ...base,
        code: 'onnx/batch-axis-concat',
        severity: 'warning',
        message: `Concat over axis 0 of a rank-${s.length} tensor ${fmt(s)}: the DFC treats axis 0 as the batch axis`,
        evidence: 'UnsupportedConcatLayerError … Unsupported concat over axis batch (rf-detr windowing, DFC 5.3.0; dfc-flow.md §3.5)',
        fix: 'concatenate along a feature/sequence axis of a batched tensor, or fold the concat at a fixed shape',
        confidence: 'medium',
      });
    }
  }
}

function checkTile(a: Ctx, n: NodeInfo, base: { node: string; nodeIndex: number }, out: Finding[]): void {
  const reps = a.shapes.facts.get(n.inputs[1])?.value;
  const batch: Dim | undefined = reps?.[0];
  if (batch === 1 && reps!.every((r) => r === 1)) return; // a no-op Tile
  const overBatch = batch !== 1;
  out.push({
    ...base,
    code: 'onnx/batch-axis-tile',
    severity: overBatch ? 'error' : 'info',
    message: overBatch
      ? `Tile repeats the batch axis (repeats ${reps ? fmt(reps) : 'unknown'}): the DFC lowers it to a concat over the batch axis`
      : `Tile (repeats ${fmt(reps!)}) becomes a concat in the DFC; only the batch-axis case is known to fail`,
    evidence:
      'UnsupportedConcatLayerError … Unsupported concat over axis batch from a CLS-per-window Tile in rf-detr (DFC 5.3.0); onnxsim did not remove the Tile',
    fix: 'fold the Tile at the fixed shape (e.g. num_windows=1 in rf-detr) or restructure so no batch-axis repeat remains',
    confidence: overBatch ? 'high' : 'low',
  });
}

function checkGather(a: Ctx, n: NodeInfo, base: { node: string; nodeIndex: number }, isConst: (t: string) => boolean, out: Finding[]): void {
  const dataConst = isConst(n.inputs[0]);
  const idxConst = isConst(n.inputs[1]);
  if (idxConst) return; // constant index into an activation (qkv unbind, CLS pick): no evidence against it
  out.push({
    ...base,
    code: 'onnx/dynamic-gather',
    severity: 'warning',
    message: dataConst ? `Gather from a constant table with run-time indices (an embedding lookup)` : 'Gather with run-time (data-dependent) indices',
    evidence: "UnsupportedGatherLayerError … Can't find index — BERT word_embeddings Gather; YOLO26 head (onnx-notes §3)",
    fix: dataConst ? 'do the embedding lookup on the host and feed embeddings as the model input' : 'cut the graph before it and run the indexing on the host',
    confidence: dataConst ? 'high' : 'medium',
  });
}

function checkReduceMax(a: Ctx, n: NodeInfo, base: { node: string; nodeIndex: number }, shape: (t: string) => Shape, out: Finding[]): void {
  const s = shape(n.inputs[0]);
  const keep = (n.attributes.find((x) => x.name === 'keepdims')?.i ?? 1) === 1;
  const axes = n.attributes.find((x) => x.name === 'axes')?.ints ?? a.shapes.facts.get(n.inputs[1] ?? '')?.value;
  const rank = s?.length;
  const features = rank === undefined ? undefined : rank === 4 ? 1 : rank - 1;
  const onFeatures =
    axes !== undefined && rank !== undefined && axes.length === 1 && typeof axes[0] === 'number' && (axes[0] < 0 ? axes[0] + rank : axes[0]) === features;
  if (keep && onFeatures) return;
  out.push({
    ...base,
    code: 'onnx/reduce-max-axis',
    severity: 'warning',
    message: `ReduceMax ${!keep ? 'with keepdims=0' : ''}${!keep && !onFeatures ? ' and ' : ''}${!onFeatures ? `over axes ${axes ? fmt(axes) : 'all'} (features axis is ${features ?? '?'})` : ''}`,
    evidence: 'UnsupportedReduceMaxLayerError … only supported on the features axis, and with keepdim=True (onnx-notes §3)',
    fix: 'reduce over the channel axis with keepdims=1, or move the reduction to the host',
    confidence: 'high',
  });
}

function checkShuffle(a: Ctx, n: NodeInfo, base: { node: string; nodeIndex: number }, shape: (t: string) => Shape, out: Finding[]): void {
  const s = shape(n.outputs[0]);
  if (s && s.length >= 6) {
    out.push({
      ...base,
      code: 'onnx/high-rank-shuffle',
      severity: 'warning',
      message: `${n.opType} produces a rank-${s.length} tensor ${fmt(s)}`,
      evidence:
        'UnsupportedShuffleLayerError … Failed to determine type of layer to create for 5-D transposes from Tensor.unfold; the Qwen3-VL patchify prologue has rank 8/9 tensors. Rank 5 alone parses (zoo deit_base has 48 rank-5 tensors)',
      fix: 'patchify with a strided Conv (kernel = stride = patch) instead of reshape/transpose chains',
      confidence: 'medium',
    });
  }
  if (n.opType !== 'Reshape') return;
  const inS = shape(n.inputs[0]);
  // head split with an op between Reshape and Transpose (QK-Norm)
  const consumers = a.shapes.consumers.get(n.outputs[0]) ?? [];
  if (inS && s && s.length > inS.length && consumers.length === 1) {
    const mid = consumers[0];
    if (!['Transpose', 'Reshape'].includes(mid.opType) && (a.shapes.consumers.get(mid.outputs[0]) ?? []).some((c) => c.opType === 'Transpose')) {
      out.push({
        ...base,
        code: 'onnx/reshape-op-transpose',
        severity: 'warning',
        message: `Reshape ${fmt(inS)}→${fmt(s)} then ${mid.opType} before the Transpose: the parser recognises Reshape→Transpose head splits only when adjacent`,
        evidence: 'UnsupportedShuffleLayerError on an attention head split with QK-Norm between Reshape and Transpose (onnx-notes §3)',
        fix: `move ${mid.opType} after the Transpose (or before the Reshape) so the two are adjacent`,
        confidence: 'medium',
      });
    }
  }
  // a sequence re-wrapped as a spatial map
  if (inS && s && (inS.length === 3 || inS.length === 2) && s.length === 4) {
    const [L, D] = inS.length === 3 ? [inS[1], inS[2]] : [inS[0], inS[1]];
    const nhwc = typeof L === 'number' && s[3] === D && typeof s[1] === 'number' && typeof s[2] === 'number' && s[1] * s[2] === L && s[1] > 1 && s[2] > 1;
    const nchw = typeof L === 'number' && s[1] === D && typeof s[2] === 'number' && typeof s[3] === 'number' && s[2] * s[3] === L && s[2] > 1 && s[3] > 1;
    if (nhwc || nchw) {
      out.push({
        ...base,
        code: 'onnx/sequence-to-spatial',
        severity: 'warning',
        message: `Reshape turns a sequence ${fmt(inS)} into a spatial map ${fmt(s)} (${nhwc ? 'NHWC' : 'NCHW'})`,
        evidence:
          'ValueError: channels is not in list (onnx_graph.py:444 update_reshape_output_format) in rf-detr: an NLD sequence re-wrapped as spatial (dfc-flow.md §3.5)',
        fix: 'end the parsed graph at the sequence tensor and reshape on the host, or keep the block in 4-D throughout',
        confidence: 'low',
      });
    }
  }
}

function linearForms(a: Ctx, initNames: Set<string>, out: Finding[]): void {
  const nodes = a.model.graph.nodes;
  const gemms = nodes.filter((n) => n.opType === 'Gemm');
  const weightMatMuls = nodes.filter((n) => n.opType === 'MatMul' && initNames.has(n.inputs[1]));
  if (!gemms.length && !weightMatMuls.length) return;
  const ranks = new Set(weightMatMuls.map((n) => a.shapes.facts.get(n.inputs[0])?.shape?.length ?? '?'));
  out.push({
    code: 'onnx/linear-form',
    severity: 'info',
    node: (gemms[0] ?? weightMatMuls[0]).name || null,
    nodeIndex: (gemms[0] ?? weightMatMuls[0]).index,
    message: `linears: ${gemms.length} as Gemm (rank-2 inputs), ${weightMatMuls.length} as MatMul with weights (input rank ${[...ranks].join('/') || '-'}); torch chooses by rank, not opset, and both translate`,
    evidence: 'one nn.Linear at opsets 16 and 17: rank 2 → Gemm, rank 3/4 → MatMul+Add; batched and unbatched blocks both translate (dfc-flow.md §4.1)',
    fix: 'nothing to fix; for information',
    confidence: 'high',
  });
}

function endNodes(a: Ctx, out: Finding[]): void {
  for (const o of a.model.graph.outputs) {
    const p = a.shapes.producer.get(o.name);
    if (!p) continue;
    if (!p.name) {
      out.push({
        code: 'onnx/unnamed-end-node',
        severity: 'warning',
        node: label(p),
        nodeIndex: p.index,
        tensor: o.name,
        message: `output '${o.name}' comes from a node without a name; end_node_names cannot address it`,
        evidence: `start/end_node_names take NodeProto names; MisspellNodeError: ${quoteDfc('misspelled-node', { nodes: '…' })} otherwise (dfc-flow.md §3.5)`,
        fix: 're-export with named nodes (torch.onnx names them by default) or name the node with onnx tools',
        confidence: 'medium',
      });
    } else if (p.name !== o.name) {
      out.push({
        code: 'onnx/end-node-name',
        severity: 'info',
        node: p.name,
        nodeIndex: p.index,
        tensor: o.name,
        message: `output tensor '${o.name}' is produced by node '${p.name}': end_node_names takes the node name '${p.name}'`,
        evidence: `MisspellNodeError: ${quoteDfc('misspelled-node', { nodes: "'…_output_0'" })} when tensor names are passed (dfc-flow.md §3.5)`,
        fix: `end_node_names=['${p.name}']`,
        confidence: 'high',
      });
    }
  }
}

/** Checks user-supplied end node names against the file (MisspellNodeError before docker). */
export function checkEndNodeNames(a: Pick<OnnxAnalysis, 'model' | 'shapes'>, names: string[]): Finding[] {
  const byName = new Set(a.model.graph.nodes.map((n) => n.name));
  const out: Finding[] = [];
  for (const name of names) {
    if (byName.has(name)) continue;
    const p = a.shapes.producer.get(name);
    out.push({
      code: 'onnx/end-node-misspelled',
      severity: 'error',
      node: name,
      message: p ? `'${name}' is a tensor name; the node producing it is '${p.name || label(p)}'` : `no node named '${name}'`,
      evidence: `MisspellNodeError: ${quoteDfc('misspelled-node', { nodes: '…' })} — start/end_node_names take NodeProto names (dfc-flow.md §3.5)`,
      fix: p && p.name ? `use '${p.name}'` : 'pick a node name from the graph view',
      confidence: 'high',
    });
  }
  return out;
}

/** How many producer hops up a Shape/Size is found (13: the DFC-facing chains real exporters write are shorter). */
const SHAPE_ANCESTOR_HOPS = 13;
const shapeHops = new WeakMap<ShapeResult, Map<NodeInfo, number>>();

/**
 * Whether a Shape or Size lies at most SHAPE_ANCESTOR_HOPS producers up from `n`. The hops of every
 * node are computed once, in topological order (a search per Concat with a fresh visited set was
 * quadratic on a file whose Concats share one wide ancestor, issue 29).
 */
function hasShapeAncestor(a: Ctx, n: NodeInfo): boolean {
  let hops = shapeHops.get(a.shapes);
  if (!hops) {
    hops = new Map<NodeInfo, number>();
    for (const m of a.shapes.order) {
      let best = Infinity;
      for (const i of m.inputs) {
        const p = i ? a.shapes.producer.get(i) : undefined;
        if (!p) continue;
        best = Math.min(best, p.opType === 'Shape' || p.opType === 'Size' ? 1 : (hops.get(p) ?? Infinity) + 1);
      }
      hops.set(m, best);
    }
    shapeHops.set(a.shapes, hops);
  }
  return (hops.get(n) ?? Infinity) <= SHAPE_ANCESTOR_HOPS;
}

function foldedOutput(a: Ctx, t: string): boolean {
  const p = a.shapes.producer.get(t);
  return !!p && a.foldable.has(p);
}

/** Erf inside x*0.5*(1+erf(x/√2)): Erf → Add → Mul within two hops. */
function isGeluErf(a: Ctx, n: NodeInfo): boolean {
  for (const c of a.shapes.consumers.get(n.outputs[0]) ?? []) {
    if (c.opType === 'Mul') return true;
    if (c.opType === 'Add' && (a.shapes.consumers.get(c.outputs[0]) ?? []).some((m) => m.opType === 'Mul')) return true;
  }
  return false;
}

function simplifyCommand(a: Ctx): string {
  const shapes = a.inputs
    .map((v) => {
      const s = v.type.kind === 'tensor' ? v.type.shape : null;
      return `${v.name}:${s ? s.map((d) => (typeof d === 'number' && d > 0 ? d : `<${d ?? '?'}>`)).join(',') : '…'}`;
    })
    .join(' ');
  return `simplify at a fixed input shape first: python -m onnxsim in.onnx out.onnx --overwrite-input-shape ${shapes}`;
}

function fmt(v: readonly Dim[]): string {
  return `[${v.map((d) => (d === null ? '?' : String(d))).join(',')}]`;
}

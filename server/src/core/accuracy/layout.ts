// Moving tensors between a HEF vstream and the ONNX model it was compiled from. HailoRT hands
// frames over in the host order of the vstream (NHWC for images, [height, width, features]); the
// DFC read rank-4 ONNX tensors as NCHW (docs/research/dfc-flow.md#calibration: ONNX [1,3,H,W] → calib (N,H,W,3),
// [1,C,1,S] → (N,1,S,C), [1,S,C] → (N,1,S,C)). Pure; checked against numpy.transpose.

/** Transposes a dense row-major tensor: out has dims `perm.map(i => dims[i])`. */
export function transpose(data: ArrayLike<number>, dims: readonly number[], perm: readonly number[]): Float32Array {
  const rank = dims.length;
  if (perm.length !== rank || [...perm].sort((a, b) => a - b).some((p, i) => p !== i))
    throw new Error(`perm [${perm.join(',')}] is not a permutation of ${rank} axes`);
  const total = dims.reduce((a, b) => a * b, 1);
  if (data.length !== total) throw new Error(`${data.length} values do not fill dims [${dims.join(',')}]`);
  const out = new Float32Array(total);
  const outDims = perm.map((p) => dims[p]);
  // Source stride of each output axis.
  const srcStride = new Array<number>(rank);
  let s = 1;
  const strides = new Array<number>(rank);
  for (let i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
  for (let i = 0; i < rank; i++) srcStride[i] = strides[perm[i]];
  const idx = new Array<number>(rank).fill(0);
  let src = 0;
  for (let o = 0; o < total; o++) {
    out[o] = data[src];
    // Odometer over output axes, moving `src` by the matching source stride.
    for (let a = rank - 1; a >= 0; a--) {
      idx[a]++;
      src += srcStride[a];
      if (idx[a] < outDims[a]) break;
      src -= srcStride[a] * outDims[a];
      idx[a] = 0;
    }
  }
  return out;
}

export const NHWC_TO_NCHW = [0, 3, 1, 2] as const;
export const NCHW_TO_NHWC = [0, 2, 3, 1] as const;

/** A vstream's host shape, as HailoRT reports it (`hailo_3d_image_shape_t`). */
export interface HefShape {
  height: number;
  width: number;
  features: number;
}

/** How a vstream frame maps onto an ONNX tensor of batch 1. */
export type LayoutPlan =
  | { kind: 'nhwc-nchw'; hefDims: [1, number, number, number]; onnxDims: number[]; description: string }
  | { kind: 'same-order'; onnxDims: number[]; description: string }
  | { kind: 'error'; message: string };

const shapeText = (s: HefShape) => `${s.height}x${s.width}x${s.features}`;
const dimsText = (d: readonly (number | string | null)[]) => `[${d.map((x) => x ?? '?').join(',')}]`;

/**
 * Decides how a HEF vstream of shape (h, w, f) lines up with an ONNX tensor. A symbolic or
 * unknown leading dim is taken as batch 1. Rank 4 [1,C,H,W] with (H,W,C) = (h,w,f) is NCHW (the
 * DFC's reading); otherwise the dims other than 1 must appear in the same order on both sides.
 */
export function planLayout(hef: HefShape, onnx: readonly (number | string | null)[], tensor: string): LayoutPlan {
  const dims = onnx.map((d, i) => (i === 0 && typeof d !== 'number' ? 1 : d));
  if (dims.some((d) => typeof d !== 'number' || d < 0)) {
    return {
      kind: 'error',
      message: `ONNX tensor '${tensor}' has a dynamic shape ${dimsText(onnx)} beyond the batch: its layout cannot be matched to the HEF's ${shapeText(hef)}.`,
    };
  }
  const n = dims as number[];
  const count = n.reduce((a, b) => a * b, 1);
  const hefCount = hef.height * hef.width * hef.features;
  if (count !== hefCount) {
    return {
      kind: 'error',
      message: `ONNX tensor '${tensor}' ${dimsText(onnx)} has ${count} values but the HEF vstream ${shapeText(hef)} has ${hefCount}: they are not the same tensor.`,
    };
  }
  // With at most one dim above 1 the transpose is the identity, so this rule is safe to try first.
  if (n.length === 4 && n[0] === 1 && n[1] === hef.features && n[2] === hef.height && n[3] === hef.width) {
    return {
      kind: 'nhwc-nchw',
      hefDims: [1, hef.height, hef.width, hef.features],
      onnxDims: n,
      description: `HEF NHWC ${shapeText(hef)} ↔ ONNX NCHW ${dimsText(n)}`,
    };
  }
  const big = (xs: number[]) => xs.filter((x) => x !== 1);
  const a = big(n);
  const b = big([hef.height, hef.width, hef.features]);
  if (a.length === b.length && a.every((x, i) => x === b[i])) {
    return { kind: 'same-order', onnxDims: n, description: `HEF ${shapeText(hef)} ↔ ONNX ${dimsText(n)} (same element order)` };
  }
  return {
    kind: 'error',
    message: `HEF vstream ${shapeText(hef)} does not line up with ONNX tensor '${tensor}' ${dimsText(onnx)} as NCHW or in the same order.`,
  };
}

/** A HEF-order frame (NHWC) as the ONNX tensor wants it. */
export function hefToOnnx(data: ArrayLike<number>, plan: Exclude<LayoutPlan, { kind: 'error' }>): Float32Array {
  return plan.kind === 'nhwc-nchw' ? transpose(data, plan.hefDims, NHWC_TO_NCHW) : Float32Array.from(data);
}

/** An ONNX tensor in the HEF vstream's order (NHWC), to compare with what the device returned. */
export function onnxToHef(data: ArrayLike<number>, plan: Exclude<LayoutPlan, { kind: 'error' }>): Float32Array {
  return plan.kind === 'nhwc-nchw' ? transpose(data, plan.onnxDims, NCHW_TO_NHWC) : Float32Array.from(data);
}

// Every shape rule against onnxruntime: each case of the table (test/helpers/onnxOpTable.ts) is built
// as a one-operator model, executed with onnxruntime-node's CPU provider, and the dims ORT returns
// must equal what inference derives from the file alone. For operators ORT's CPU provider has no
// kernel for, the test first checks that ORT really refuses the model, then compares with the
// spec's formula cited in the case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readOnnxBuffer } from '../../../server/src/core/onnx/reader';
import { inferShapes } from '../../../server/src/core/onnx/inferShapes';
import { hasRule } from '../../../server/src/core/onnx/rules';
import { buildCase, caseName, ortRun } from '../../helpers/opCase';
import { OP_CASES } from '../../helpers/onnxOpTable';

/** Every operator of the default domain whose first version is ≤ 22, per onnx/onnx docs/Operators.md. */
const AI_ONNX_TO_22 =
  'Abs Acos Acosh Add And ArgMax ArgMin Asin Asinh Atan Atanh AveragePool BatchNormalization BitShift BitwiseAnd BitwiseNot BitwiseOr BitwiseXor Cast Ceil Col2Im Compress Concat ConcatFromSequence Constant ConstantOfShape Conv ConvInteger ConvTranspose Cos Cosh CumSum DFT DeformConv DepthToSpace DequantizeLinear Det Div Dropout Einsum Equal Erf Exp Expand EyeLike Flatten Floor GRU Gather GatherElements GatherND Gemm GlobalAveragePool GlobalLpPool GlobalMaxPool Greater GridSample Hardmax Identity If ImageDecoder InstanceNormalization IsInf IsNaN LRN LSTM Less Log Loop LpNormalization LpPool MatMul MatMulInteger Max MaxPool MaxRoiPool MaxUnpool Mean MelWeightMatrix Min Mod Mul Multinomial Neg NonMaxSuppression NonZero Not OneHot Optional OptionalGetElement OptionalHasElement Or Pad Pow QLinearConv QLinearMatMul QuantizeLinear RNN RandomNormal RandomNormalLike RandomUniform RandomUniformLike Reciprocal ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum RegexFullMatch Reshape Resize ReverseSequence RoiAlign Round STFT Scan Scatter ScatterElements ScatterND SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert SequenceLength Shape Sigmoid Sign Sin Sinh Size Slice SpaceToDepth Split SplitToSequence Sqrt Squeeze StringConcat StringNormalizer StringSplit Sub Sum Tan Tanh TfIdfVectorizer Tile TopK Transpose Trilu Unique Unsqueeze Upsample Where Xor AffineGrid Bernoulli BlackmanWindow CastLike Celu CenterCropPad Clip DynamicQuantizeLinear Elu Gelu GreaterOrEqual GroupNormalization HammingWindow HannWindow HardSigmoid HardSwish LayerNormalization LeakyRelu LessOrEqual LogSoftmax MeanVarianceNormalization Mish NegativeLogLikelihoodLoss PRelu Range ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceSumSquare Relu Selu SequenceMap Shrink Softmax SoftmaxCrossEntropyLoss Softplus Softsign ThresholdedRelu'.split(
    ' ',
  );

function opsOf(c: (typeof OP_CASES)[number]): string[] {
  return [`${c.domain ?? ''}:${c.op}`, ...(c.then ?? []).map((n) => `${n.domain ?? ''}:${n.op}`)];
}

test('op table: every ai.onnx operator up to opset 22 has a rule and a case', () => {
  assert.equal(AI_ONNX_TO_22.length, 193);
  const covered = new Set(OP_CASES.flatMap(opsOf));
  const noCase = AI_ONNX_TO_22.filter((op) => !covered.has(`:${op}`));
  const noRule = AI_ONNX_TO_22.filter((op) => !hasRule('', op));
  assert.deepEqual(noCase, [], 'operators without a table case');
  assert.deepEqual(noRule, [], 'operators without a shape rule');
});

test('op table: every com.microsoft case has a rule', () => {
  const missing = OP_CASES.filter((c) => c.domain && !hasRule(c.domain, c.op)).map(caseName);
  assert.deepEqual(missing, []);
});

for (const c of OP_CASES) {
  test(`op shapes: ${caseName(c)} equals ${c.spec ? 'the spec (no ORT CPU kernel)' : 'onnxruntime'}`, async () => {
    const { bytes, feeds, fetch } = buildCase(c);
    let expected: Record<string, (number | null)[]>;
    if (c.spec) {
      await assert.rejects(
        ortRun(bytes, feeds, fetch),
        /implementation|NOT_IMPLEMENTED|not supported|Could not find/i,
        'ORT runs it after all: test it against ORT',
      );
      expected = c.spec.expect;
    } else {
      expected = await ortRun(bytes, feeds, fetch);
      // data-dependent dims (declared per case, from the spec) are expected unknown
      for (const [name, axes] of Object.entries(c.dynamic ?? {})) {
        if (expected[name]) expected[name] = expected[name].map((d, i) => (axes.includes(i) ? null : d));
      }
    }
    const model = readOnnxBuffer(bytes);
    const facts = inferShapes(model, { useDeclared: false }).facts;
    const got: Record<string, unknown> = {};
    for (const name of Object.keys(expected)) got[name] = facts.get(name)?.shape ?? null;
    assert.ok(Object.keys(expected).length > 0, 'nothing compared');
    assert.deepEqual(got, expected);
  });
}

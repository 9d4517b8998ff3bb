#!/usr/bin/env node
// Generates the small ONNX models beside some DFC log fixtures (test/fixtures/dfc/<case>/model.onnx):
// graphs whose node and tensor names are the ones the case's log talks about, so the reader can put
// diagnostics on those nodes and tell node names from tensor names. Shapes are small and consistent;
// weights are zeros (nothing reads them). Deterministic: re-running reproduces the committed bytes.
//   node scripts/gen-dfc-fixtures.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const { onnx } = createRequire(import.meta.url)('onnx-proto');
const root = new URL('..', import.meta.url).pathname;
const F = 1;
const I64 = 7;

const vi = (name, dims) => ({ name, type: { tensorType: { elemType: F, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
const i64 = (name, values) => ({ name, dataType: I64, dims: [values.length], int64Data: values });
const zeros = (name, dims) => ({ name, dataType: F, dims, rawData: new Uint8Array(dims.reduce((a, b) => a * b, 1) * 4) });
const node = (opType, name, inputs, outputs, attribute = []) => ({ opType, name, input: inputs, output: outputs, attribute });

function save(file, graph) {
  const model = onnx.ModelProto.create({ irVersion: 8, producerName: 'gen-dfc-fixtures', opsetImport: [{ domain: '', version: 17 }], graph });
  writeFileSync(join(root, 'test', 'fixtures', 'dfc', file), onnx.ModelProto.encode(model).finish());
  console.log(`wrote test/fixtures/dfc/${file}`);
}

// parse-unsupported-shuffle: the CCT OCR model of fast-plate-ocr#44, reduced to the nodes its log names.
save('parse-unsupported-shuffle/model.onnx', {
  name: 'cct_ocr',
  input: [vi('input', [1, 64, 128, 3])],
  output: [vi('logits', [1, 64, 16])],
  initializer: [i64('shape_patches', [1, 64, 384]), i64('shape_tokens', [1, 64, 16]), zeros('w_mlp', [384, 16]), zeros('w_key', [16, 16])],
  node: [
    node('Reshape', 'CCT_OCR_1/patch_extractor_1/Reshape_1', ['input', 'shape_patches'], ['patches']),
    node('MatMul', 'CCT_OCR_1/mlp_1/dense_1/MatMul', ['patches', 'w_mlp'], ['mlp_out']),
    node('Reshape', 'CCT_OCR_1/mlp_1/dense_1/MatMul_post_reshape', ['mlp_out', 'shape_tokens'], ['tokens']),
    node('Reshape', 'CCT_OCR_1/transformer_block_1_1/mlp_1/dense_1_1/MatMul_pre_reshape', ['tokens', 'shape_tokens'], ['block_in']),
    node('MatMul', 'CCT_OCR_nchw_1/CCT_OCR_1/transformer_block_1_1/multi_head_attention_1/key_1/BiasAdd', ['block_in', 'w_key'], ['key']),
    node('Add', 'CCT_OCR_nchw_1/CCT_OCR_1/Add', ['key', 'block_in'], ['logits']),
  ],
});

// misspelled-node: a backbone whose conv outputs carry torch's `<node>_output_0` tensor names.
save('misspelled-node/model.onnx', {
  name: 'backbone',
  input: [vi('image', [1, 3, 32, 32])],
  output: [vi('/backbone/conv3/Conv_output_0', [1, 8, 32, 32])],
  initializer: [zeros('w1', [8, 3, 3, 3]), zeros('w2', [8, 8, 3, 3]), zeros('w3', [8, 8, 3, 3])],
  node: [
    node('Conv', '/backbone/conv1/Conv', ['image', 'w1'], ['/backbone/conv1/Conv_output_0'], [{ name: 'pads', type: 7, ints: [1, 1, 1, 1] }]),
    node('Relu', '/backbone/act1/Relu', ['/backbone/conv1/Conv_output_0'], ['/backbone/act1/Relu_output_0']),
    node(
      'Conv',
      '/backbone/conv2/Conv',
      ['/backbone/act1/Relu_output_0', 'w2'],
      ['/backbone/conv2/Conv_output_0'],
      [{ name: 'pads', type: 7, ints: [1, 1, 1, 1] }],
    ),
    node(
      'Conv',
      '/backbone/conv3/Conv',
      ['/backbone/conv2/Conv_output_0', 'w3'],
      ['/backbone/conv3/Conv_output_0'],
      [{ name: 'pads', type: 7, ints: [1, 1, 1, 1] }],
    ),
  ],
});

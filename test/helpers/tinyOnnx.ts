// A two-output float model with a closed form, for the float-reference tests and the e2e
// workspace: out = input * 2 + 1 ([1,3,H,W]) and pooled = GlobalAveragePool(input) ([1,3,1,1]).
// numpy computes the same in scripts/gen-accuracy-fixtures.py (reference.json).
import { writeFileSync } from 'node:fs';
import { onnx } from 'onnx-proto';

export function tinyOnnxBytes(h = 4, w = 5, c = 3): Uint8Array {
  const T = onnx.TensorProto.DataType.FLOAT;
  const tensor = (name: string, dims: number[]) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: T, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
  const scalar = (name: string, v: number) => onnx.TensorProto.create({ name, dataType: T, dims: [], floatData: [v] });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'hailo-tools-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny',
      input: [tensor('input', [1, c, h, w])],
      output: [tensor('out', [1, c, h, w]), tensor('pooled', [1, c, 1, 1])],
      initializer: [scalar('two', 2), scalar('one', 1)],
      node: [
        { name: '/conv1/Mul', opType: 'Mul', input: ['input', 'two'], output: ['doubled'] },
        { name: '/conv1/Add', opType: 'Add', input: ['doubled', 'one'], output: ['out'] },
        { name: '/avgpool1/GlobalAveragePool', opType: 'GlobalAveragePool', input: ['input'], output: ['pooled'] },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

export function writeTinyOnnx(file: string, h = 4, w = 5, c = 3): void {
  writeFileSync(file, tinyOnnxBytes(h, w, c));
}

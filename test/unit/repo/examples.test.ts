// examples/model holds copies of generated test fixtures so a user has a model to open; they must
// stay the bytes the committed generator scripts make (which the fixtures' own tests pin).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';

const copies: [example: string, fixture: string][] = [
  ['model/tinycnn.onnx', 'har/tinycnn.onnx'],
  ['model/tinycnn_hailo_model.har', 'har/tinycnn_hailo_model.har'],
  ['model/tinycnn_quantized.har', 'har/tinycnn_quantized.har'],
  ['model/tinycnn_quantized.noise.json', 'har/tinycnn_quantized.noise.json'],
  ['model/tinycnn.alls', 'har/tinycnn.alls'],
  ['model/tower_packed.onnx', 'onnx/tower_packed.onnx'],
];

for (const [example, fixture] of copies) {
  test(`examples/${example} is byte-identical to test/fixtures/${fixture}`, () => {
    const a = readFileSync(join(repoRoot, 'examples', example));
    const b = readFileSync(join(repoRoot, 'test', 'fixtures', fixture));
    assert.ok(a.equals(b), `copy it again: cp test/fixtures/${fixture} examples/${example}`);
  });
}

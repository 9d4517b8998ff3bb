// The classes the fourth batch of users' logs (dfc-corpus unseen3/) showed the reader missing, each
// tested on forms that batch does not contain (issue 30): the stage of an error nobody catalogued,
// from what ran (traceback frames at the margin, a stage's own exception class, a DFC module a line
// names); the layer such an error names; the optimizer's data keyed or shaped unlike the HN's inputs;
// success from what ran (a stage's HAR written, a program's own word); a parser refusal without its
// node; HailoRT's own words after a status; GenAI create failures of any status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

function read(lines: string[]) {
  return readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
}

test('stage from what ran: an unknown exception under DFC frames at the margin is the optimize stage', () => {
  const r = read([
    'File "/venv/lib/python3.10/site-packages/hailo_model_optimization/algorithms/bias_correction.py", line 51, in run',
    '    self._apply(layer)',
    'File "/venv/lib/python3.10/site-packages/hailo_model_optimization/acceleras/hailo_layers/base.py", line 300, in _apply',
    '    raise ZeroDivisionError("float division by zero")',
    'ZeroDivisionError: float division by zero',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'optimize');
  // The same frames under the parser's package are the parse stage.
  const p = read([
    'File "/venv/lib/python3.8/site-packages/hailo_sdk_client/sdk_backend/parser/onnx_translator/onnx_graph.py", line 880, in get_weights',
    '    return w[0]',
    'ZeroDivisionError: division by zero',
  ]);
  assert.equal(p.failedStage, 'parse');
  // Only the frame's function says the stage here (the ClientRunner's translate call): the frames themselves are read.
  const c = read([
    'File "/home/u/convert.py", line 12, in <module>',
    '    runner_result = run(model)',
    'File "/venv/lib/python3.10/site-packages/hailo_sdk_client/runner/client_runner.py", line 1158, in translate_onnx_model',
    '    return self._translate(model)',
    'ZeroDivisionError: division by zero',
  ]);
  assert.equal(c.failedStage, 'parse');
});

test("stage from what ran: a class of the optimizer's framework, and a DFC module a line names", () => {
  const r = read(['AccelerasNumerizationError: the layer my_net/ew_add3 got an unexpected zero point']);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'optimize');
  // A Keras error whose object config names the optimizer's own module, after the exception line.
  const k = read([
    'Traceback (most recent call last):',
    '  File "/venv/lib/python3.10/site-packages/keras/src/models/cloning.py", line 120, in clone_model',
    '    return deserialize(config)',
    "ValueError: Unknown layer: 'ConvStrippedOp'.",
    'Config: {',
    "    'module': 'hailo_model_optimization.acceleras.atomic_ops.conv_stripped_op',",
    '}',
  ]);
  assert.equal(k.outcome, 'failed');
  assert.equal(k.failedStage, 'optimize');
  // Nothing that shows the stage: never guessed.
  assert.equal(read(['ValueError: something went wrong']).failedStage, 'unknown');
});

test('an unknown error still names the layer or node its message names', () => {
  for (const [line, name] of [
    ['AccelerasValueError: Bad bias range for layer yolov8n/conv41 after folding', 'yolov8n/conv41'],
    ["RuntimeError: could not find a layer named 'conv12' in the graph", 'conv12'],
    ["KeyError: 'resnet_v1_50/output_layer1'", 'resnet_v1_50/output_layer1'],
  ] as const) {
    const r = read([line]);
    const d = r.diagnostics.find((x) => x.code === 'dfc/unrecognised-error');
    assert.ok(d, `${line}: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    assert.equal(d.node, name, line);
    assert.ok(d.message.includes(name), d.message);
  }
  assert.equal(read(['ValueError: something went wrong']).diagnostics[0].node, undefined);
});

test("the optimizer's data keyed or shaped unlike the HN's inputs: dfc/optimize-inputs, with the layer", () => {
  const k = read([
    'Traceback (most recent call last):',
    '  File "/venv/lib/python3.10/site-packages/hailo_model_optimization/flows/optimization_flow.py", line 320, in run',
    '    self._model.build(shapes)',
    "KeyError: 'bert_tiny/input_layer2'",
  ]);
  const kd = k.diagnostics.find((d) => d.code === 'dfc/optimize-inputs');
  assert.ok(kd, k.diagnostics.map((d) => d.code).join(', '));
  assert.equal(k.failedStage, 'optimize');
  assert.match(kd.message, /keyed by the parsed model's input layer names/);
  // The shapes message, wrapped after its list, its HN shapes on a line of their own.
  const s = read([
    '[error] AccelerasValueError: Inference input shapes [[-1, 64, 256]]',
    'for layer tiny_net/conv1 does not match HN shapes',
    '[[-1, 1, 64, 256]]',
  ]);
  const sd = s.diagnostics.find((d) => d.code === 'dfc/optimize-inputs');
  assert.ok(sd, s.diagnostics.map((d) => d.code).join(', '));
  assert.equal(sd.node, 'tiny_net/conv1');
  assert.match(sd.message, /calibration/);
  assert.equal(s.failedStage, 'optimize');
});

test('success from what ran: a stage whose HAR is written has ended; a program that says it succeeded has', () => {
  const parse = read([
    '[info] Translation started on ONNX model resnet18',
    '[info] Restored ONNX model resnet18 (completion time: 00:00:00.21)',
    '[info] Saved HAR to: /work/resnet18.har',
  ]);
  assert.equal(parse.outcome, 'success');
  const opt = read(['[info] Using dataset with 64 entries for calibration', '[info] Saved HAR to: /work/resnet18_optimized.har']);
  assert.equal(opt.outcome, 'success');
  assert.equal(opt.stages.find((s) => s.name === 'optimize')?.status, 'ok');
  assert.equal(read(['2025-06-01 10:00:00,123 - app - INFO - Model loaded and inference completed successfully']).outcome, 'success');
  // A negation, an error after it, or nothing said: not a success.
  assert.notEqual(read(['2025-06-01 10:00:00,123 - app - INFO - Inference was not successful']).outcome, 'success');
  assert.equal(read(['INFO: device configured successfully', '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)']).outcome, 'failed');
  assert.equal(read(['INFO: loading the model']).outcome, 'incomplete');
});

test("a parser refusal quoted without its node keeps its class's code", () => {
  const r = read([
    'UnsupportedOperationError: ConvInteger operation is unsupported',
    'UnsupportedShuffleLayerError: Failed to determine type of layer to create',
  ]);
  const codes = r.diagnostics.map((d) => d.code);
  assert.ok(codes.includes('dfc/unsupported-operation'), codes.join(', '));
  assert.ok(codes.includes('dfc/unsupported-shuffle'), codes.join(', '));
  assert.equal(r.failedStage, 'parse');
});

test("HailoRT's own words after a status join its diagnostic; a status's own advice (hailort v5.2.0 sources)", () => {
  // vdevice_hrpc_client.cpp (v5.1.1–v5.2.0) logs this before returning HAILO_NOT_IMPLEMENTED.
  const r = read([
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_NOT_IMPLEMENTED(7)',
    '[HailoRT] [error] Not supported. Did you try calling `create_configure_params` on H10? If so, use InferModel instead',
  ]);
  const d = r.diagnostics.find((x) => x.code === 'hailort/status');
  assert.ok(d, r.diagnostics.map((x) => x.code).join(', '));
  assert.match(d.message, /HailoRT adds: Not supported/);
  assert.match(d.message, /InferModel API/);
  const i = read(['[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INTERNAL_FAILURE(8)']);
  assert.match(i.diagnostics[0].message, /hailort\.service/);
});

test('GenAI create failures of any status name the causes: version, KV-Cache (serializer.cpp deserialize_reply)', () => {
  for (const line of [
    '[HailoRT] [error] [serializer.cpp:162] [deserialize_reply] CHECK_SUCCESS failed with status=HAILO_INTERNAL_FAILURE(8) - Failed to create LLM',
    'hailo_platform.pyhailort.pyhailort.HailoRTException: Failed to create Speech2Text, status HAILO_INVALID_OPERATION(6)',
  ]) {
    const r = read([line]);
    const d = r.diagnostics.find((x) => x.code.startsWith('hailort/'));
    assert.ok(d, `${line}: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    assert.match(d.message, /version/, line);
    assert.match(d.message, /KV-Cache/, line);
  }
  // A status of a family of its own keeps the family's advice (a device another process holds).
  const held = read(['[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74) - Failed to create LLM']);
  assert.ok(held.diagnostics.some((d) => d.code === 'hailort/out-of-physical-devices' && /another process/i.test(d.message)));
  // The device manager's own words for a held KV-Cache (hailort_server.cpp, v5.2.0): the device is taken.
  const k = read(['[HailoRT] [error] KV-Cache is already in use!']);
  assert.ok(k.diagnostics.some((d) => d.code === 'hailort/out-of-physical-devices'));
});

// Warnings a program's own logger writes that no catalogue entry knows (issue 30, the thirteenth batch: three of
// pyhailort's own log files, dfc-corpus unseen12/53–55, whose only lines are such warnings, were read as saying
// nothing). The class, not the three messages: any logger whose level says warning, in a run with no error, is said
// in its own words — once per distinct message with how often it repeated, what it names and where it was logged
// from, at low confidence — and never makes a run failed; a flood stays a bounded report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { MAX_SAID, namesIn } from '../../../server/src/core/dfc/unknownWarnings';

function read(lines: string[]) {
  return readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
}
const unknown = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.code === 'dfc/unrecognised-warning');

test('unknown warnings: pyhailort log files of warnings only say each warning once, with its count, names and source (unseen12/53–55 lines)', () => {
  // dfc-corpus unseen12/53 (github.com/Pawulonwaflak/exomy pyhailort.log): one warning per frame.
  const frames = ['22:53:41,269', '22:53:42,144', '22:53:42,201', '22:53:42,238'].map(
    (t) =>
      `2026-05-14 ${t} - WARNING - pyhailort.py:1031 - Given input data dtype (uint8) is different than inferred dtype (float32). conversion for every frame will reduce performance`,
  );
  const r = read(frames);
  const ws = unknown(r);
  assert.equal(ws.length, 1, JSON.stringify(r.diagnostics));
  const w = ws[0];
  assert.equal(w.severity, 'warning');
  assert.equal(w.confidence, 'low');
  assert.equal(w.logLine, 1);
  assert.match(
    w.message,
    /«Given input data dtype \(uint8\) is different than inferred dtype \(float32\)\. conversion for every frame will reduce performance»/,
  );
  assert.match(w.message, /4 times, lines 1–4/);
  assert.match(w.message, /pyhailort\.py:1031/);
  assert.match(w.message, /It names uint8, float32/);
  assert.ok(!r.diagnostics.some((d) => d.severity === 'error'));
  assert.notEqual(r.outcome, 'failed');

  // dfc-corpus unseen12/55 (github.com/AL1N-0603/SmartShelfV2 pyhailort.log): three deprecations, each session again.
  const session = [
    '2025-05-27 11:05:47,490 - WARNING - hw_object.py:46 - HailoHWObject is deprecated! Please use VDevice/Device object.',
    '2025-05-27 11:05:47,492 - WARNING - hw_object.py:447 - PcieDevice is deprecated! Please use VDevice/Device object.',
    '2025-05-27 11:05:47,552 - WARNING - control_object.py:61 - PcieHcpControl is deprecated! Please Use Control object',
  ];
  const three = unknown(read([...session, ...session, ...session]));
  assert.deepEqual(
    three.map((d) => d.logLine),
    [1, 2, 3],
  );
  assert.ok(three.every((d) => /3 times/.test(d.message)));
  assert.match(three[0].message, /It names HailoHWObject, VDevice\/Device/);
  assert.match(three[2].message, /control_object\.py:61/);
});

test('unknown warnings: the same class from programs unseen12 does not hold — GStreamer, HailoRT, the DFC', () => {
  for (const [lines, words, names] of [
    // gst-launch-1.0 prints an element's GST_ELEMENT_WARNING as `WARNING: from element <path>: <text>` then its debug
    // info (gst-launch.c); basesink's `A lot of buffers are being dropped.` (libs/gst/base/gstbasesink.c).
    [
      [
        'Setting pipeline to PLAYING ...',
        'WARNING: from element /GstPipeline:pipeline0/GstXvImageSink:xvimagesink0: A lot of buffers are being dropped.',
        'Additional debug info:',
        '../libs/gst/base/gstbasesink.c(3143): gst_base_sink_is_too_late (): /GstPipeline:pipeline0/GstXvImageSink:xvimagesink0:',
        'There may be a timestamping problem, or this computer is too slow.',
      ],
      'A lot of buffers are being dropped.',
      'xvimagesink0',
    ],
    // HailoRT's own warning in a hailortcli run (SolidRun's Hailo-8 V3000 guide, library file id 83594172).
    [
      [
        'Measuring FPS and Power in streaming mode',
        '[HailoRT] [warning] Using the overcurrent protection dvm for power measurement will disable the overcurrent protection.',
      ],
      'Using the overcurrent protection dvm',
      null,
    ],
    // The DFC's own `[warning]` the catalogue lacks (test/fixtures/dfc/real-efficientnet-multicontext, SOURCES.md S),
    // in varying numbers: one message.
    [
      [
        '[warning] Reducing output bits of EfficientNetB0_112_112/ne_activation_fc14 by 5.0 bits (More than half)',
        '[warning] Reducing output bits of EfficientNetB0_112_112/ne_activation_fc16 by 6.0 bits (More than half)',
      ],
      'Reducing output bits of EfficientNetB0_112_112/ne_activation_fc14',
      'EfficientNetB0_112_112/ne_activation_fc14',
    ],
  ] as const) {
    const r = read([...lines]);
    const ws = unknown(r);
    assert.equal(ws.length, 1, `${lines.join('\n')}\n→ ${JSON.stringify(r.diagnostics)}`);
    assert.ok(ws[0].message.includes(words), ws[0].message);
    if (names) assert.ok(ws[0].message.includes(names), ws[0].message);
    assert.ok(!r.diagnostics.some((d) => d.severity === 'error'));
  }
});

test('unknown warnings: a flood is bounded — one message repeated is one diagnostic, many distinct ones at most MAX_SAID', () => {
  const one = Array.from({ length: 20_000 }, (_, i) => `[HailoRT] [warning] Frame ${i} was dropped by the pipeline`);
  const r1 = unknown(read(one));
  assert.equal(r1.length, 1);
  assert.match(r1[0].message, /20000 times \(in other numbers too\), lines 1–20000/);
  // Python logging's default format (`%(levelname)s:%(name)s:%(message)s`), 200 messages that differ in a word.
  const tag = (i: number) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
  const distinct = Array.from({ length: 200 }, (_, i) => `WARNING:camera:Sensor ${tag(i)} is not calibrated`);
  const r2 = unknown(read(distinct));
  assert.equal(r2.length, MAX_SAID);
  assert.match(r2[MAX_SAID - 1].message, new RegExp(`${200 - MAX_SAID} more warning lines`));
});

test('unknown warnings: never in a failed run, and never make one — the failure is what a failed run says', () => {
  const failed = read([
    '2026-05-14 22:53:41,269 - WARNING - pyhailort.py:1031 - Given input data dtype (uint8) is different than inferred dtype (float32). conversion for every frame will reduce performance',
    '[HailoRT] [error] CHECK failed - Waiting for async job to finish has failed with timeout (1000ms)',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)',
  ]);
  assert.equal(failed.outcome, 'failed');
  assert.equal(unknown(failed).length, 0);
  // A warning beside a catalogued one is said there (the run's other warnings), not twice.
  const beside = read([
    "[warning] Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU",
    '[warning] Running model optimization with zero level of optimization is not recommended for production use and might lead to suboptimal accuracy results',
  ]);
  assert.equal(unknown(beside).length, 0, JSON.stringify(beside.diagnostics));
  assert.ok(beside.diagnostics.some((d) => d.code === 'dfc/optimization-level-0' && d.message.includes('Running model optimization with zero level')));
});

test('unknown warnings: what a message names, by the forms messages name things in', () => {
  assert.deepEqual(namesIn('Calls to `activate()` when working with scheduler are deprecated!'), ['activate()']);
  assert.deepEqual(namesIn('Output tensor yolox_tiny/yolox_nms_postprocess is not an NMS type'), ['yolox_tiny/yolox_nms_postprocess']);
  assert.deepEqual(namesIn('Given input data dtype (uint8) is different than inferred dtype (float32).'), ['uint8', 'float32']);
  assert.deepEqual(namesIn('the quick brown fox.'), []);
});

// Two warning forms with no level word (issue 30): Python's `warnings` module (CPython Lib/warnings.py formatwarning,
// `file:line: Category: message`, then the source line indented) and glog's/absl's W prefix (`Lmmdd hh:mm:ss.uuuuuu
// threadid file:line] `, abseil-cpp absl/log/internal/log_format.cc) — TensorFlow's and numpy's in a DFC console.
test("unknown warnings: Python's warnings module and glog/absl's W lines are warnings, said once with their count and source", () => {
  // github.com/tensorflow/io/issues/1684 (tensorboard's dtypes.py under numpy 1.20), as Python writes them (pytest indented them).
  const py = (n: number, what: string, line: string) => [
    `/code/xxxx/workspace/venv/lib/python3.8/site-packages/tensorboard/compat/tensorflow_stub/dtypes.py:${n}: DeprecationWarning: \`np.${what}\` is a deprecated alias for the builtin \`${what}\`. To silence this warning, use \`${what}\` by itself. Doing this will not modify any behavior and is safe.`,
    '  Deprecated in NumPy 1.20; for more details and guidance: https://numpy.org/devdocs/release/1.20.0-notes.html#deprecations',
    `    ${line}`,
  ];
  const r = read([...py(569, 'object', '(np.object, string),'), ...py(594, 'object', '(np.object, string),'), ...py(570, 'bool', '(np.bool, bool),')]);
  const ws = unknown(r);
  assert.equal(ws.length, 2, JSON.stringify(r.diagnostics));
  assert.equal(ws[0].logLine, 1);
  assert.equal(ws[0].confidence, 'low');
  assert.match(ws[0].message, /logged from dtypes\.py:569/);
  assert.match(ws[0].message, /«DeprecationWarning: np\.object is a deprecated alias for the builtin object\./);
  // The source line after it is not its words.
  assert.doesNotMatch(ws[0].message, /np\.object, string/);
  assert.match(ws[0].message, /2 times, lines 1–4/);
  assert.match(ws[1].message, /np\.bool is a deprecated alias/);
  assert.doesNotMatch(ws[1].message, /It names[^.]*DeprecationWarning/);
  assert.ok(!r.diagnostics.some((d) => d.severity === 'error'));
  assert.notEqual(r.outcome, 'failed');

  // github.com/XENONnT/fuse/pull/103: numpy 1.24's message ends in a parenthesis; its source line after it is not its words.
  const xe = read([
    '/home/xudc/fuse/fuse/plugins/micro_physics/merge_cluster.py:44: DeprecationWarning: `np.bool8` is a deprecated alias for `np.bool_`.  (Deprecated NumPy 1.24)',
    "    ('create_S2', np.bool8), #Will be set i a later plugin",
  ]);
  const xw = unknown(xe);
  assert.equal(xw.length, 1, JSON.stringify(xe.diagnostics));
  assert.match(
    xw[0].message,
    /logged from merge_cluster\.py:44\): «DeprecationWarning: np\.bool8 is a deprecated alias for np\.bool_\. +\(Deprecated NumPy 1\.24\)»/,
  );

  // github.com/AILab-CVC/YOLO-World/issues/66 (torch.onnx's export): a message that ends on a word, then its source line
  // `warnings.warn(…)` indented and in lower case — the form a message cut over lines has, but a warning is one line.
  // github.com/pytorch/pytorch/issues/149332: a Windows path.
  const torch = read([
    '/home/lan/anaconda3/envs/face19/lib/python3.9/site-packages/torch/onnx/symbolic_helper.py:716: UserWarning: allowzero=0 by default. In order to honor zero value in shape use allowzero=1',
    '  warnings.warn("allowzero=0 by default. In order to honor zero value in shape use allowzero=1")',
    "D:\\Create\\YOLOv8-TensorRT-main\\ultralytics\\nn\\extra_modules\\ops_dcnv3\\functions\\dcnv3_func.py:26: FutureWarning: `torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use `torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
    '  def forward(',
  ]);
  const tw = unknown(torch);
  assert.equal(tw.length, 2, JSON.stringify(torch.diagnostics));
  assert.match(
    tw[0].message,
    /logged from symbolic_helper\.py:716\): «UserWarning: allowzero=0 by default\. In order to honor zero value in shape use allowzero=1»/,
  );
  assert.match(tw[1].message, /logged from dcnv3_func\.py:26\): «FutureWarning: torch\.cuda\.amp\.custom_fwd\(args\.\.\.\) is deprecated/);

  for (const [line, source, words] of [
    // github.com/tensorflow/tensorflow/issues/31691: absl's W prefix, TensorFlow's deprecation.
    [
      'W0816 21:23:15.258742 140077442987776 deprecation.py:323] From /home/users/xdlan/.conda/envs/xdlan/lib/python3.6/site-packages/tensorflow/python/compat/v2_compat.py:61: disable_resource_variables (from tensorflow.python.ops.variable_scope) is deprecated and will be removed in a future version.',
      'deprecation.py:323',
      /«From \/home\/users\/xdlan\/.*disable_resource_variables \(from tensorflow\.python\.ops\.variable_scope\) is deprecated/,
    ],
    // dfc-corpus tune/33 line 1 (a DFC notebook's console): TensorFlow's `<time>: W path/file.cc:N] `.
    [
      '2024-10-14 16:40:59.091439: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU.',
      'gpu_device.cc:1956',
      /«Cannot dlopen some GPU libraries\. Please make sure/,
    ],
  ] as const) {
    const one = read([line, line]);
    const w = unknown(one);
    assert.equal(w.length, 1, `${line}\n${JSON.stringify(one.diagnostics)}`);
    assert.match(w[0].message, new RegExp(`logged from ${source.replace('.', '\\.')}`));
    assert.match(w[0].message, words);
    assert.match(w[0].message, /2 times/);
    assert.notEqual(one.outcome, 'failed');
  }
});

test('unknown warnings: a Python warning or a W line in a failed run adds nothing, and is no error', () => {
  const failed = read([
    '/code/xxxx/workspace/venv/lib/python3.8/site-packages/tensorboard/compat/tensorflow_stub/dtypes.py:570: DeprecationWarning: `np.bool` is a deprecated alias for the builtin `bool`.',
    '    (np.bool, bool),',
    'W0816 21:23:15.258742 140077442987776 deprecation.py:323] From /x/v2_compat.py:61: disable_resource_variables (from tensorflow.python.ops.variable_scope) is deprecated and will be removed in a future version.',
    '[HailoRT] [error] CHECK failed - Waiting for async job to finish has failed with timeout (1000ms)',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)',
  ]);
  assert.equal(failed.outcome, 'failed');
  assert.equal(unknown(failed).length, 0);
  // The failure is HailoRT's: neither warning line is an error of its own.
  assert.ok(
    failed.diagnostics.filter((d) => d.severity === 'error').every((d) => d.logLine >= 4),
    JSON.stringify(failed.diagnostics),
  );
});

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

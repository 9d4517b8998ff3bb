// A live consumer of the reader (the compile session prints a line per stage as the DFC reaches it)
// must get every event, and get it with its line: the reader may hold lines back — a learned line
// template waits for the lines after it (logShape.ts), a wrapped code span waits for its end — and
// the events of those lines must neither be lost at the end nor wait for lines that may come minutes
// later. The console here is the compile session's own: the DFC's lines between our driver's
// `hailo-tools driver: …` lines, one of which carries a level word (test/fixtures/compile/logs/success-dfc5.log).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DfcLogReader, type DfcEvent } from '../../../server/src/core/dfc';

const CONSOLE = [
  'hailo-tools driver: mode api, hw_arch hailo10h, model /work/tinycnn.onnx',
  'hailo-tools driver: parse: translate_onnx_model(/work/tinycnn.onnx, tinycnn)',
  '[info] Translation started on ONNX model tinycnn',
  '[info] Translation completed on ONNX model tinycnn (completion time: 00:00:00.21)',
  'hailo-tools driver: parse finished in 0.0 s -> tinycnn.har',
  'hailo-tools driver: WARNING: no calibration set given; optimizing with random data -- the HEF will run, but its accuracy is meaningless',
  'hailo-tools driver: optimize: optimize(calibration)',
  '[info] Starting Model Optimization',
  'Calibration: 100%|██████████| 64/64 [00:05<00:00, 11.20entries/s]',
  '[info] Model Optimization is done (completion time: 00:00:13.90)',
  'hailo-tools driver: optimize finished in 0.1 s -> tinycnn_optimized.har',
  'hailo-tools driver: compile: compile()',
  '[info] Starting Hailo allocation and compilation flow',
  '[info] tinycnn Successful Compilation (duration: 00:00:08.70)',
  'hailo-tools driver: compile finished in 0.0 s -> tinycnn.hef',
];

const stageEvents = (es: DfcEvent[]) => es.filter((e) => e.kind === 'stageStarted' || e.kind === 'stageFinished').map((e) => `${e.kind}:${e.stage}`);
const WANT = ['stageStarted:parse', 'stageFinished:parse', 'stageStarted:optimize', 'stageFinished:optimize', 'stageStarted:compile', 'stageFinished:compile'];

test('live: every stage event arrives on the push of its own line, none waits for later lines', () => {
  const reader = new DfcLogReader({ live: true });
  const late: string[] = [];
  for (const line of CONSOLE) {
    const got = stageEvents(reader.push(line + '\n'));
    // The line that says a stage started or finished must bring that event itself.
    const says =
      /Translation started|Translation completed|Starting Model Optimization|Optimization is done|Starting Hailo allocation|Successful Compilation/.test(line);
    if (says && got.length === 0) late.push(line);
  }
  assert.deepEqual(late, [], 'stage lines whose event did not come with them');
  assert.equal(reader.end({ code: 0 }).outcome, 'success');
});

test('finish: the events of lines read only at the end (held back, unterminated) are returned, none lost', () => {
  // Read whole (not live): lines may wait; whatever did not come from push comes from finish.
  const reader = new DfcLogReader();
  const events: DfcEvent[] = [];
  const text = CONSOLE.join('\n'); // the last line unterminated
  for (const e of reader.push(text)) events.push(e);
  const done = reader.finish({ code: 0 });
  for (const e of done.events) events.push(e);
  assert.deepEqual(stageEvents(events), WANT);
  assert.equal(done.report.outcome, 'success');
  assert.deepEqual(
    done.report.stages.map((s) => [s.name, s.status]),
    [
      ['parse', 'ok'],
      ['optimize', 'ok'],
      ['compile', 'ok'],
    ],
  );
});

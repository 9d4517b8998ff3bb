// A command that failed in an error line no catalogue entry explains, then a retry of the same program: the retry
// decides the outcome (errors.ts newRun), and the earlier failure's own words stay, as a warning — with the tool's advice
// sentence (`Use "run2" instead`, `please pass …`) that the retry followed. dfc-corpus unseen11/61 showed the class
// (hailortcli's `run` refused on a Hailo-10H); these are other tools and words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

test("earlier run: an unexplained error line before a retry stays, as a warning carrying the tool's advice", () => {
  for (const [log, advice] of [
    [
      '$ hailortcli benchmark yolov8s.hef\n[HailoRT CLI] [error] CHECK failed - The "benchmark" command does not support --batch-size 0. Please pass a positive batch size.\n$ hailortcli benchmark --batch-size 1 yolov8s.hef\nyolov8s: FPS: 412.3\n',
      'Please pass a positive batch size',
    ],
    [
      '$ my_infer --hef m.hef\n[error] Input stream count mismatch: try --input-format NHWC instead\n$ my_infer --hef m.hef --input-format NHWC\nDone.\n',
      'try --input-format NHWC instead',
    ],
  ] as const) {
    const r = readDfcLog(log);
    assert.notEqual(r.outcome, 'failed', log);
    const d = r.diagnostics.find((x) => x.message.includes(advice));
    assert.ok(d, `${log}: ${JSON.stringify(r.diagnostics)}`);
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /^An earlier run in this log failed/);
  }
});

test('earlier run: an error line the same run got past (its answer printed) is not kept when the retry comes', () => {
  const r = readDfcLog(
    '$ hailortcli run m.hef\n[HailoRT] [error] CHECK failed - Failed to create LLM. HEF was not set.\nRunning streaming inference (m.hef):\n> Inference result:\n Network group: m\n    FPS: 63.33\n$ hailortcli run m.hef\n> Inference result:\n Network group: m\n    FPS: 63.40\n',
  );
  assert.equal(r.diagnostics.length, 0, JSON.stringify(r.diagnostics));
});

// Classes the twentieth batch of users' logs (dfc-corpus unseen19/) showed the reader missing in application logs:
// a display sink's word that its user closed its window is how a live pipeline ends, not a failure (unseen19/38); a
// HailoRT call that failed and that the same thread called again past where it had failed was got past (unseen19/72).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const corpusLog = (half: string, num: string) => {
  const dir = join(repoRoot, 'test', 'fixtures', 'dfc-corpus', half);
  const name = readdirSync(dir).find((n) => n.startsWith(`${num}-`))!;
  return readFileSync(join(dir, name, 'run.log'), 'utf8');
};

test("a display sink's `Output window was closed` ends a live pipeline: the user closed it, nothing failed", () => {
  // gst-launch-1.0 with gtk4paintablesink (another sink, another program than unseen19/38's hailo-apps and xvimagesink),
  // as published in a user's README (the tool library's file id 28395534259): the user closed the window.
  const r = read([
    'Setting pipeline to PAUSED ...',
    'Pipeline is live and does not need PREROLL ...',
    'Pipeline is PREROLLED ...',
    'Setting pipeline to PLAYING ...',
    'New clock: GstSystemClock',
    'Redistribute latency...',
    'ERROR: from element /GstPipeline:pipeline0/GstFPSDisplaySink:fpsdisplaysink0/GstGtk4PaintableSink:gtk4paintablesink0: Output window was closed',
    'Additional debug info:',
    'video/gtk4/src/sink/imp.rs(861): gstgtk4::sink::imp::PaintableSink::create_window::{{closure}}::{{closure}} (): /GstPipeline:pipeline0/GstFPSDisplaySink:fpsdisplaysink0/GstGtk4PaintableSink:gtk4paintablesink0',
    'Execution ended after 0:00:07.353664499',
    'Setting pipeline to NULL ...',
    'Freeing pipeline ...',
  ]);
  assert.equal(r.outcome, 'success');
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  // hailo-apps' own form (its bus handler prints `Error: {err}, {debug}`), the batch's log: the demo ran and was closed.
  assert.equal(readDfcLog(corpusLog('unseen19', '38'), { logPath: 'run.log' }).outcome, 'success');
  // The same application relayed by Python's logging at INFO (`%(asctime)s - %(levelname)s - %(message)s`, the logging
  // HOWTO's format): its `Error: …` line is then read by its words (failureWords.ts), which must not take it for a failure.
  const relayed = corpusLog('unseen19', '38')
    .split('\n')
    .map((l) => (l ? `2026-12-07 10:00:00,123 - INFO - ${l}` : l));
  assert.equal(read(relayed).outcome, 'success');
});

test('a GStreamer error that is not the window closed still fails the pipeline', () => {
  // The same README's sink, but a source that could not open (GStreamer's v4l2src wording for a missing device).
  const r = read([
    'Setting pipeline to PAUSED ...',
    "ERROR: from element /GstPipeline:pipeline0/GstV4l2Src:v4l2src0: Cannot identify device '/dev/video9'.",
    'Additional debug info:',
    '../sys/v4l2/v4l2_calls.c(613): gst_v4l2_open (): /GstPipeline:pipeline0/GstV4l2Src:v4l2src0',
    'Setting pipeline to NULL ...',
    'Freeing pipeline ...',
  ]);
  assert.equal(r.outcome, 'failed');
});

test('a HailoRT call the same thread called again and got past is no failure of the run (unseen19/72)', () => {
  // HailoRT's VDevice::create logs `Creating vdevice with params` as it starts and fails without a fallback of its own
  // (hailort vdevice.cpp: the multi-process branch returns the client's error); the application created a VDevice again
  // without the service, and that create went past where the first failed (`VDevice Infos` from further down [create]).
  const r = readDfcLog(corpusLog('unseen19', '72'), { logPath: 'run.log' });
  assert.notEqual(r.outcome, 'failed');
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    [],
  );
  const rpc = r.diagnostics.find((d) => d.code === 'hailort/connection-closed');
  assert.equal(rpc?.severity, 'warning');
});

test("the retried call's own opening line is not it getting past: a log cut there still failed", () => {
  // The same log cut right after the second `Creating vdevice with params` (VDevice::create's first line, above the check
  // that failed): nothing yet shows that call went further than the first.
  const lines = corpusLog('unseen19', '72').split('\n');
  const cut = lines.findIndex((l) => l.includes('multi_process_service: false'));
  const r = read(lines.slice(0, cut + 1));
  assert.equal(r.outcome, 'failed');
  assert.equal(r.diagnostics.find((d) => d.code === 'hailort/connection-closed')?.severity, 'error');
});

test("a later call of another function by the same thread is not the refused call succeeding (unseen15/65's HEF stands)", () => {
  // Another source: a face-recognition project's hailort.log whose detector HEF would not open (create_infer_model), and
  // whose same thread then made a second VDevice for another model: the detector never loaded, the run failed.
  const r = readDfcLog(corpusLog('unseen15', '65'), { logPath: 'run.log' });
  assert.equal(r.outcome, 'failed');
  assert.ok(r.diagnostics.some((d) => d.code === 'hailort/hef-rejected' && d.severity === 'error'));
});

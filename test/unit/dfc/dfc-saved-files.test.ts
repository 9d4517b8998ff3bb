// What a run says it saved (DfcReport `saved`, issue 30): the path exactly as the log prints it and its kind, from the
// lines each tool prints when it writes — the DFC CLI's `Saved HAR to:` and `hailo compiler`'s `Saved HEF to:`
// (fixtures success-dfc3-cli, success-dfc3-hailomz, real-whisper-multicontext: test/fixtures/dfc/SOURCES.md),
// hailomz's `HEF file written to` (with and without its colon: dfc-corpus unseen4/01, unseen5/03), an author's quoted
// `Generated: best.hef (9.3MB)` (dfc-corpus unseen5/13) and Ultralytics' `{prefix} export success ✅ {t}s, saved as
// '{f}' ({mb} MB)` (ultralytics/engine/exporter.py `try_export`, PR 25231; `Hailo:`'s f is the folder holding the HEF).
// A path is never resolved, opened or checked: it names a place inside wherever the run ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readDfcLog, reportText, savedSummary, type DfcReport } from '../../../server/src/core/dfc';
import { main } from '../../../server/src/cli/main';
import { captureIO } from '../../fakes/cliIO';
import { repoRoot } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'dfc');
const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const saved = (r: DfcReport) => r.saved.map((f) => `${f.kind} ${f.path} @${f.logLine}`);

test("saved: the DFC CLI's and the model zoo's own lines, each path once at its last write, as printed", () => {
  // hailomz rewrites one HAR after each stage (lines 11, 34, 63), then writes the HEF beside where it ran (line 64).
  const mz = readDfcLog(readFileSync(join(FIX, 'success-dfc3-hailomz', 'run.log'), 'utf8'));
  assert.deepEqual(saved(mz), ['har /local/shared_with_docker/test1_yolox/yolox_tiny.har @63', 'hef yolox_tiny.hef @64']);
  // `hailo compiler`'s own line (line 25).
  const cli = readDfcLog(readFileSync(join(FIX, 'success-dfc3-cli', 'run.log'), 'utf8'));
  assert.deepEqual(saved(cli), ['hef /local/shared_with_docker/wakeword.hef @25']);
  // A parse's HAR, then the optimize's (lines 18 and 69): two files.
  const w = readDfcLog(readFileSync(join(FIX, 'real-whisper-multicontext', 'run.log'), 'utf8'));
  assert.deepEqual(
    w.saved.map((f) => f.path.split('/').pop()),
    ['whisper_tiny_encoder_10s_hailo_final.har', 'whisper_tiny_encoder_10s_hailo_final_optimized.har'],
  );
  // hailomz's line with a colon and a relative path: kept relative, never resolved against anything here.
  assert.deepEqual(saved(read(['[info] Saved HAR to: ./yolov8n.har', '[info] HEF file written to: ./yolov8n.hef'])), [
    'har ./yolov8n.har @1',
    'hef ./yolov8n.hef @2',
  ]);
});

test("saved: a path may hold spaces; words joined after it (an author's hard wrap, forms.ts) are no part of it", () => {
  assert.deepEqual(saved(read(['[info] Saved HAR to: /home/me/My Models/yolov8n.har'])), ['har /home/me/My Models/yolov8n.har @1']);
  // A long line and the author's sentence after it, filled as one paragraph.
  const joined = read([
    '[info] Saved HAR to: /local/shared_with_docker/FuelDetector/models/yolov11n_quantized_model.har',
    'which is the file we then compiled.',
  ]);
  assert.deepEqual(saved(joined), ['har /local/shared_with_docker/FuelDetector/models/yolov11n_quantized_model.har @1']);
  // Longer than PATH_MAX: no path anything wrote.
  assert.deepEqual(saved(read([`[info] Saved HAR to: /${'a'.repeat(5000)}.har`])), []);
});

test("saved: an author's quoted verdicts and Ultralytics' exporter name what they wrote and its kind", () => {
  const beetle = read([
    '✅ Model Optimization is done  ',
    '✅ Saved HAR to: best_optimized.har',
    '✅ Found valid partition to 3 contexts, Performance improved by 38%',
    '✅ Generated: best.hef (9.3MB)',
  ]);
  assert.deepEqual(saved(beetle), ['har best_optimized.har @2', 'hef best.hef @4']);
  const ultra = read([
    "ONNX: export success ✅ 1.9s, saved as 'yolo11n.onnx' (10.2 MB)",
    "Hailo: export success ✅ 912.4s, saved as 'yolo11n_hailo_model' (9.8 MB)",
    '',
    'Export complete (915.0s)',
  ]);
  assert.deepEqual(saved(ultra), ['onnx yolo11n.onnx @1', 'directory yolo11n_hailo_model @2']);
  // A wrapper's verdict without a path (dfc-corpus unseen2/21) and a sentence's example name say no path.
  assert.deepEqual(saved(read(['HEF compiled successfully: 7,722,864 bytes'])), []);
  assert.deepEqual(saved(read(['The HEF file was saved in the current directory with a standard name (for example `yolov8n_seg_hailo8.hef`).'])), []);
  // A failure to write is no file written.
  assert.deepEqual(saved(read(['[error] Failed to save HEF to /work/m.hef: No space left on device'])), []);
});

test('saved: a later run in the same log file reports its own saves', () => {
  // hailo_sdk.client.log appends every `hailo` command, each opening with its banner (dfc-corpus unseen7/28's form).
  const r = read([
    '[info] Running `hailo parser onnx m.onnx --hw-arch hailo8`',
    '[info] Translation started on ONNX model m',
    '[info] Translation completed on ONNX model m (completion time: 00:00:01.00)',
    '[info] Saved HAR to: /work/m.har',
    '[info] Running `hailo optimize m.har --use-random-calib-set`',
    '[info] Starting Model Optimization',
    '[info] Model Optimization is done (completion time is 00:00:05.00)',
    '[info] Saved HAR to: /work/m_optimized.har',
  ]);
  assert.deepEqual(saved(r), ['har /work/m_optimized.har @8']);
});

test('saved: shown in the text report and summary as the log names it, escaped; the summary names kinds only', async () => {
  // A bidi override (ANSI colours are stripped before anything reads a line: lines.ts).
  const r = read(['[info] Saved HAR to: /work/a\u202egnp.har', '<Hailo Model Zoo INFO> HEF file written to [x](command:workbench.action.quit).hef']);
  assert.equal(r.saved[0].path, '/work/a\u202egnp.har', 'the report keeps the path as printed');
  const text = reportText(r, 'run.log');
  assert.match(text, /saved \(as the log names them, not checked here\):/);
  assert.ok(text.includes('    HAR        /work/a\\u202egnp.har  (log line 1)'), text);
  assert.ok(!text.includes('\u202e'), 'no raw control reaches the terminal');
  assert.ok(text.includes('    HEF        [x](command:workbench.action.quit).hef  (log line 2)'), text);
  // The notification's line (VS Code renders `[text](link)` there): kinds and counts, never a path.
  assert.equal(savedSummary(r.saved), 'saved 1 HAR, 1 HEF');
  assert.equal(savedSummary([]), '');
  // The CLI: text and --json.
  const log = join(FIX, 'success-dfc3-cli', 'run.log');
  const io = captureIO();
  assert.equal(await main(['dfc-log', log], io), 0, io.errText);
  assert.ok(io.outText.includes('    HEF        /local/shared_with_docker/wakeword.hef  (log line 25)'), io.outText);
  const jo = captureIO();
  await main(['dfc-log', '--json', log], jo);
  assert.deepEqual(JSON.parse(jo.outText).saved, [{ kind: 'hef', path: '/local/shared_with_docker/wakeword.hef', logLine: 25 }]);
  // --json on stdin with the hostile path: valid JSON, the path intact after parsing, no raw control in the output.
  const hostile = captureIO(Readable.from([Buffer.from('[info] Saved HAR to: /work/a\u202egnp.har\n', 'utf8')]));
  await main(['dfc-log', '--json', '-'], hostile);
  assert.ok(!hostile.outText.includes('\u202e'));
  assert.equal(JSON.parse(hostile.outText).saved[0].path, '/work/a\u202egnp.har');
});

// Application runs whose success the reader did not see in the twenty-fifth batch of users' logs (dfc-corpus unseen24/):
// GStreamer's command-line tools' own ends — gst-launch's `Got EOS from element …` and gst-inspect's `+-- N elements`
// (unseen24/46, /50); a benchmark's throughput over its timed run (unseen24/86); the Hailo AI Software Suite container's
// welcome, and the command of its start script the shell refused, which the script went past (unseen24/34); a command typed
// again with its typo corrected after the shell refused the misspelt one, and an application's error about its own teardown
// after its run gave its answer (unseen24/82). Each test reads lines of another source than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

test("gst-launch's end of stream ends its pipeline's run; a pipeline cut while playing, or `Execution ended` alone, does not", () => {
  // A board vendor's manual (library file 60806959994, OK-MX93 UVC camera capture): gst-launch-1.0's own console.
  const playing = [
    'root@ok-mx93:~# gst-launch-1.0 v4l2src device=/dev/video0 io-mode=2 num-buffers=1 ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! jpegenc ! filesink location=pic.jpeg',
    'Setting pipeline to PAUSED ...',
    'Pipeline is live and does not need PREROLL ...',
    'Pipeline is PREROLLED ...',
    'Setting pipeline to PLAYING ...',
    'New clock: GstSystemClock',
    'Redistribute latency...',
  ];
  const ended = ['Got EOS from element "pipeline0".', 'Execution ended after 0:00:01.183575708', 'Setting pipeline to NULL ...', 'Freeing pipeline ...'];
  const r = read([...playing, ...ended]);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(errors(r), []);
  // Cut while playing: no end shown. `Execution ended after` alone is printed after an error too (gst-launch.c), so it is none.
  assert.equal(read(playing).outcome, 'incomplete');
  assert.equal(read([...playing, ...ended.slice(1)]).outcome, 'incomplete');
});

test("gst-inspect's feature count closes a plugin's details: the plugin loaded; its details cut before it are no answer", () => {
  // TI's edgeai-gst-plugins README (library file 24099147281): `gst-inspect-1.0 tiovx`'s expected output.
  const details = [
    'Plugin Details:',
    '  Name                     tiovx',
    '  Description              GStreamer plugin for TIOVX',
    '  Filename                 /usr/lib/gstreamer-1.0/libgsttiovx.so',
    '  Version                  0.0.1',
    '  License                  Proprietary',
    '  Source module            GstTIOVX',
    '  Binary package           GstTIOVX source release',
    '  Origin URL               http://ti.com',
    '',
    '  tiovxcolorconvert: TIOVX ColorConvert',
    '  tiovxmultiscaler: TIOVX MultiScaler',
    '',
  ];
  const r = read([...details, '  2 features:', '  +-- 2 elements']);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(errors(r), []);
  assert.equal(read(details).outcome, 'incomplete');
});

test("a benchmark's throughput over its timed run is its answer; a line counting inferences as they go is not", () => {
  // A Python benchmark's summary (library file 66570736981: `print(f"  Throughput: {results['fps']:.1f} fps")` after its results).
  const header = ['Running benchmark on hailo8 ...', 'Results:', '  Total time: 10.02s'];
  for (const line of ['  Throughput: 87.3 fps', 'Throughput: 412 frames/s', 'Average throughput: 91.5 inferences per second']) {
    const r = read([...header, line]);
    assert.equal(r.outcome, 'success', line);
  }
  assert.equal(read(header).outcome, 'incomplete');
  // A count as it goes, or a throughput promised, says no run ended.
  for (const line of ['Inferences: 915', 'Throughput: measuring...', 'Target throughput should be above 30 fps'])
    assert.equal(read([...header, line]).outcome, 'incomplete', line);
});

test("the suite container's welcome says it started; a start script's refused command it went past is a warning, not the run's end", () => {
  // Another write-up's start of the suite (library file 60521967065: `./hailo_ai_sw_suite_docker_run.sh`'s expected output).
  const started = [
    'Loaded image: hailo8_ai_sw_suite_2025-10:1',
    'Running Hailo AI SW suite Docker image...',
    '',
    'Welcome to Hailo AI Software Suite Container',
    '(hailo_virtualenv) hailo@vm-ubuntu:/local/workspace$',
  ];
  assert.equal(read(started).outcome, 'success');
  assert.equal(read(started.slice(0, 2)).outcome, 'incomplete');
  // The script's own line refused (bash goes on with the script's next line), then the container's welcome: the run's answer.
  const refused = './hailo_ai_sw_suite_docker_run.sh: line 14: lspci: command not found';
  const r = read([refused, ...started]);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(errors(r), []);
  const w = r.diagnostics.find((d) => d.code === 'dfc/not-installed');
  assert.equal(w?.severity, 'warning');
  assert.match(w!.message, /lspci/);
  // The script stopped at it (nothing after): the refusal is the run's end. A refusal typed at the prompt is no script's step.
  assert.equal(read([refused]).outcome, 'failed');
  assert.equal(read(['bash: lspci: command not found', ...started]).diagnostics.find((d) => d.code === 'dfc/not-installed')?.severity, 'error');
});

test('a program retyped with its typo corrected after the shell refused it is the next run; another program after a refusal is not', () => {
  // hailortcli mistyped, then typed right (the fixture dfc/not-installed's prompt and identify; hailortcli's identify card).
  const identified = [
    'Executing on device: 0000:01:00.0',
    'Identifying board',
    'Control Protocol Version: 2',
    'Firmware Version: 4.19.0 (release,app,extended context switch buffer)',
    'Logger Version: 0',
    'Board Name: Hailo-8',
    'Device Architecture: HAILO8L',
  ];
  const typo = ['user@raspberrypi:~ $ hailortlci fw-control identify', 'bash: hailortlci: command not found'];
  const r = read([...typo, 'user@raspberrypi:~ $ hailortcli fw-control identify', ...identified]);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(errors(r), []);
  // The refusal is the earlier run's, said as such — read on its own line: the prompt after it is no hard-wrapped rest of it.
  const refusal = r.diagnostics.find((d) => d.code === 'dfc/not-installed');
  assert.equal(refusal?.severity, 'warning', JSON.stringify(r.diagnostics));
  assert.match(refusal!.message, /earlier run.*hailortlci/);
  assert.doesNotMatch(refusal!.message, /raspberrypi/);
  // The typed refusal stands when the user goes on with another program: installing what was missing (as the fixture
  // dfc/not-installed's apt lines after its refusal) is another step, and shows nothing of the refused command running.
  const other = read([
    'user@raspberrypi:~ $ hailortcli fw-control identify',
    'bash: hailortcli: command not found',
    'user@raspberrypi:~ $ pip install hailort-4.19.0-cp311-cp311-linux_aarch64.whl',
    'Successfully installed hailort-4.19.0',
  ]);
  assert.equal(other.outcome, 'failed', JSON.stringify(other.diagnostics));
  assert.ok(
    errors(other).some((d) => /hailortcli/.test(d.message)),
    JSON.stringify(other.diagnostics),
  );
});

test("an application's error about its own teardown after its run gave its answer is a warning; before the answer it fails the run", () => {
  // A service's log (library file 27566292067: `main - ERROR - Error during shutdown: Database manager not initialized. …`)
  // after a run that said it worked.
  const worked = ['2025-10-12 11:50:10,001 - main - INFO - Inference was successful!', '2025-10-12 11:50:12,219 - main - INFO - Shutting down services'];
  const shutdown = '2025-10-12 11:50:12,220 - main - ERROR - Error during shutdown: Database manager not initialized. Call initialize_database() first.';
  const r = read([...worked, shutdown]);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(errors(r), []);
  assert.ok(
    r.diagnostics.some((d) => d.severity === 'warning' && /Error during shutdown/.test(d.message)),
    JSON.stringify(r.diagnostics),
  );
  // No answer before it: the teardown's error is the run's last word.
  assert.equal(read([worked[1], shutdown]).outcome, 'failed');
  // A failure of the run's work that later words got past (the LPR notes' first run, dfc-corpus unseen19/73: inference refused,
  // then `test completed`, then the same cleanup error): the teardown's error is no lone aftermath of a run that worked.
  const refused = ['Vehicle detection error: Failed to perform model inference', 'Static image detection test completed'];
  assert.equal(read([...worked, ...refused, shutdown]).outcome, 'failed');
  assert.equal(read([...worked, ...refused]).outcome, 'success');
  // An error that is not about teardown after the answer still ends the run in an error.
  assert.equal(read([...worked, '2025-10-12 11:50:12,220 - main - ERROR - Error during inference: device not found']).outcome, 'failed');
});

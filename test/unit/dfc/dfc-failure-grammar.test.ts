// The classes the eleventh batch of users' logs (dfc-corpus unseen10/) showed the reader missing, tested on forms that
// batch does not contain: a tool the catalogue does not know failing in its own words (server/src/core/dfc/failureWords.ts)
// — the run's failure, said with its line, never a DFC or HailoRT fault — and what must stay no failure (a warning, a
// negation, a condition, an author's story, a failure a later success got past); the shell's fatal signal in the
// user's locale; the dynamic loader's words (whose library, which HailoRT release); the stage and function of an
// exception from the DFC's frames when an excerpt elides the package root; the run's other warnings beside a
// catalogued one. The tools' wordings are their own (cited at each test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { failureIn } from '../../../server/src/core/dfc/failureWords';
import { applyShape, loggerShape, reading } from '../../helpers/loggerShapes';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

// ---- any program's own words that it failed ----------------------------------------------------------------------
// Each tool's wording: meson's dependency check (`Run-time dependency … found: NO`, then pkg-config's), the legacy docker
// builder's `The command '…' returned a non-zero code: N`, ld's `cannot find -lX` with collect2's `error: ld returned 1
// exit status`, git's `fatal: …`, GStreamer's gst_parse `could not link A to B`, systemd's `Failed to start …`.

test('an unknown tool failing in its own words fails the run, and its line is quoted: the element, package, file it names are said', () => {
  const cases: [string[], string][] = [
    // meson's dependency lookup through pkg-config (a TAPPAS post-process build).
    [
      [
        'The Meson build system',
        'Found pkg-config: /usr/bin/pkg-config (1.8.1)',
        'Run-time dependency hailo-tappas-core found: NO (tried pkgconfig)',
        '',
        'meson.build:12:0: ERROR: Dependency "hailo-tappas-core" not found, tried pkgconfig',
      ],
      'hailo-tappas-core',
    ],
    // docker's legacy builder: a RUN step's command exited non-zero.
    [
      [
        'Step 6/11 : RUN dpkg -i /tmp/hailort_4.20.0_arm64.deb',
        ' ---> Running in 3f2a9c1b7d4e',
        'dpkg: dependency problems prevent configuration of hailort:',
        "The command '/bin/sh -c dpkg -i /tmp/hailort_4.20.0_arm64.deb' returned a non-zero code: 1",
      ],
      'hailort_4.20.0_arm64.deb',
    ],
    // The linker, then gcc's driver.
    [
      [
        'g++ -o detect detect.o -lhailort -lgsthailometa',
        '/usr/bin/ld: cannot find -lgsthailometa: No such file or directory',
        'collect2: error: ld returned 1 exit status',
      ],
      'gsthailometa',
    ],
    // A GStreamer pipeline a Python app built with Gst.parse_launch, the app printing gst_parse's message.
    [['Building pipeline for camera 0 ...', 'Pipeline error: could not link videoconvert0 to hailonet1', 'Exiting.'], 'hailonet1'],
    // A daemon's ctime() date in May (a month, not a modal verb).
    [['Tue May 14 09:12:33 2026 detector: Failed to open /dev/hailo0'], '/dev/hailo0'],
    // systemd starting a service (its journal's words).
    [
      ['Starting hailo-detector.service - Hailo detection service...', 'Failed to start hailo-detector.service - Hailo detection service.'],
      'hailo-detector.service',
    ],
  ];
  for (const [lines, word] of cases) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join('\n'));
    assert.equal(r.failedStage, 'unknown', lines.join('\n'));
    assert.ok(errors(r).length >= 1, lines.join('\n'));
    assert.ok(said(r).includes(word), `${word} not said: ${said(r)}`);
    // Honest about whose failure it is: not the DFC's.
    assert.doesNotMatch(said(r), /The DFC failed/);
  }
});

test("docker's daemon refusing in any client's words (compose, `docker pull`, an SDK) is docker's refusal, the run's end", () => {
  // moby's client: `Error response from daemon: %s` — the CLI prefixes `docker: `, compose and `docker pull` do not.
  const r = read([
    ' ✘ frigate Error pull access denied for hailo-frigate, repository does not exist or may require "docker login"',
    'Error response from daemon: pull access denied for hailo-frigate, repository does not exist or may require "docker login": denied: requested access to the resource is denied',
  ]);
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'docker']);
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/docker'],
  );
});

test("a failure's first line is said too: a program logs the cause first, then each caller's line", () => {
  const r = read([
    'Checking installed versions...',
    'HAILORT_VERSION is 4.19.0 not in the list of supported versions 4.20.0 4.21.0',
    'Setup aborted: exit code 2',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /Setup aborted: exit code 2/);
  assert.match(said(r), /It began with: HAILORT_VERSION is 4\.19\.0 not in the list/);
});

test('failure words that are no failure: a negation, a count of none, a condition, a question, an author telling a story, a warning', () => {
  for (const line of [
    'No errors found.',
    'Tests: 12 passed, 0 failed',
    'Frames dropped: 0, frames failed: 0',
    'Error: none',
    'If the device is not found, check the ribbon cable.',
    'The copy of the HEF may have failed after a kernel update.',
    'Why could not the pipeline link?',
    'I could not find the HEF at first, so I compiled it again.',
    'we cannot use the AI Kit on the Pi 4',
    'It fails when the camera is unplugged, which is expected.',
    'The fix avoids the "could not link" error.',
    'This used to stop with `could not link videoconvert0 to hailonet0`; the caps filter fixed it.',
    'The pipeline could not link at 640x480; at 640x640 now it works.',
    // The program says it goes on: an optional part, a fallback, a retry; an installer's ⚠ mark.
    'Optional component hailo-apps-gui not found, skipping',
    'Could not open /dev/video0, falling back to the test pattern',
    '⚠️  TAPPAS post-processes not found in /usr/lib/hailo-tappas',
    // A program's own warning word, glog's and absl's W/I letters (TensorFlow at import).
    'libcamera warning: Could not open /dev/video1, trying /dev/video0',
    '2025-02-11 08:01:22.100: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen some GPU libraries.',
    'W0211 08:01:22.100000 1234 dso_loader.cc:64] Could not load dynamic library libcudart.so.12',
    'W: Some index files failed to download. They have been ignored, or old ones used instead.',
    // A pasted script's code that prints or raises the words.
    'echo "Error: HailoRT is not installed"',
    'raise RuntimeError("could not open the camera")',
    'logger.error("Failed to open %s", hef_path)',
  ])
    assert.equal(failureIn(line), null, line);
  // A tool's warning stays a warning whatever words it uses (GStreamer's WARN, a deprecation).
  const w = read(['[warning] Could not set the camera to 60 fps, using 30', 'Stream started (1280x720@30)']);
  assert.notEqual(w.outcome, 'failed');
  assert.equal(errors(w).length, 0);
});

test('a failure told by its words alone is got past by a later word that something succeeded (a fallback, a retry)', () => {
  const lines = [
    'Setting up the environment for hailo-tappas-core...',
    'Package hailo-tappas-core was not found in the pkg-config search path.',
    'Falling back to the TAPPAS version in /opt/tappas/VERSION',
    'Environment configured successfully (TAPPAS 3.31.0)',
  ];
  const r = read(lines);
  assert.notEqual(r.outcome, 'failed');
  assert.equal(errors(r).length, 0);
  // A later step's word that it completed gets past it too (apt's `... Done`, an installer's `Installation complete!`).
  for (const done of ['Reading package lists... Done', 'Installation complete!', 'Setup finished.']) {
    const d = read([...lines.slice(0, 3), done]);
    assert.notEqual(d.outcome, 'failed', done);
  }
  assert.equal(read([...lines.slice(0, 3), 'Installation not complete.']).outcome, 'failed');
  // Without the success line the same log ends in the failure, said with pkg-config's words.
  const cut = read(lines.slice(0, 3));
  assert.equal(cut.outcome, 'failed');
  assert.match(said(cut), /Package hailo-tappas-core was not found in the pkg-config search path/);
});

test('a DFC run is not failed by failure words inside a running stage or by a tool warning before it', () => {
  // TensorFlow's loader warning at import (glog's W level), then a whole compile.
  const r = read([
    "2025-03-02 10:00:01.123456: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory",
    '[info] Running `hailo compiler resnet_v1_18.har --hw-arch hailo8`',
    '[info] Compiling network',
    '[info] Starting Hailo allocation and compilation flow',
    'Could not find a better partition, keeping the current one',
    '[info] Successful Mapping (allocation time: 12s)',
    '[info] Successful Compilation (compilation time: 3s)',
    '[info] Saved HEF to: /local/resnet_v1_18.hef',
  ]);
  assert.equal(r.outcome, 'success');
  assert.equal(errors(r).length, 0);
});

test('failure words a stage got past are not what a later silent end died of: the exit status says no error is shown', () => {
  // TensorFlow's absl lines at import (benign: the factory was registered already), then an optimize that exits 1 silently.
  const lines = [
    'E0000 00:00:1761234567.123456 4242 cuda_fft.cc:485] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered',
    '[info] Starting Model Optimization',
    '[info] Using dataset with 64 entries for calibration',
  ];
  const r = readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }, { code: 1 });
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'optimize']);
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/no-error-in-log'],
  );
});

test('a failure line reads the same behind a relay that logs every line at INFO (generated logger formats)', () => {
  const lines = ['Building pipeline for camera 0 ...', 'Pipeline error: could not link videoconvert0 to hailonet1', 'Exiting.', 'Cleaning up resources'];
  const plain = reading(`${lines.join('\n')}\n`);
  assert.equal(plain.outcome, 'failed');
  for (let seed = 7_000; seed < 7_030; seed++)
    assert.deepEqual(reading(`${applyShape(loggerShape(seed), lines).join('\n')}\n`), plain, loggerShape(seed).label);
});

// ---- the shell's fatal signal in the user's locale ---------------------------------------------------------------
// bash prints strsignal(3)'s words, which glibc translates (its po files): SIGSEGV is `Speicherzugriffsfehler` in German,
// `Erreur de segmentation` in French, `段错误` in Chinese; SIGABRT `Abgebrochen`, `已放弃`; bash's job line puts its own
// word for `line` in the locale too (`Zeile`, `行`).

test("a segmentation fault or an abort in the shell's locale is the program's death", () => {
  for (const [lines, signal] of [
    [['Loading yolov8s.hef ...', 'Erreur de segmentation (core dumped)'], /Segmentation fault/],
    [['Loading yolov8s.hef ...', './run.sh: Zeile 14:  4242 Speicherzugriffsfehler  (Speicherabzug geschrieben) python3 detect.py'], /Segmentation fault/],
    [['Loading yolov8s.hef ...', '段错误 (核心已转储)'], /Segmentation fault/],
    [
      ['Loading yolov8s.hef ...', "terminate called after throwing an instance of 'std::runtime_error'", '  what():  HEF not found', '已放弃 (核心已转储)'],
      /aborted/,
    ],
  ] as [string[], RegExp][]) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join('\n'));
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['dfc/crashed'],
      lines.join('\n'),
    );
    assert.match(said(r), signal);
  }
});

test('a native death right after failure lines says them: what the program was doing when it died', () => {
  const r = read([
    'Loading post-process from ./postprocess/libyolov5_post.so',
    'Could not load lib ./postprocess/libyolov5_post.so: cannot open shared object file: No such file or directory',
    'Segmentation fault (core dumped)',
  ]);
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/crashed'],
  );
  assert.match(said(r), /Right before it: «Could not load lib \.\/postprocess\/libyolov5_post\.so/);
  assert.match(said(r), /Nothing is at the path given for libyolov5_post\.so/);
});

// ---- the dynamic loader's words ----------------------------------------------------------------------------------
// libhailort's file name carries its whole release (hailort's CMakeLists sets VERSION X.Y.Z, no SOVERSION); TAPPAS
// core's libraries are the hailo-tappas-core package's (meta-hailo's libgsthailotools recipe; Raspberry Pi's hailo-all).

test("the loader's missing library: HailoRT's says its release, TAPPAS core's its package, another its package search", () => {
  const rt = read([
    '$ hailortcli scan',
    'hailortcli: error while loading shared libraries: libhailort.so.4.18.0: cannot open shared object file: No such file or directory',
  ]);
  assert.equal(rt.outcome, 'failed');
  assert.match(said(rt), /HailoRT 4\.18\.0's library.*built against HailoRT 4\.18\.0 loads no other/);
  const tappas = read([
    'Traceback (most recent call last):',
    '  File "/home/pi/apps/tracker.py", line 3, in <module>',
    '    import hailo_tracker',
    'ImportError: libhailo_tracker.so.3: cannot open shared object file: No such file or directory',
  ]);
  assert.equal(tappas.outcome, 'failed');
  assert.match(said(tappas), /hailo-tappas-core/);
  assert.match(said(tappas), /It was raised in <module> \(apps\/tracker\.py\)/);
  const other = read(['./detect: error while loading shared libraries: libopencv_core.so.406: cannot open shared object file: No such file or directory']);
  assert.match(said(other), /apt-file search libopencv_core\.so\.406/);
});

// ---- an exception nobody catalogued: its function, and its stage from the DFC's own modules -----------------------

test("an uncatalogued exception names its innermost function and takes its stage from the DFC's module folders, root elided or not", () => {
  const parse = read([
    'Traceback (most recent call last):',
    '  File ".../tflite_translator/tflite_graph.py", line 812, in _get_input_shapes',
    '    return self._graph.inputs[idx].shape',
    "KeyError: 'serving_default_input_1:0'",
  ]);
  assert.equal(parse.outcome, 'failed');
  assert.equal(parse.failedStage, 'parse');
  assert.match(said(parse), /raised in _get_input_shapes \(tflite_translator\/tflite_graph\.py\)/);
  const optimize = read([
    '  File "…/acceleras/atomic_ops/conv_stripped_op.py", line 301, in _compute_output_shape',
    '    raise ValueError(f"kernel {k} does not fit")',
    'ValueError: kernel (7, 7) does not fit',
  ]);
  assert.equal(optimize.failedStage, 'optimize');
  // A user's own module says no stage.
  const own = read(['  File "/home/me/convert.py", line 40, in main', '    run()', 'ValueError: bad config']);
  assert.equal(own.failedStage, 'unknown');
});

// ---- the run's other warnings beside a catalogued one ------------------------------------------------------------

test("another tool's warning beside a catalogued warning is said with it; a failed run's diagnostics stay its failure", () => {
  const r = read([
    '[HailoRT] [warning] HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will result in lower performance.',
    'WARNING:root:Camera frame rate dropped to 12 fps (requested 30): USB bandwidth',
    'INFO:root:Serving on 0.0.0.0:8080',
  ]);
  assert.equal(errors(r).length, 0);
  const hef = r.diagnostics.find((d) => d.code === 'hailort/hef-device-mismatch');
  assert.ok(hef);
  assert.match(hef.message, /Beside it the log warns .*Camera frame rate dropped to 12 fps/);
  const failed = read([
    '[HailoRT] [warning] HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will result in lower performance.',
    'WARNING:root:Camera frame rate dropped to 12 fps (requested 30): USB bandwidth',
    'Pipeline error: could not link videoconvert0 to hailonet1',
  ]);
  assert.equal(failed.outcome, 'failed');
  assert.doesNotMatch(said(failed), /Beside it the log warns/);
});

test("a narrator's sentence that goes on to quote a program's failure is the program's failure; one that only tells is none", () => {
  // The narrator's own verb vetoes only itself: `It fails with <program's line>` quotes the line (hailo-apps' post-install, dfc-corpus unseen10/08).
  const quoted = read(['It fails with ❌ Post-installation failed (exit code: 1)']);
  assert.equal(quoted.outcome, 'failed');
  assert.ok(said(quoted).includes('Post-installation failed'), said(quoted));
  for (const story of ['I could not get the camera to start', 'We failed to build the driver on 6.12', 'I was unable to open it']) {
    assert.notEqual(read([story]).outcome, 'failed', story);
  }
});

test("a table's one-word cell that the shell prints alone (a signal in its locale) is read as that line", () => {
  for (const cell of ['Speicherzugriffsfehler', 'Abgebrochen']) {
    const r = read(['| model | result |', '|---|---|', `| yolov8 | ${cell} |`]);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['dfc/crashed'],
      cell,
    );
  }
});

// apt's `E: The repository 'X' does not have a Release file.` (apt-pkg/acquire-item.cc) and git's `fatal: not a git repository` (setup.c):
// the words quoted as the failure are the prefix the program wrote, not the prefix and its message's first letter.
test('a program failing by its prefix is quoted by the prefix alone (`E:`, `fatal:`), never with the first letter of its message', () => {
  for (const [line, prefix] of [
    ["E: The repository 'http://ppa.launchpad.net/deadsnakes/ppa/ubuntu noble Release' does not have a Release file.", 'E:'],
    ['fatal: not a git repository (or any of the parent directories): .git', 'fatal:'],
  ] as const) {
    const r = read(['$ sudo apt update', line]);
    assert.equal(r.outcome, 'failed', line);
    assert.match(said(r), new RegExp(`own words \\(\`${prefix}\`\\)`), said(r));
  }
});

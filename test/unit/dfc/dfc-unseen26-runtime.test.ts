// Classes the twenty-seventh batch of users' logs (dfc-corpus unseen26/) showed the reader missing at runtime, at install
// and in HailoRT's own log: a HailoRT status an author quotes before the check's message (`HAILO_INVALID_OPERATION(6):` /
// `"Output buffer size … for output '…'"`, unseen26/01) — the message, and what it names, is the failure's; an author's question
// is no word that something succeeded (unseen26/43); an author's verdict that it works now ends their run well (unseen26/69).
// Each test reads lines of another source than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });

/** A HailoRT check's message as one real log printed it (its corpus case's line, from the `CHECK failed - ` on). */
const checkMessage = (part: string, prefix: string, words: RegExp): string => {
  const line = corpusLogLines(part, prefix).find((l) => words.test(l));
  assert.ok(line, `${part}/${prefix} holds no line ${words}`);
  return line.replace(/^.*CHECK failed - /, '');
};

test("a HailoRT status quoted before its check's message: the message, and the stream or path it names, is what failed", () => {
  // HailoRT prints the check first, then the status (common/utils.hpp); an author who quotes both often names the status
  // first, as a heading, and the message under it. The messages here are other logs' (a TinyCLIP encoder's frame-size check,
  // dfc-corpus unseen7/22; a HEF path that does not open, unseen18/74), in the two ways a note writes them.
  const size = checkMessage('unseen7', '22-', /Input buffer size \d+ is different than expected/);
  const comment = ['# HAILO_INVALID_OPERATION(6):', `#   "${size}"`];
  const r = read(comment);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.filter((x) => x.severity === 'error');
  assert.equal(d.length, 1, JSON.stringify(r.diagnostics));
  assert.equal(d[0].code, 'hailort/status');
  // The input the check names, and the check's own advice (602112 / 150528 = 4: float32 data for a UINT8 stream), not the status's.
  assert.match(d[0].message, /for input 'tinyclip_vit_61m_32_text_29m_laion400m_image_encoder\/input_layer1'/);
  assert.match(d[0].message, /HAILO_INVALID_OPERATION\(6\)/);
  assert.match(d[0].message, /float32 data for a stream whose format type is UINT8/);
  assert.doesNotMatch(d[0].message, /the line before the status says which check failed/);

  const path = checkMessage('unseen18', '74-', /Failed opening file, path:/);
  const note = read(['The app dies with HAILO_OPEN_FILE_FAILURE(13):', `    ${path}`]);
  const f = note.diagnostics.filter((x) => x.severity === 'error');
  assert.equal(f.length, 1, JSON.stringify(note.diagnostics));
  assert.match(f[0].message, /Failed opening file, path: \.\/models\/yolov11m\.hef/);
  assert.match(f[0].message, /pass the HEF's full path/);

  // A line that only repeats a status after it adds no words: the status is still all the log says.
  const bare = read(['HAILO_INVALID_OPERATION(6):', 'CHECK_SUCCESS failed with status=HAILO_INVALID_OPERATION(6)']);
  assert.match(bare.diagnostics[0].message, /^HailoRT: HAILO_INVALID_OPERATION\(6\) — /);
});

test("an author's question is no word that something succeeded: what someone asks how to get has not happened", () => {
  // A forum post (library file 56916367038): autoconf's refusal, then the author's question — whose last word was the
  // reader's `successfully` (dfc-corpus unseen26/43 asks the same after ninja's refusal: `… to complete the installation successfully?`).
  const post = [
    'checking for Qt... configure: error: Qt (>= Qt 3.3 and < 4.0) (headers and libraries) not found. Please check your installation!',
    'For more details about this problem, look at the end of config.log.',
    '',
    'What do I need to install to compile it successfully?',
  ];
  assert.equal(read(post).outcome, 'failed');
  // A program's own statement still is (the same word, no question).
  assert.equal(read([...post.slice(0, 2), 'Qt found; the build completed successfully.']).outcome, 'success');
});

test("an author's verdict that it works now ends the run they tell of; a warning after it stays a warning, an error still fails", () => {
  // hailo-rpi5-examples#98, fnaeem786's comment of 2025-02-02 after the examples' update broke their install: the whole comment.
  const rolledBack = ["Rolling back worked for me. Pity so much time got wasted debugging, all due to a vendor's screwup."];
  assert.equal(read(rolledBack).outcome, 'success');
  // A forum reply (library file 56995913426) whose fix quotes the command it ran: the sentence around the quote is the author's.
  assert.equal(read(['Fixed the problem with "sudo chgrp frontdesk *" within the folder.']).outcome, 'success');
  // The only thing left a HailoRT warning (another log's, dfc-corpus unseen10/13: a Hailo-8L HEF on a Hailo-8): said, the run good.
  const warned = corpusLogLines('unseen10', '13-').find((l) => l.includes('HEF was compiled for Hailo8L device'))!;
  const w = read([...rolledBack, '', warned]);
  assert.equal(w.outcome, 'success');
  assert.deepEqual(
    w.diagnostics.map((d) => `${d.code}:${d.severity}`),
    ['hailort/hef-device-mismatch:warning'],
  );
  // An error after the verdict still fails the run (a second process refused the device, dfc-corpus unseen9/03).
  const refused = corpusLogLines('unseen9', '03-')
    .filter((l) => l.includes('[HailoRT] [error]'))
    .slice(0, 2);
  assert.equal(read([...rolledBack, ...refused]).outcome, 'failed');
  // A contrast is no verdict (the same thread, VikkramStark's quote of the next comment): the install fixed, the demo not.
  const contrast = ['> Rolling back resolved the install error but am now getting a Segmentation fault when trying to run the detection.py demo.'];
  assert.notEqual(read(contrast).outcome, 'success');
  // An aside in parentheses is not the clause (`(if Google ever sees this page...)`, the batch's comment): its `if` vetoes nothing.
  assert.equal(read(['For what it is worth (if anyone finds this page) rolling back worked for me.']).outcome, 'success');
});

// What HailoRT writes to hailort.log through a normal run (https://github.com/hailo-ai/hailort, tag v4.20.0 — the release of
// unseen26/81's and unseen20/41's firmware): at configure, vdevice.cpp:523/651/749 (VDevice::create, VDeviceBase::configure),
// device_internal.cpp:57 (configure), infer_model.cpp:436 (InferModelBase::configure), each pipeline element's `Created …` and
// pipeline.cpp:891 (print_deep_description); during inference nothing at info level per frame under the scheduler (scheduled_core_op_state.cpp
// logs only a threshold, timeout or priority the application sets; nms_post_process.cpp only detections dropped over its maximum);
// at teardown async_infer_runner.cpp:86 (`Pipeline was aborted. Shutting it down`, AsyncPipeline's shutdown), queue_elements.cpp:46
// (~BaseQueueElement: `Queue element X has N frames in his Queue on destruction`, every queue element of the pipeline — the
// InferModel pipeline's EntryPushQEl/PushQEl are AsyncPushQueueElements) and, for a network group the application activated
// itself, core_op.cpp:186 (CoreOp::deactivate) or vdma_config_activated_core_op.cpp:120 (~VdmaConfigActivatedCoreOp):
// `Deactivating took N ms`. The file sink flushes at warning level and every 5 s (hailort_logger.cpp:50, 218–220), so a
// process that ends normally writes its teardown; one killed, or a file copied while it still ran, stops at its last step.
test("HailoRT's own log ends a run with its teardown lines; a log that stops after configuring says nothing of the end", () => {
  // An InferModel run on HailoRT 4.20 (dfc-corpus unseen20/41, another project than unseen26/81): configured, its async pipeline
  // built, a second thread addressing the network group — then, 8 s later, the pipeline's shutdown and its queues' destruction.
  const run = corpusLogLines('unseen20', '41-');
  const shutdown = run.findIndex((l) => l.includes('Pipeline was aborted. Shutting it down'));
  assert.ok(shutdown > 0);
  const whole = read(run);
  assert.equal(whole.outcome, 'success');
  assert.deepEqual(whole.diagnostics, []);
  // Cut where unseen26/81 stops (the pipeline built, nothing after it): no end shown.
  const configured = read(run.slice(0, shutdown));
  assert.equal(configured.outcome, 'incomplete');
  assert.deepEqual(configured.diagnostics, []);
  // A network group the application activated and released itself (hailortcli benchmark's first measurement, dfc-corpus
  // unseen17/72, HailoRT 4.23): its `Deactivating took N ms` lines end it; without them it stops at the streams' abort.
  const bench = corpusLogLines('unseen17', '72-');
  assert.equal(read(bench).outcome, 'success');
  assert.equal(read(bench.filter((l) => !l.includes('Deactivating took'))).outcome, 'incomplete');
});

test("a build that stops on a file it needs: make's fatal error fails the run, and a library it names is no layer", () => {
  // A project write-up's troubleshooting (library file 48250944391, jetson-reinforcement without a GPU): GNU make's fatal error
  // (`%s: *** %s.  Stop.`) — the build's end, as ninja's `ninja: error: 'X', needed by 'Y', missing` is (dfc-corpus unseen26/43).
  const make = ["make[2]: *** No rule to make target '/opt/conda/lib/libcudart.so', needed by 'x86_64/lib/libjetson-utils.so'.  Stop."];
  const r = read(['```', ...make, '```']);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.filter((x) => x.severity === 'error');
  assert.equal(d.length, 1, JSON.stringify(r.diagnostics));
  assert.match(d[0].message, /No rule to make target '\/opt\/conda\/lib\/libcudart\.so'/);
  // The file the build makes (`needed by 'x86_64/lib/libjetson-utils.so'`) is a path with a slash, not an HN name.
  assert.doesNotMatch(d[0].message, /layer or node/);
  // A recipe's `*** [target] Error N` repeats what the compiler said before it; make's note that it waits is no failure.
  assert.equal(read(['make: *** Waiting for unfinished jobs....']).outcome, 'incomplete');
});

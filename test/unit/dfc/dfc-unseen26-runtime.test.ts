// Classes the twenty-seventh batch of users' logs (dfc-corpus unseen26/) showed the reader missing at runtime, at install
// and in HailoRT's own log: a HailoRT status an author quotes before the check's message (`HAILO_INVALID_OPERATION(6):` /
// `"Output buffer size … for output '…'"`, unseen26/01) — the message, and what it names, is the failure's. Each test
// reads lines of another source than the batch's log where one was found.
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

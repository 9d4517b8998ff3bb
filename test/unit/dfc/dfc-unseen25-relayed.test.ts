// The twenty-sixth batch (dfc-corpus unseen25/) relayed: its 74 — an AUV team's notes quoting the DFC's refusal in the
// author's prose across a hard wrap (`*"The specified meta architecture yolov8` / `cannot be run on chip."*`) — read failed
// as written, where the hard-wrap step (forms.ts Unwrap) joined the paragraph by its fill's width, but not relayed: behind
// a relay's prefix the step sees the prefix, under a notebook's indentation no fill, re-wrapped at another width the break
// moves. The refusal is a catalogue message; its words say where it goes on, wherever the line was broken
// (dfcMessages.ts messageCutIn, errors.ts join). Each test reads lines of the batch's log and of another source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { goesOnWithMessage, messageCutIn } from '../../../server/src/core/common/dfcMessages';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();

/** The relays and quotings the metamorphic suites use (dfc-wrappers.test.ts), each as one line's prefix. */
const RELAYS: Record<string, string> = {
  compose: 'dfc-compile-1  | ',
  journald: 'Dec 06 09:12:33 gpu-box hailo-compile[48213]: ',
  'python-logging': '2026-12-06 09:12:33,004 - INFO - compile_model.dfc - ',
  kubectl: '[pod/dfc-job-7x2kq/dfc] 2026-12-06T09:12:33.123456789Z ',
  notebook: '    ',
  'slash-comment': '// ',
  'cat-n': '    14\t',
};

/** A paragraph filled at `width` columns as an editor's fill breaks it: before a word that would pass the width. */
function fill(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out;
}

test('unseen25/74: the refusal quoted across a hard wrap reads as the DFC refusing, behind every relay', () => {
  // The thread: asking nms_postprocess for engine=nn_core on the Hailo-8 is refused with the DFC's UnsupportedMetaArchError
  // message (its catalogue entry: unseen8/06, where engine=cpu compiled) — the run failed where the model script is applied.
  const log = corpusLogLines('unseen25', '74-');
  for (const [name, prefix] of Object.entries(RELAYS)) {
    const r = read(log.map((l) => (l || name === 'cat-n' ? `${prefix}${l}` : l)));
    assert.equal(r.outcome, 'failed', name);
    assert.equal(r.failedStage, 'optimize', name);
    assert.deepEqual(codes(r), ['dfc/model-script:error'], `${name}: ${JSON.stringify(r.diagnostics)}`);
  }
});

test('unseen25/74: the paragraph re-wrapped at other widths reads the same, the break moved to other words of the message', () => {
  // Lines 13–15 of the notes as one paragraph, filled from 30 to 100 columns: the break falls after `meta`, `architecture`,
  // `yolov8`, `be`, `on` … — and behind a relay's prefix the fill's width no longer shows in the line.
  const paragraph = corpusLogLines('unseen25', '74-').slice(12, 15).join(' ');
  for (let width = 30; width <= 100; width += 7)
    for (const prefix of ['', RELAYS.compose, RELAYS.notebook]) {
      const r = read(fill(paragraph, width).map((l) => `${prefix}${l}`));
      assert.deepEqual([r.outcome, r.failedStage, ...codes(r)], ['failed', 'optimize', 'dfc/model-script:error'], `${width} ${JSON.stringify(prefix)}`);
    }
});

test("another source's DFC message in prose, cut by a fill, is read whole (dfc-corpus unseen4/20 without its code span)", () => {
  // An LLM port's notes (unseen4/20): `HAR→HEF compilation hit Memory units capacity exceeded (available: 128, required: 138)
  // on a single node` — the compiler's allocation refusal (the thread: compile failed). Here without the author's backticks
  // (reader.ts joins a wrapped code span on its own), filled where the message breaks over two and three lines.
  const sentence = corpusLogLines('unseen4', '20-').slice(2, 5).join(' ').replace(/`/g, '');
  for (const width of [40, 80])
    for (const prefix of ['', RELAYS.compose, RELAYS['slash-comment']]) {
      const r = read(fill(sentence, width).map((l) => `${prefix}${l}`));
      assert.equal(r.outcome, 'failed', `${width} ${JSON.stringify(prefix)}`);
      assert.equal(r.failedStage, 'compile', `${width} ${JSON.stringify(prefix)}`);
      assert.ok(
        r.diagnostics.some((d) => d.code === 'dfc/allocation-failed' && d.severity === 'error'),
        `${width} ${JSON.stringify(prefix)}: ${JSON.stringify(r.diagnostics)}`,
      );
    }
});

test("a message's words say where it goes on; words that are not its next ones, or too few of its words, join nothing", () => {
  // The catalogue's words for the DFC's `The specified meta architecture {arch} cannot be run on chip` and HailoRT's
  // `Failed to create vdevice. there are not enough free devices. …` (vdevice.cpp).
  const cut = messageCutIn('Asking for it is refused: *"The specified meta architecture yolov8');
  assert.ok(cut);
  assert.equal(goesOnWithMessage(cut, 'cannot be run on chip."* So the NMS stays on the host.'), true);
  assert.equal(goesOnWithMessage(cut, 'is what the DFC says, in its own words'), false);
  assert.ok(messageCutIn('[HailoRT] [error] CHECK failed - Failed to create vdevice. there are not'));
  // A break after the message's first word shows it by the words after it; one word each side (`the` / `specified`) is any sentence's.
  const first = messageCutIn('refused outright: *"The');
  assert.ok(first);
  assert.equal(goesOnWithMessage(first, 'specified meta architecture yolov8 cannot be run on chip."*'), true);
  assert.equal(goesOnWithMessage(first, 'specified flags are ignored'), false);
  assert.equal(goesOnWithMessage(first, 'specified.'), false);
  // A line that holds the message whole is not cut in it.
  assert.equal(messageCutIn('The specified meta architecture yolov8 cannot be run on chip'), null);
  // The line after a prose line that only ends in a message's words is read on its own when it does not go on with them.
  const r = read([`${RELAYS.compose}The notes list what the specified meta architecture`, `${RELAYS.compose}Cannot open /dev/hailo0: no such device`]);
  assert.ok(
    r.diagnostics.some((d) => d.line === 2),
    JSON.stringify(r.diagnostics),
  );
});

// normalise.ts finds a comment mark after code (`  # `, `  // `) and an error tag in mid-line (` [HailoRT] [error]`)
// with `spaced`, a search started from the mark's own character (the grid rows are mostly spaces). No log of the corpus
// has such a line, so the differential check (scripts/dfc-reader-diff.mjs) cannot see it break: these lines can.
// The messages are in HailoRT's `[HailoRT] [error] CHECK failed - …` form, quoted after a line of Python or C++
// or in a sentence, as users paste them into an issue. Each fails with `spaced` made to find nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseLine } from '../../../server/src/core/dfc/normalise';

test('a log line kept as the comment after a line of code is read as the line', () => {
  assert.equal(normaliseLine('result = runner.compile()  # [error] Failed to compile the model'), '[error] Failed to compile the model');
  assert.equal(
    normaliseLine('auto s = hailo_create_vdevice(&p);  // [HailoRT] [error] CHECK failed - status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)'),
    '[error] CHECK failed - status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
  );
});

test('a sentence that goes on into a HailoRT line is read from its tag', () => {
  assert.equal(
    normaliseLine('It fails with [HailoRT] [error] CHECK failed - Failed to create vdevice. there are not enough free devices'),
    '[error] CHECK failed - Failed to create vdevice. there are not enough free devices',
  );
});

test('a mark with no space before it is no comment', () => {
  assert.equal(normaliseLine('a#[error] x'), 'a#[error] x');
});

// Python logging's default record (`%(asctime)s - %(levelname)s - %(message)s`, https://docs.python.org/3/library/logging.html)
// as pyhailort writes it (unseen15/67's line), run into by a sentence with neither a bracket nor a colon before it: the
// record is found by its date (`spacedDate`), its level kept. Fails with the date gate removed (the line reads as prose).
test('a sentence that goes on into a timestamped logging record is read from its date', () => {
  const record =
    '2026-01-30 08:24:52,027 - WARNING - pyhailort.py:1031 - Given input data dtype (float64) is different than inferred dtype (uint8). conversion for every frame will reduce performance';
  const read = '[warning] Given input data dtype (float64) is different than inferred dtype (uint8). conversion for every frame will reduce performance';
  assert.equal(normaliseLine(record), read);
  assert.equal(normaliseLine(`It fails with ${record}`), read);
  assert.equal(normaliseLine(`After the update I still see ${record}`), read);
  // A date in prose that starts no record stays prose.
  assert.equal(normaliseLine('It failed on 2026-01-30 after the update'), 'It failed on 2026-01-30 after the update');
});

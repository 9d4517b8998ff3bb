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

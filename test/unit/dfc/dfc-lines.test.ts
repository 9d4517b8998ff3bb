// The streaming line splitter: LSP line counting (`\n`, `\r\n`, lone `\r` each end a line — LSP
// spec, "Text Documents"), chunks split anywhere, ANSI colours stripped, bounded line length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, MAX_LINE, stripAnsi } from '../../../server/src/core/dfc/lines';
import { prng } from '../../helpers/random';

function split(chunks: string[]) {
  const s = new LineSplitter();
  const out = chunks.flatMap((c) => s.push(c));
  out.push(...s.flush());
  return out;
}

test('dfc lines: \\n, \\r\\n and a lone \\r each end one line; \\r frames are marked overwritten', () => {
  const lines = split(['a\nb\r\nc\rd']);
  assert.deepEqual(
    lines.map((l) => [l.no, l.raw, l.overwritten]),
    [
      [1, 'a', false],
      [2, 'b', false],
      [3, 'c', true],
      [4, 'd', false],
    ],
  );
});

test('dfc lines: a \\r at the end of a chunk followed by \\n in the next is one line end', () => {
  const lines = split(['x\r', '\ny\r', '', 'z\n']);
  assert.deepEqual(
    lines.map((l) => [l.raw, l.overwritten]),
    [
      ['x', false],
      ['y', true],
      ['z', false],
    ],
  );
});

test('dfc lines: every split of a coloured log gives the same lines', () => {
  // The DFC colours its level prefix on a terminal (dfc-flow.md §7.3): `[\x1b[32minfo\x1b[0m]`.
  const log =
    '[\x1b[32minfo\x1b[0m] Starting Model Optimization\r\nCalibration:  50%|█████     | 32/64\rCalibration: 100%|██████████| 64/64\r\n[\x1b[33;1mwarning\x1b[0m] x\n';
  const whole = split([log]).map((l) => [l.no, l.text, l.overwritten]);
  assert.equal(whole[0][1], '[info] Starting Model Optimization');
  assert.equal(whole.length, 4);
  const rnd = prng(8);
  for (let k = 0; k < 200; k++) {
    const chunks: string[] = [];
    for (let i = 0; i < log.length;) {
      const n = 1 + Math.floor(rnd() * 7);
      chunks.push(log.slice(i, i + n));
      i += n;
    }
    assert.deepEqual(
      split(chunks).map((l) => [l.no, l.text, l.overwritten]),
      whole,
    );
  }
});

test('dfc lines: control bytes other than tab are removed from text, kept in raw', () => {
  assert.equal(stripAnsi('a\x1b]0;title\x07b\x1b[2Kc\x00d\te'), 'abcd\te');
});

test('dfc lines: a line longer than MAX_LINE keeps its head and its true length', () => {
  const s = new LineSplitter();
  const long = 'y'.repeat(MAX_LINE * 3);
  const lines = [...s.push(long.slice(0, 1000)), ...s.push(long.slice(1000)), ...s.push('\nnext\n')];
  assert.equal(lines[0].raw.length, MAX_LINE);
  assert.equal(lines[0].length, MAX_LINE * 3);
  assert.equal(lines[1].raw, 'next');
  assert.equal(lines[1].no, 2);
});

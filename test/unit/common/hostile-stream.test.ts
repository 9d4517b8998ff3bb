// Issue 18, the `hailo` task terminal: it showed the container's raw console, where the CLI escapes
// it. TerminalStreamEscaper (common/escape.ts), which every write of the task's pseudo-terminal
// passes, keeps what a real DFC prints — its SGR colours (a real DFC 5 log: `[\x1b[32minfo\x1b[0m]`),
// line ends and tqdm's carriage returns — and turns everything else into visible escapes, however
// the stream is cut into chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TerminalStreamEscaper } from '../../../server/src/core/common/escape';
import { prng } from '../../../server/src/core/common/prng';
import { repoRoot } from '../../helpers/shared';

const REAL_LOG = join(repoRoot, 'test', 'fixtures', 'dfc', 'success-dfc5', 'run.log');
/** Allowed raw: newline, carriage return, tab and the ESC of an SGR sequence. */
const UNSAFE = /\x1b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function through(text: string, seed: number): string {
  const e = new TerminalStreamEscaper();
  const next = prng(seed);
  let out = '';
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(next() * 40);
    out += e.push(text.slice(i, i + n));
    i += n;
  }
  return out + e.flush();
}

test('a real DFC 5 console passes unchanged, its colours kept, in any chunking', () => {
  const log = readFileSync(REAL_LOG, 'utf8');
  assert.ok(log.includes('\x1b[32minfo\x1b[0m'), "the fixture carries the DFC's colours");
  for (const seed of [1, 2, 3]) assert.equal(through(log, seed), log);
});

test('OSC-52, cursor moves, screen clears, C1, bidi and NUL become visible escapes; a progress bar keeps its \\r', () => {
  const evil =
    'epoch 1/4 ██ 50%\rL: \x1b]52;c;cHduZWQ=\x07 \x1b[2J\x1b[H \x1b[31mred\x1b[0m \u009b31m \u202egnp.exe \u0000 \u0085 \u2028\x1bP1;2q\x1b\\ \x1b[?1049h\n';
  for (const seed of [4, 5, 6, 7]) {
    const out = through(evil, seed);
    assert.equal(UNSAFE.exec(out), null, JSON.stringify(out));
    assert.equal(
      out,
      'epoch 1/4 ██ 50%\rL: \\u001b]52;c;cHduZWQ=\\u0007 \\u001b[2J\\u001b[H \x1b[31mred\x1b[0m \\u009b31m \\u202egnp.exe \\u0000 \\u0085 \\u2028\\u001bP1;2q\\u001b\\ \\u001b[?1049h\n',
    );
  }
});

test('an ESC left at the end of the stream is escaped, not held forever', () => {
  const e = new TerminalStreamEscaper();
  assert.equal(e.push('done \x1b['), 'done ');
  assert.equal(e.flush(), '\\u001b[');
});

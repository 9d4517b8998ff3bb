// The classes the ninth batch of users' logs (dfc-corpus unseen8/) showed the reader missing, tested on forms that
// batch does not contain: a run its user or a signal stopped (Python's KeyboardInterrupt, the shell's exit statuses
// 128+N), the cause a log's own words give beside a status or a failure (the OS's reason, the file, the component, the
// versions), the layer an allocator's message names, and the author's words before a quoted class read after a
// relay's prefix. Messages are the DFC's and HailoRT's own (core/common/dfcMessages.ts, test/fixtures/dfc/SOURCES.md);
// meanings are Python's and bash's documented ones (cited at each test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');

test("the author's words before a quoted class are read after a logger's prefix: a `parser.py` column names no stage", () => {
  // A relay's Python logging column (`time - LEVEL - file.py:N - message`) names the file that logged, not the stage.
  const r = read(['2026-03-01 09:12:44,201 - ERROR - parser.py:214 - TensorShapeMismatchError: cannot build the tensor of node Add_17']);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'unknown');
  // The author's own words after the prefix still say the stage.
  const r2 = read(['2026-03-01 09:12:44,201 - ERROR - parser.py:214 - the optimize step died with TensorShapeMismatchError: cannot build the tensor']);
  assert.equal(r2.failedStage, 'optimize');
});

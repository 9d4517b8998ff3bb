// The classes the thirtieth batch (dfc-corpus unseen29) showed the reader missing, tested on lines that batch does not
// contain: the DFC's system-requirements check in its other forms (the Software Suite's check and its log file, a row a
// line), and pyhailort's exceptions carrying a HailoRT status by number in any of their forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.severity} ${d.code}`);
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => d.message).join(' | ');

// The Hailo AI Software Suite's docker run script (hailo_ai_sw_suite_2025-01, library file id 47346491386) writes its check
// to system_reqs_results.log a row a line: `X | ` before an unmet row, ` | ` before one below a recommendation, `V | ` before
// a met one; and says each unmet one on stderr as `ERROR: …`. These rows are its other rows (CPU architecture and flag, the
// recommended RAM), in its own wording, on a machine unseen29/02 is not (an arm host with 24 GB).
test('the check log file: its unmet rows (CPU architecture, CPU flag, RAM below the recommendation) are the system-requirements warning', () => {
  const r = read([
    'HAILO System requirements check - log',
    '',
    'X | Unsupported CPU architecture: aarch64. The supported architecture is x86_64.',
    'X | Required avx CPU flag is not supported in this CPU, and is required to install TensorFlow.',
    '  | Available RAM (24 GB) below recommended amount (32 GB).',
    '  | GPU Requirements are not checked- no GPU connected.',
  ]);
  assert.deepEqual(codes(r), ['warning dfc/system-requirements']);
  assert.match(said(r), /Unsupported CPU architecture: aarch64/);
  assert.match(said(r), /avx CPU flag is not supported/);
  assert.match(said(r), /Available RAM \(24 GB\) below recommended amount/);
});

test('the check on stderr: the Software Suite script says its RAM row as "The Dataflow Compiler requires"', () => {
  const r = read([
    'INFO: Checking system requirements...',
    'ERROR: The Dataflow Compiler requires 16 GB of RAM (32 GB recommended), while this system has only 8 GB.',
    'ERROR: CPU architecture required is x86_64, found aarch64.',
    'ERROR: System requirements check failed.',
  ]);
  assert.ok(codes(r).includes('warning dfc/system-requirements'), said(r));
  assert.match(said(r), /requires 16 GB of RAM/);
  assert.match(said(r), /CPU architecture required is x86_64, found aarch64/);
});

test('a check log whose rows all passed says nothing', () => {
  const r = read([
    'HAILO System requirements check - log',
    '',
    'V | Available RAM (64 GB) is sufficient, and within recommendation (32 GB).',
    'V | CPU architecture x86_64 is supported.',
    'V | Required avx CPU flag is supported.',
    'V | GPU driver version is 550.',
  ]);
  assert.deepEqual(codes(r), []);
});

// pyhailort raises a status it has no class for as HailoRTException in its own words (dfc-corpus unseen3/28's log, and a
// user's notes, library file id 63137270447: `hailo_platform.pyhailort.pyhailort.HailoRTException: libhailort failed with
// error: 74`), with no HailoRT log line before it here.
test("pyhailort's `libhailort failed with error: N` is HailoRT status N", () => {
  const r = read(['hailo_platform.pyhailort.pyhailort.HailoRTException: libhailort failed with error: 74']);
  assert.deepEqual(codes(r), ['error hailort/out-of-physical-devices']);
});

// A sentence that quotes the exception ends it with its own full stop: the number is still the status (a README's
// troubleshooting line in the form of unseen29/70's comment, with another status: 69, network group not activated).
test('a sentence quoting `HailoRTStatusException: N.` is HailoRT status N', () => {
  const r = read(['Every call to infer() then fails with HailoRTStatusException: 69.']);
  assert.equal(r.diagnostics.length, 1, said(r));
  assert.notEqual(r.diagnostics[0].code, 'dfc/unrecognised-error');
  assert.match(r.diagnostics[0].message, /HAILO_NETWORK_GROUP_NOT_ACTIVATED\(69\)/);
});

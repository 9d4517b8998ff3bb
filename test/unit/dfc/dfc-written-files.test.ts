// Two rules made one (issue 30): a HEF and a HAR are said written by one rule, read clause by clause (markers.ts
// FILE_DONE), where a participle that describes the file (HailoRT's `HEF was compiled for Hailo8L device`), a tool's
// warning or an example file name says nothing of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const compile = (r: ReturnType<typeof read>) => r.stages.find((s) => s.name === 'compile')!.status;

const corpusLog = corpusLogLines;

test('a participle that describes a HEF is no word that this run compiled one', () => {
  // HailoRT's warnings on a device whose clock or arch differs from the HEF's (unseen7/15, unseen7/14), hailortcli
  // parse-hef's answer (unseen4/07), an author's sentence (unseen5/06): runtime logs, where no compile ran.
  for (const [part, prefix, words] of [
    ['unseen7', '15-', 'HEF was compiled assuming clock rate'],
    ['unseen7', '14-', 'HEF was compiled for Hailo8L device'],
    ['unseen4', '07-', 'Architecture HEF was compiled for'],
    ['unseen5', '06-', 'A HEF compiled for one arch'],
  ] as const) {
    const lines = corpusLog(part, prefix);
    assert.ok(
      lines.some((l) => l.includes(words)),
      `${part}/${prefix}: ${words}`,
    );
    assert.equal(compile(read(lines)), 'not-reached', `${part}/${prefix}`);
  }
  // Controls: the wrappers' own words still end a compile (unseen2/21's sweep line; a line naming its file).
  for (const line of ['HEF compiled successfully: 9123456 bytes', 'Generated: best.hef (9.3MB)', 'yolov8n.hef was written']) {
    const r = read(['[info] Compiling network', line]);
    assert.equal(compile(r), 'ok', line);
    assert.equal(r.outcome, 'success', line);
  }
});

test("one rule for a HEF and a HAR: a negation in another clause is not this one's, an example file is not the file", () => {
  // The HAR's clause after a negated one (unseen22/41), said of a HEF: the rule was the HAR's alone.
  const r = read(['[info] Compiling network', 'Not blocking — the HEF was written normally.']);
  assert.equal(compile(r), 'ok', JSON.stringify(r.stages));
  // A wrapper's line naming an example file name, not the file it wrote (unseen5/05: the model zoo's own line names it).
  const lines = corpusLog('unseen5', '05-');
  assert.ok(lines.some((l) => l.includes('(for example `yolov8n_seg_hailo8.hef`)')));
  assert.deepEqual(
    read(lines)
      .saved.filter((s) => s.kind === 'hef')
      .map((s) => s.path),
    ['yolov8n_seg.hef'],
  );
  // Controls, both kinds: negated or conditioned in its own clause, or at a tool's warning or error level.
  for (const line of [
    'The HEF was not written.',
    'If the HEF was written, run it next.',
    '[warning] HEF was compiled for Hailo8L device',
    '[error] x.hef written',
  ]) {
    assert.equal(compile(read(['[info] Compiling network', line])), 'running', line);
  }
});

test("HailoRT's warning about a HEF compiled for another device is no compile of this run, and no end of it", () => {
  // A Raspberry Pi's hailort.log (unseen13/56): a VDevice, HailoRT's warning `HEF was compiled for Hailo8L device, while
  // the device itself is Hailo8`, the HEF configured, no error. Its thread says the application worked, but nothing in
  // the log says so (dfc-log-files.test.ts: HailoRT's info lines are the library's steps): incomplete, not a compile that
  // ended. The same warning beside the application's own word of success still ends the run.
  const lines = corpusLog('unseen13', '56-');
  assert.ok(lines.some((l) => l.includes('HEF was compiled for Hailo8L device')));
  const r = read(lines);
  assert.equal(compile(r), 'not-reached');
  assert.equal(r.outcome, 'incomplete');
  assert.equal(read([...lines, 'Inference was successful!']).outcome, 'success');
});

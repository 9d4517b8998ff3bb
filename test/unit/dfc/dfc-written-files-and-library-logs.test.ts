// Two rules made one and one end learned (issue 30): a HEF and a HAR are said written by one rule, read clause by clause
// (markers.ts FILE_DONE), where a participle that describes the file says nothing of this run; and HailoRT's own log
// file, which writes no line when its application ends well, ends its run at the HEF configured with no error after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { DFC_CORPUS } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const compile = (r: ReturnType<typeof read>) => r.stages.find((s) => s.name === 'compile')!.status;

/** A corpus case's log, as lines. */
function corpusLog(part: string, prefix: string): string[] {
  const dir = readdirSync(join(DFC_CORPUS, part)).find((n) => n.startsWith(prefix));
  assert.ok(dir, `${part}/${prefix}`);
  return readFileSync(join(DFC_CORPUS, part, dir, 'run.log'), 'utf8')
    .replace(/\n$/, '')
    .split('\n');
}

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

test("HailoRT's own log file ends its run at the HEF configured, with no error after it", () => {
  // A Raspberry Pi's hailort.log (unseen13/56): a VDevice, the HEF configured, no error; the application's run worked
  // (its collector's reading, from the thread). HailoRT writes nothing when such a run ends.
  const lines = corpusLog('unseen13', '56-');
  assert.ok(lines[lines.length - 1].includes('Configuring HEF on VDevice took'));
  assert.equal(read(lines).outcome, 'success');
  // Controls: the same file cut mid-record, or in its timestamp (as unseen14/61's and unseen20/39's were published), or
  // without the configure.
  const last = lines[lines.length - 1];
  assert.equal(read([...lines.slice(0, -1), last.slice(0, 70)]).outcome, 'incomplete');
  assert.equal(read([...lines.slice(0, -1), last.slice(0, 13)]).outcome, 'incomplete');
  assert.equal(read(lines.filter((l) => !l.includes('Configuring HEF'))).outcome, 'incomplete');
  // An error after the configure fails the run (unseen15/57's memory-size error).
  assert.equal(read(corpusLog('unseen15', '57-')).outcome, 'failed');
});

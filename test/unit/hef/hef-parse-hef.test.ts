// Our text report imitates `hailortcli parse-hef --parse-streams`: for every corpus HEF the real
// hailortcli 5.2.0 printed (../shared/corpus/hef/libhailort-5.2.0/*.parse-hef.txt, line 1 its exit
// code), its lines appear in ours, in order and unchanged; where it exited non-zero we exit 2 too.
// No "HEF Compiler Version" line where hailortcli printed none (the header has only the string).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, describeHef, loadsInTarget, readHef } from '../../../server/src/core/hef';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const corpus = sharedPath('corpus', 'hef');
const real = sharedPath('corpus', 'hef', 'libhailort-5.2.0');
const skip = corpus && real ? false : SKIP_NO_SHARED;
const NAMES = [
  'arcface_mobilefacenet',
  'darrr05__New1V2',
  'mnist_model_v_0cd51b2',
  'seeed10h__face_landmarks_lite',
  'seeed10h__lightface_slim',
  'seeed10h__mspn_regnetx_800mf',
];

test('parse-hef: every line hailortcli 5.2.0 printed is in our text, in order; the exit codes agree', { skip }, async () => {
  for (const name of NAMES) {
    const [first, ...printed] = readFileSync(join(real!, `${name}.parse-hef.txt`), 'utf8')
      .replace(/\n$/, '')
      .split('\n');
    const realExit = Number(/^exit (\d+)$/.exec(first)![1]);
    const report = await readHef(bufferSource(readFileSync(join(corpus!, `${name}.hef`)), name));
    assert.equal(loadsInTarget(report) ? 0 : 2, realExit === 0 ? 0 : 2, `${name}: hailortcli exited ${realExit}`);
    if (realExit !== 0) continue;
    const ours = describeHef(report, undefined, { streams: true }).split('\n');
    let at = 0;
    for (const line of printed) {
      const found = ours.indexOf(line, at);
      assert.ok(found >= 0, `${name}: hailortcli's line not in ours (after line ${at}): ${JSON.stringify(line)}`);
      at = found + 1;
    }
    const compiler = ours.filter((l) => l.startsWith('HEF Compiler Version'));
    assert.deepEqual(
      compiler,
      printed.filter((l) => l.startsWith('HEF Compiler Version')),
      name,
    );
  }
});

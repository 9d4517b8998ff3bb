// The release catalogue and the rule for a release it does not list (issue 36): any HailoRT or DFC
// version is judged by the nearest release of its line, plus what later entries are known to change,
// and says so. Expected wording from the issue; the facts are the catalogue's cited records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bufferSource, readHef } from '../../../server/src/core/hef';
import { hefRefusal, verdictForRuntime } from '../../../server/src/core/device/hefGate';
import { buildHef } from '../../helpers/hefBuilder';
import { DFC_RELEASES, HAILORT_RELEASES, judgeRelease, parseRelease, releaseHas, releaseUsageError } from '../../../server/src/core/releases';

test('releases: 5.3.2 is judged by 5.2 plus what 5.3 changes; 5.5.0 and 4.25.1 by the newest entries, saying nothing newer is on record', () => {
  assert.equal(
    judgeRelease('hailort', '5.3.2', ['hef']).sentence,
    "HailoRT 5.3.2: judged by 5.2's rules plus what 5.3 is known to change: HEFs from 5.2 load.",
  );
  const five = judgeRelease('hailort', '5.5.0');
  assert.equal(five.basis, '5.2.0');
  assert.deepEqual(
    five.changes.map((c) => c.version),
    ['5.3.0', '5.4.0'],
  );
  assert.match(five.sentence, /nothing newer than 5\.4 is on record, so a change 5\.5 makes is not known here\.$/);
  const four = judgeRelease('hailort', '4.25.1');
  assert.equal(four.basis, '4.23.0');
  assert.match(four.sentence, /^HailoRT 4\.25\.1: judged by 4\.23's rules plus what 4\.24 is known to change: loads HEFs from DFC 3\.34/);
  assert.equal(judgeRelease('hailort', '5.2.0').sentence, 'HailoRT 5.2.0: judged by its own rules.');
  assert.match(judgeRelease('hailort', '6.0.0').sentence, /no 6\.x release is on record; judged by the 5\.x line/);
  assert.match(judgeRelease('hailort', '4.17.0').sentence, /older than the first release read here \(4\.18\.0\)/);
  assert.match(judgeRelease('dfc', '3.35.0').sentence, /judged by 3\.34's rules; nothing newer than 3\.34 is on record/);
});

test('releases: keyed rules hold from their release on, in newer releases of the line too', () => {
  assert.equal(releaseHas('hailort', '5.3.0', 'device-node-h1x'), true);
  assert.equal(releaseHas('hailort', '5.9.1', 'device-node-h1x'), true);
  assert.equal(releaseHas('hailort', '5.2.0', 'device-node-h1x'), false);
  assert.equal(releaseHas('hailort', '5.4.0', 'genai-one-per-device'), true);
  assert.equal(releaseHas('hailort', '5.3.2', 'genai-one-per-device'), false);
  assert.equal(releaseHas('hailort', '4.24.0', 'hef-dfc-3.34'), true);
  assert.equal(releaseHas('hailort', '4.23.0', 'hef-dfc-3.34'), false);
  assert.equal(releaseHas('dfc', '3.34.2', 'compile-8-family-only'), true);
  assert.equal(releaseHas('dfc', '5.4.0', 'compile-1x-family-only'), true);
});

test('releases: every entry cites its evidence; versions parse leniently; only a non-version is a usage error', () => {
  for (const r of [...HAILORT_RELEASES, ...DFC_RELEASES]) {
    assert.ok(parseRelease(r.version), r.version);
    for (const rule of r.rules) assert.ok(rule.evidence.length > 10, `${r.version}: ${rule.text}`);
  }
  assert.deepEqual(parseRelease('5.3'), { major: 5, minor: 3, revision: 0 });
  assert.deepEqual(parseRelease('v4.24.0-1'), { major: 4, minor: 24, revision: 0 });
  assert.equal(releaseUsageError('hailort', '5.5.0'), undefined);
  assert.equal(releaseUsageError('hailort', 'latest'), "'latest' is not a HailoRT version: give it as X.Y.Z, e.g. 4.23.0 or 5.3.2.");
});

// Run on Device's check (the client's and the worker's hefGate) takes the installed HailoRT as it is:
// a 4.24 / 5.3 library is judged, never refused for being new.
test('releases: the device gate judges any installed HailoRT — a DFC 3.34 HEF is refused by 4.23.0 and opened by 4.24.0 / 4.25.1', async () => {
  const bytes = await buildHef({
    version: 1,
    hwArch: 1,
    sdk: [3, 34, 0],
    ccwsSize: 256,
    extensions: [0, 3, 12, 26],
    networkGroups: [{ name: 'n', inputs: [{ name: 'n/in', shape: [8, 8, 3] }], outputs: [{ name: 'n/out', shape: [4, 4, 8] }] }],
  });
  const report = await readHef(bufferSource(bytes, 'dfc334.hef'));
  const old = hefRefusal(report, '4.23.0', 'dfc334.hef');
  assert.ok(old);
  assert.match(old.sentence, /HEFs from DFC 3\.34 on need HailoRT 4\.24 or newer/);
  assert.equal(hefRefusal(report, '4.24.0', 'dfc334.hef'), undefined);
  assert.equal(hefRefusal(report, '4.25.1', 'dfc334.hef'), undefined);
  assert.match(
    verdictForRuntime(report, '4.25.1').judgedBy ?? '',
    /^HailoRT 4\.25\.1: judged by 4\.23's rules plus what 4\.24 is known to change: loads HEFs from DFC 3\.34/,
  );
});

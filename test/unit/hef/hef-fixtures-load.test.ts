// The guard: every HEF the project commits or its test generators build (test/helpers/allTestHefs.ts)
// opens in the HailoRT it is for, by our structural verdict — in 5.1–5.2 (file and buffer mode),
// and a Hailo-8-family HEF also in 4.21–4.23 and in every older 4.x line that reads its container
// version — unless it is built to fail, when it fails exactly as the real libhailort 5.2.0 answered
// (native/README.md records the oracle run over the same files). A new fixture the runtime would
// refuse or crash on fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { bufferSource, readHef } from '../../../server/src/core/hef';
import { RUNTIME_LINES, verdictFor, type RuntimeVerdict } from '../../../server/src/core/hef/verdict';
import { allTestHefs } from '../../helpers/allTestHefs';
import { tempDir } from '../../fakes/fakeHailort';

const line = (id: string) => RUNTIME_LINES.find((l) => l.id === id)!;
/** hw_arch values of the Hailo-8 family (HailoRT 4.x); the DFC writes 1 for hailo8, 3 for hailo8l. */
const HAILO8_FAMILY = new Set([0, 1, 2, 3, 100, 101, 102]);
const answer = (v: RuntimeVerdict) => (v.outcome === 'loads' ? 'loads' : v.outcome === 'crashes' ? 'crashes' : v.status!);
const said = (v: RuntimeVerdict) =>
  `${v.label} (${v.mode}): ${answer(v)} — ${v.reason}${v.others?.length ? ` [${v.others.map((o) => `${o.version}: ${o.status ?? o.outcome}`).join(', ')}]` : ''}`;

test('guard: every committed and built test HEF opens in the HailoRT it is for (or fails exactly as built to)', async () => {
  const scratch = tempDir('hef-guard');
  const hefs = await allTestHefs(scratch).finally(() => rmSync(scratch, { recursive: true, force: true }));
  assert.ok(hefs.length >= 60, `only ${hefs.length} HEFs found`);
  assert.ok(
    hefs.some((h) => h.name.includes('hailo8l')),
    'the Hailo-8L fixtures are among them',
  );
  const wrong: string[] = [];
  let fourX = 0;
  for (const h of hefs) {
    const report = await readHef(bufferSource(h.bytes, h.name));
    for (const mode of ['file', 'buffer'] as const) {
      const v = verdictFor(report, line('5.1-5.2'), mode);
      const expected = h.fails ?? 'loads';
      if (answer(v) !== expected || v.others?.length) wrong.push(`${h.name}: expected ${expected}; ${said(v)}`);
    }
    const arch = report.header?.hwArch.id;
    const container = report.container?.version;
    if (h.fails !== undefined || arch === undefined || container === undefined || !HAILO8_FAMILY.has(arch)) continue;
    fourX++;
    // 4.18–4.19 read container versions 0–1, 4.20 0–2, 4.21 on 0–3.
    const lines = ['4.21-4.23', ...(container <= 2 ? ['4.20'] : []), ...(container <= 1 ? ['4.18-4.19'] : [])];
    for (const id of lines) {
      const v = verdictFor(report, line(id));
      if (v.outcome !== 'loads' || v.others?.length) wrong.push(`${h.name} (hw_arch ${arch}, V${container}): ${said(v)}`);
    }
  }
  assert.ok(fourX >= 5, `only ${fourX} Hailo-8-family HEFs checked against 4.x`);
  assert.deepEqual(wrong, []);
});

// The HAR view's "Write 16-bit Line" checks the edited script as the editor does (har/scriptTarget.ts):
// the architecture from the full inference — a HEF beside the script before the HAR's hw_arch, then a
// folder named after an architecture, then the setting — and the script's model. The checker's answer
// depends on the architecture through rules with their own evidence: `precision_mode=a16_w8` is the
// DFC 5.3.0 fault on hailo10h (docs/alls-rules.md), so the check run on a hailo10h HEF's script must
// say it while the same script beside only the hailo8l HAR must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptTarget } from '../../../server/src/core/har/scriptTarget';
import { sixteenBitEdit } from '../../../server/src/core/alls/noisyLayers';
import { buildHef } from '../../helpers/hefBuilder';
import { archHefSpec } from '../../helpers/inlineHefs';
import { repoRoot } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const SCRIPT = 'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])\n';
const A16_W8 = `${SCRIPT}quantization_param(conv1, precision_mode=a16_w8)\n`;

/** A tiny HEF compiled "for" hw_arch `id` (ProtoHEFHeader.hw_arch): 103 is hailo10h/hailo15h, 1 hailo8. */
const hefFor = (id: number) => buildHef(archHefSpec(id));

function folder(dir: string, sub: string, files: Record<string, string | Uint8Array>): string {
  const d = join(dir, sub);
  mkdirSync(d, { recursive: true });
  copyFileSync(join(FIX, 'tinycnn_quantized.har'), join(d, 'tinycnn.har')); // hw_arch hailo8l
  writeFileSync(join(d, 'tinycnn.alls'), SCRIPT);
  for (const [n, b] of Object.entries(files)) writeFileSync(join(d, n), b);
  return join(d, 'tinycnn.alls');
}

const fault = (ds: { code: string }[]) => ds.filter((d) => d.code === 'alls/dfc-known-fault').length;

test('script target: a HEF beside the script decides before the HAR hw_arch; the checker runs for that architecture', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'script-target-'));
  try {
    const withHef = await scriptTarget(folder(dir, 'hef', { 'tinycnn.hef': await hefFor(103) }), { hwArch: 'hailo8' });
    assert.deepEqual([withHef.arch.arch, withHef.arch.source, withHef.arch.from], ['hailo10h', 'hef', 'from tinycnn.hef beside this script']);
    assert.match(withHef.arch.why, /tinycnn\.har beside this script says hailo8l; the compiled HEF wins/);
    assert.equal(fault(withHef.check(A16_W8)), 1, 'a16_w8 is the hailo10h fault');

    const harOnly = await scriptTarget(folder(dir, 'har', {}), { hwArch: 'hailo10h' });
    assert.deepEqual([harOnly.arch.arch, harOnly.arch.source], ['hailo8l', 'har']);
    assert.equal(fault(harOnly.check(A16_W8)), 0, 'not on the hailo8l the HAR says (the setting hailo10h is not used)');

    // the model is the script's: a layer the HAR lacks is an unknown layer
    assert.equal(harOnly.model?.networkName, 'tinycnn');
    assert.deepEqual(
      harOnly.check(`${SCRIPT}quantization_param(conv99, precision_mode=a16_w16)\n`).map((d) => d.code),
      ['alls/unknown-layer'],
    );
    // the 16-bit line is checked with it and written with no new error
    const edit = sixteenBitEdit(SCRIPT, ['conv3', 'deconv1'], harOnly.check);
    assert.ok('line' in edit, JSON.stringify(edit));
    assert.deepEqual(
      harOnly.check(SCRIPT + edit.insert).filter((d) => d.severity === 'error'),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('script target: with no HEF or HAR the folder then the setting decide; hailo.model.har names the model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'script-target-'));
  try {
    const zoo = join(dir, 'hailo10h', 'base');
    mkdirSync(zoo, { recursive: true });
    writeFileSync(join(zoo, 'm.alls'), SCRIPT);
    const byFolder = await scriptTarget(join(zoo, 'm.alls'), { hwArch: 'hailo8l' });
    assert.deepEqual([byFolder.arch.arch, byFolder.arch.source], ['hailo10h', 'folder']);
    assert.equal(fault(byFolder.check(A16_W8)), 1);
    assert.equal(byFolder.model, undefined);

    const plain = join(dir, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'm.alls'), SCRIPT);
    const bySetting = await scriptTarget(join(plain, 'm.alls'), { hwArch: 'hailo10h' });
    assert.deepEqual([bySetting.arch.arch, bySetting.arch.source], ['hailo10h', 'setting']);
    // the setting names a HAR elsewhere: its hw_arch (hailo8l) is the script's, as in the editor
    const named = await scriptTarget(join(plain, 'm.alls'), { hwArch: 'hailo10h', harPath: join(FIX, 'tinycnn_quantized.har') });
    assert.deepEqual([named.arch.arch, named.arch.source], ['hailo8l', 'har']);
    assert.equal(fault(named.check(A16_W8)), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

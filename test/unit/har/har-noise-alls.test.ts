// The script side of a noise analysis: with `<net>.noise.json` beside the HAR, the script gets one
// information diagnostic naming the layers that need more bits, with a quick fix appending the
// 16-bit quantization_param line; applying it leaves no such diagnostic and no new error; layers
// the script already gives a16_* are not named again; a fix the checker would reject (the script
// ends inside an open statement) is not offered. Layer hovers carry the SNR and the calibration set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkText } from '../../../server/src/core/alls/rules';
import { analyze } from '../../../server/src/core/alls/analysis';
import { hover } from '../../../server/src/core/alls';
import { noisyLayerDiagnostics } from '../../../server/src/core/alls/noisyLayers';
import { ModelResolver, readOnnxSide } from '../../../server/src/core/har/modelResolver';
import type { Diagnostic } from '../../../server/src/core/common/types';
import { repoRoot } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');

function applyFix(text: string, d: Diagnostic): string {
  const e = d.fixes![0].edits[0];
  const doc = analyze(text);
  const a = doc.lines.offsetAt(e.range.start);
  const b = doc.lines.offsetAt(e.range.end);
  return text.slice(0, a) + e.newText + text.slice(b);
}

async function withModel(run: (dir: string, resolver: ModelResolver) => Promise<void>, noise = true) {
  const dir = mkdtempSync(join(tmpdir(), 'noise-alls-'));
  try {
    copyFileSync(join(FIX, 'tinycnn_quantized.har'), join(dir, 'tinycnn.har'));
    if (noise) copyFileSync(join(FIX, 'tinycnn_quantized.noise.json'), join(dir, 'tinycnn.noise.json'));
    await run(dir, new ModelResolver(readOnnxSide));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SCRIPT = 'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])\nmodel_optimization_config(calibration, batch_size=1)\n';

test('noisy layers: one info diagnostic with the 16-bit quick fix; applied, the script is clean of it and of new errors', async () => {
  await withModel(async (dir, resolver) => {
    const model = (await resolver.resolve(join(dir, 'tinycnn.alls'))).index!;
    assert.deepEqual(
      model.noise!.chosen.map((c) => c.name),
      ['conv3', 'deconv1'],
    );
    const opts = { settings: { hwArch: 'hailo8l' }, model };
    const list = checkText(SCRIPT, opts);
    const d = list.filter((x) => x.code === 'alls/noisy-layers');
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'info');
    assert.equal(d[0].range.start.line, 0);
    assert.match(
      d[0].message,
      /conv3 6\.30 dB, deconv1 9\.70 dB need more bits .*simple analysis on 16 entries of the calibration set \(integers in 0–255 \(image pixels\)/,
    );
    assert.equal(d[0].fixes![0].title, 'Give 2 noisy layers 16 bits: quantization_param([conv3, deconv1], precision_mode=a16_w16)');
    const fixed = applyFix(SCRIPT, d[0]);
    assert.ok(fixed.endsWith('model_optimization_config(calibration, batch_size=1)\nquantization_param([conv3, deconv1], precision_mode=a16_w16)\n'), fixed);
    const after = checkText(fixed, opts);
    assert.deepEqual(
      after.filter((x) => x.code === 'alls/noisy-layers'),
      [],
    );
    assert.deepEqual(
      after.filter((x) => x.severity === 'error'),
      [],
    );
    // no final newline: the line goes on a line of its own
    const noNl = applyFix(
      SCRIPT.trimEnd(),
      checkText(SCRIPT.trimEnd(), opts).find((x) => x.code === 'alls/noisy-layers')!,
    );
    assert.match(noNl, /batch_size=1\)\nquantization_param\(\[conv3, deconv1\]/);
  });
});

test('noisy layers: a layer the script already gives a16 is not named again; a pattern counts', async () => {
  await withModel(async (dir, resolver) => {
    const model = (await resolver.resolve(join(dir, 'tinycnn.alls'))).index!;
    const opts = { settings: { hwArch: 'hailo8l' }, model };
    const one = checkText(`${SCRIPT}quantization_param(conv3, precision_mode=a16_w16)\n`, opts).find((x) => x.code === 'alls/noisy-layers')!;
    assert.match(one.fixes![0].title, /Give deconv1 16 bits: quantization_param\(\[deconv1\], precision_mode=a16_w16\)/);
    assert.doesNotMatch(one.message, /conv3 6\.30/);
    const none = checkText(`${SCRIPT}quantization_param({*conv*}, precision_mode=a16_w16)\n`, opts).filter((x) => x.code === 'alls/noisy-layers');
    assert.deepEqual(none, []);
    // a8_w8 is not 16 bits: still named
    const still = checkText(`${SCRIPT}quantization_param([conv3], precision_mode=a8_w8)\n`, opts).find((x) => x.code === 'alls/noisy-layers')!;
    assert.match(still.message, /conv3 6\.30 dB/);
  });
});

test('noisy layers: the offer follows the checker — an error the line adds withholds it (said why); an error already there does not', async () => {
  await withModel(async (dir, resolver) => {
    const model = (await resolver.resolve(join(dir, 'tinycnn.alls'))).index!;
    const doc = analyze(SCRIPT);
    const rejecting = () => [
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } }, severity: 'error' as const, code: 'alls/x', message: 'no' },
    ];
    const d = noisyLayerDiagnostics(doc, model.noise!, [], rejecting)[0];
    assert.equal(d.fixes, undefined);
    assert.match(d.message, /The 16-bit line is not offered: the checker rejects it here \(alls\/x: no\)/);
    // the real checker on a script that already has an error (an unclosed bracket): the line adds none, so it is offered
    const open = `${SCRIPT}quantization_param(conv1, precision_mode=a16_w16,\n`;
    const opts = { settings: { hwArch: 'hailo8l' }, model };
    const list = checkText(open, opts);
    assert.equal(list.filter((x) => x.severity === 'error').length, 1);
    const withFix = list.find((x) => x.code === 'alls/noisy-layers')!;
    assert.ok(withFix.fixes);
    assert.equal(checkText(applyFix(open, withFix), opts).filter((x) => x.severity === 'error').length, 1);
  });
});

test('noisy layers: no results beside the HAR, no diagnostic; the layer hover shows the SNR and the calibration set', async () => {
  await withModel(async (dir, resolver) => {
    const model = (await resolver.resolve(join(dir, 'tinycnn.alls'))).index!;
    assert.equal(model.noise, undefined);
    assert.deepEqual(
      checkText(SCRIPT, { settings: { hwArch: 'hailo8l' }, model }).filter((x) => x.code === 'alls/noisy-layers'),
      [],
    );
  }, false);
  await withModel(async (dir, resolver) => {
    const model = (await resolver.resolve(join(dir, 'tinycnn.alls'))).index!;
    const text = `${SCRIPT}quantization_param(conv3, precision_mode=a8_w8)\n`;
    const doc = analyze(text);
    const at = text.indexOf('conv3');
    const h = hover(doc, doc.lines.positionAt(at + 1), { model })!;
    assert.match(h.markdown, /\*\*Noise analysis\*\*: SNR 6\.30 dB at `output_layer1` — \*\*needs more bits\*\*: SNR 6\.30 dB ≤ 10 dB/);
    assert.match(h.markdown, /simple analysis on 16 entries of the calibration set/);
    writeFileSync(join(dir, 'tinycnn.noise.json'), 'not json');
    const broken = await resolver.resolve(join(dir, 'tinycnn.alls'));
    assert.equal(broken.index!.noise, undefined);
    assert.match(broken.problems.join(' '), /not valid JSON/);
  });
});

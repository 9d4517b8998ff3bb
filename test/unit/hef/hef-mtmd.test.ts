// The mtmd contract over the built fixtures: the passing encoder passes every rule; each failing
// fixture fails the rule it was built for (and only the ones that follow from it). The committed
// fixture bytes equal what the generator builds today.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bufferSource, checkMtmd, checkMtmdSource, readHef, readHefFile, fileSource } from '../../../server/src/core/hef';
import { parseConfig } from '../../../server/src/core/hef/mtmd';
import { FIXTURES, buildFixture, GOOD_CONFIG } from '../../helpers/hefBuilderFixtures';
import { repoRoot } from '../../helpers/shared';
import { utf8 } from '../../helpers/hefBuilder';

const fx = (name: string) => join(repoRoot, 'test', 'fixtures', 'hef', name);

async function contractOf(file: string, options = {}) {
  const src = await fileSource(file);
  try {
    const report = await readHef(src);
    return { report, mtmd: await checkMtmdSource(src, report, options) };
  } finally {
    await src.close();
  }
}

test('fixtures: committed bytes equal a fresh build (run test/fixtures/hef/generate.mjs after changing the builder)', async () => {
  for (const f of FIXTURES) {
    const built = await buildFixture(f);
    assert.ok(Buffer.from(built).equals(readFileSync(fx(f.file))), `${f.file} is stale`);
  }
  const pass = FIXTURES.find((f) => f.file === 'mtmd-pass.hef')!;
  assert.ok(Buffer.from(await buildFixture(pass)).equals(readFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef'))), 'examples/ is stale');
});

test('mtmd: the passing encoder passes every rule', async () => {
  const { report, mtmd } = await contractOf(fx('mtmd-pass.hef'), { textModelWidth: 10240 });
  assert.equal(report.problems.length, 0);
  assert.equal(mtmd.pass, true);
  assert.deepEqual(
    mtmd.rules.filter((r) => r.pass !== true).map((r) => `${r.id}: ${r.detail}`),
    [],
  );
  assert.deepEqual(
    mtmd.rules.map((r) => r.id),
    [
      'hef-opens',
      'arch-hailo10h',
      'four-outputs',
      'one-input',
      'outputs-same-shape',
      'config-embedded',
      'config-parses',
      'patch-size',
      'spatial-merge-size',
      'suffixes-all-slots',
      'suffixes-distinct',
      'outputs-have-suffix',
      'suffixes-resolve',
      'input-uint8-rgb',
      'input-divisible',
      'token-grid',
      'text-model-width',
    ],
  );
  assert.deepEqual(mtmd.config, GOOD_CONFIG);
  assert.deepEqual(mtmd.derived, {
    inputWidth: 512,
    inputHeight: 512,
    stride: 32,
    imageTokens: 256,
    outputTokens: 256,
    featuresPerStream: 2560,
    nEmbdInp: 10240,
  });
});

for (const f of FIXTURES.filter((x) => x.fails)) {
  test(`mtmd: ${f.file} fails '${f.fails}' — ${f.what}`, async () => {
    const { mtmd } = await contractOf(fx(f.file));
    assert.equal(mtmd.pass, false);
    const failed = mtmd.rules.filter((r) => r.pass === false).map((r) => r.id);
    assert.deepEqual(failed.sort(), [f.fails!, ...(f.alsoFails ?? [])].sort());
    const rule = mtmd.rules.find((r) => r.id === f.fails)!;
    assert.ok(rule.detail.length > 0);
  });
}

test("mtmd: llama.cpp's own error texts", async () => {
  const text = async (file: string, id: string) => (await contractOf(fx(file))).mtmd.rules.find((r) => r.id === id)!.llamaError;
  assert.equal(await text('mtmd-fail-four-outputs.hef', 'four-outputs'), 'HEF must have exactly 4 outputs, but got 3');
  assert.equal(await text('mtmd-fail-same-shape.hef', 'outputs-same-shape'), "output shape mismatch at 'qwen3vl_vit/deepstack_layer_1'");
  assert.equal(await text('mtmd-fail-config-embedded.hef', 'config-embedded'), "HEF is missing required external resource 'hailo-config.json'");
  assert.match((await text('mtmd-fail-config-parses.hef', 'config-parses'))!, /^failed to parse hailo-config.json: /);
  assert.equal(
    await text('mtmd-fail-suffixes-distinct.hef', 'suffixes-distinct'),
    "HailoVisionEncoder: deepstack_layer_2 suffix 'deepstack_layer_1' is already used by another layer in hailo-config.json",
  );
  assert.equal(
    await text('mtmd-fail-outputs-have-suffix.hef', 'outputs-have-suffix'),
    "HEF output stream 'qwen3vl_vit/pooler_output' has no entry in hailo-config.json",
  );
  assert.equal(await text('mtmd-fail-suffixes-all-slots.hef', 'suffixes-all-slots'), "[json.exception.out_of_range.403] key 'deepstack_layer_3' not found");
  assert.equal(await text('mtmd-fail-patch-size.hef', 'patch-size'), '[json.exception.type_error.302] type must be number, but is string');
  assert.match((await text('mtmd-fail-hef-opens.hef', 'hef-opens'))!, /^create_infer_model failed for '/);
});

test('mtmd: a hailo-config.json beside the HEF does not count, and the detail says so', async () => {
  const file = join(repoRoot, 'test', 'fixtures', 'hef', 'beside', 'encoder.hef');
  const besides = join(repoRoot, 'test', 'fixtures', 'hef', 'beside', 'hailo-config.json');
  const { mtmd } = await contractOf(file, { configBesideHef: besides });
  const r = mtmd.rules.find((x) => x.id === 'config-embedded')!;
  assert.equal(r.pass, false);
  assert.match(r.detail, /beside the HEF .* does not count/);
});

test('mtmd: text-model-width is checked only when configured', async () => {
  const without = await contractOf(fx('mtmd-pass.hef'));
  assert.equal(
    without.mtmd.rules.some((r) => r.id === 'text-model-width'),
    false,
  );
  const wrong = await contractOf(fx('mtmd-pass.hef'), { textModelWidth: 2560 });
  const r = wrong.mtmd.rules.find((x) => x.id === 'text-model-width')!;
  assert.equal(r.pass, false);
  assert.equal(r.llamaError, 'mismatch between text model (n_embd_inp = 2560) and HEF (n_embd_inp = 10240).');
});

test('mtmd: config edge cases follow nlohmann (BOM skipped, bad UTF-8 and non-objects rejected, fractions and 2^32 refused)', async () => {
  const report = await readHefFile(fx('mtmd-pass.hef'));
  const withConfig = (s: string | Uint8Array) => checkMtmd(report, { bytes: typeof s === 'string' ? utf8(s) : s });
  const rule = (m: ReturnType<typeof checkMtmd>, id: string) => m.rules.find((r) => r.id === id)!;

  const bom = withConfig('\ufeff' + JSON.stringify(GOOD_CONFIG));
  assert.equal(bom.pass, true, 'a UTF-8 BOM is skipped like nlohmann does');
  assert.equal(rule(withConfig(new Uint8Array([0x7b, 0xff, 0x7d])), 'config-parses').detail, 'invalid UTF-8');
  const arr = withConfig('[1, 2]');
  assert.equal(rule(arr, 'config-parses').pass, false);
  assert.match(rule(arr, 'config-parses').detail, /top level is array/);
  assert.equal(rule(arr, 'patch-size').pass, null, 'dependent rules are not checked, not failed');
  assert.equal(rule(withConfig(JSON.stringify({ ...GOOD_CONFIG, patch_size: 16.0 })), 'patch-size').pass, true, '16.0 reads as 16');
  assert.equal(rule(withConfig(JSON.stringify({ ...GOOD_CONFIG, patch_size: 16.5 })), 'patch-size').pass, false);
  assert.equal(rule(withConfig(JSON.stringify({ ...GOOD_CONFIG, patch_size: 2 ** 32 })), 'patch-size').pass, false);
  const zero = withConfig(JSON.stringify({ ...GOOD_CONFIG, patch_size: 0 }));
  assert.equal(rule(zero, 'patch-size').pass, true, '0 is a non-negative integer');
  assert.equal(rule(zero, 'input-divisible').pass, false, 'but a zero stride cannot tile the input');
  const notObj = withConfig(JSON.stringify({ ...GOOD_CONFIG, encoder_output_layers_names_suffixes: ['a'] }));
  assert.match(rule(notObj, 'suffixes-all-slots').llamaError!, /type_error.304/);
  const numSlot = withConfig(
    JSON.stringify({ ...GOOD_CONFIG, encoder_output_layers_names_suffixes: { ...GOOD_CONFIG.encoder_output_layers_names_suffixes, deepstack_layer_1: 7 } }),
  );
  assert.equal(rule(numSlot, 'suffixes-all-slots').llamaError, '[json.exception.type_error.302] type must be string, but is number');
  assert.deepEqual(parseConfig(utf8('{"a":1}')), { value: { a: 1 } });
});

test('mtmd: a HEF cut after its body still opens in HailoRT 5.x (it hashes only the body), and the rest is evaluated', async () => {
  const bytes = readFileSync(fx('mtmd-pass.hef'));
  const cut = bytes.subarray(0, 4000); // body intact, CCWs and resources gone
  const src = bufferSource(cut);
  const report = await readHef(src);
  const mtmd = await checkMtmdSource(src, report);
  const r = (id: string) => mtmd.rules.find((x) => x.id === id)!;
  // HailoRT 5.1+ checks only the proto XXH3 of a V3 file (real libhailort 5.2.0: the corpus
  // mutants cut inside the CCWs open), so hef-opens passes and says what the device would get.
  assert.equal(r('hef-opens').pass, true);
  assert.match(r('hef-opens').detail, /cut inside its config words \(4000 of \d+ bytes\).*computes garbage/);
  assert.equal(mtmd.pass, false);
  assert.equal(r('four-outputs').pass, true);
  assert.equal(r('config-embedded').pass, false);
  assert.match(r('config-embedded').detail, /beyond the end of the file/);
});

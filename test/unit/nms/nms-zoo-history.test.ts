// Precision against history: every NMS config the model zoo ever released, alone, against the JSON
// schema we ship, and with every script of every release that named it (632 pairs,
// test/fixtures/nms/zoo-history, built by scripts/nms-zoo-history.mjs), gives no finding at all;
// so do the three detectors of ../shared/corpus/nms-zoo against their HN stand-ins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze } from '../../../server/src/core/alls/analysis';
import { parseNmsConfig } from '../../../server/src/core/nms/config';
import { checkNms, familyOfConfig, familyOfMetaArch } from '../../../server/src/core/nms/checks';
import { nmsModelFromIndex } from '../../../server/src/core/nms/model';
import { nmsCalls } from '../../../server/src/core/nms/script';
import { DETECTORS, detectorIndex } from '../../helpers/nmsDetectors';
import { repoRoot, sharedPath, sharedRoot, skipUnless } from '../../helpers/shared';

const dir = join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history');
const configs = readdirSync(join(dir, 'configs')).sort();
const pairs = readFileSync(join(dir, 'pairs.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => {
    const [tag, scriptPath, scriptBlob, configName, configBlob] = l.split('\t');
    return { tag, scriptPath, scriptBlob, configName, configBlob };
  });
const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'nms-config.schema.json'), 'utf8')) as object;

test('the fixture set holds every released config version and its pairs', () => {
  assert.equal(configs.length, 154);
  assert.equal(pairs.length, 632);
  // Releases before v2.11 named configs by $HMZ_DATA paths (downloaded with the model, not in git).
  assert.deepEqual(
    [...new Set(pairs.map((p) => p.tag))],
    ['v2.11', 'v2.12', 'v2.13', 'v2.14', 'v2.15', 'v2.16', 'v2.17', 'v2.18', 'v5.0.0', 'v5.1.0', 'v5.2.0'],
  );
});

test('every released NMS config validates against the shipped schema', async () => {
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: 'hailo://nms-config.schema.json', fileMatch: ['*.json'], schema }] });
  const bad: string[] = [];
  for (const f of configs) {
    const doc = TextDocument.create(`file:///zoo/${f}`, 'json', 1, readFileSync(join(dir, 'configs', f), 'utf8'));
    const diags = await ls.doValidation(doc, ls.parseJSONDocument(doc));
    if (diags.length) bad.push(`${f}: ${diags.map((d) => d.message).join('; ')}`);
  }
  assert.deepEqual(bad, []);
  // …and the schema is not vacuous: the misspelt key and the string class count of a hand edit fail.
  const wrong = TextDocument.create(
    'file:///zoo/x_nms_config.json',
    'json',
    1,
    '{"classes": "1", "nms_score_th": 0.2, "bbox_decoders": [{"w": [10], "stride": 8}]}',
  );
  const msgs = (await ls.doValidation(wrong, ls.parseJSONDocument(wrong))).map((d) => d.message);
  assert.equal(msgs.length, 3, msgs.join('; '));
});

test('every released config alone gives no finding', () => {
  const bad: string[] = [];
  for (const f of configs) {
    const doc = parseNmsConfig(readFileSync(join(dir, 'configs', f), 'utf8'));
    assert.ok(doc.isObject && !doc.syntaxError, f);
    assert.ok(familyOfConfig(doc), `${f}: the decoder keys name a family`);
    const found = checkNms({ config: { name: f, doc } });
    if (found.length) bad.push(`${f}: ${found.map((x) => x.message).join('; ')}`);
  }
  assert.deepEqual(bad, []);
});

const history = sharedRoot() ? sharedPath('corpus', 'alls-history') : undefined;
test('every released script with the config its release held gives no finding', { skip: skipUnless(history, '../shared/corpus/alls-history') }, () => {
  const bad: string[] = [];
  let checked = 0;
  for (const p of pairs) {
    const script = analyze(readFileSync(join(history!, `${p.scriptBlob}.alls`), 'utf8'));
    const calls = nmsCalls(script);
    assert.equal(calls.length, 1, p.scriptPath);
    const call = calls[0];
    assert.ok(call.metaArch && familyOfMetaArch(call.metaArch.value), `${p.tag} ${p.scriptPath}: a known meta_arch`);
    const doc = parseNmsConfig(readFileSync(join(dir, 'configs', `${p.configBlob}.json`), 'utf8'));
    const found = checkNms({ config: { name: p.configName, doc }, script: { name: p.scriptPath, call } });
    checked++;
    if (found.length) bad.push(`${p.tag} ${p.scriptPath} + ${p.configName}: ${found.map((x) => `${x.code} ${x.message}`).join('; ')}`);
  }
  assert.equal(checked, 632);
  assert.deepEqual(bad, []);
});

const nmsZoo = sharedRoot() ? sharedPath('corpus', 'nms-zoo') : undefined;
test('the nms-zoo detectors with their scripts and HN stand-ins give no finding', { skip: skipUnless(nmsZoo, '../shared/corpus/nms-zoo') }, () => {
  for (const [net, configName] of [
    ['yolov8n', 'yolov8n_nms_config.json'],
    ['yolov5s', 'yolov5s_nms_config.json'],
    ['yolox_s_leaky', 'nms_config_yolox_s_leaky.json'],
  ] as const) {
    const call = nmsCalls(analyze(readFileSync(join(nmsZoo!, `${net}.alls`), 'utf8')))[0];
    const doc = parseNmsConfig(readFileSync(join(nmsZoo!, configName), 'utf8'));
    const model = nmsModelFromIndex(detectorIndex(DETECTORS[net]));
    assert.deepEqual(
      checkNms({ config: { name: configName, doc }, script: { name: `${net}.alls`, call }, model }).map((f) => f.message),
      [],
      net,
    );
  }
});

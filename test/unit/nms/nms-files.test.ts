// Which files are NMS configs by name: package.json's jsonValidation patterns (what VS Code's JSON
// language validates with the schema) are the server's NMS_CONFIG_FILE_MATCH, and every path the
// model zoo ever kept a config at matches; other JSON files of a project do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NMS_CONFIG_FILE_MATCH, isNmsConfigName } from '../../../server/src/core/nms/files';
import { looksLikeLabelsFile } from '../../../server/src/core/nms/labels';
import { NMS_CODES } from '../../../server/src/core/nms/codes';
import { repoRoot } from '../../helpers/shared';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { jsonValidation: { fileMatch: string[]; url: string }[] };
  activationEvents: string[];
};

test("package.json's jsonValidation is the server's list, and points at the shipped schema", () => {
  const nms = pkg.contributes.jsonValidation.filter((j) => j.url === './schemas/nms-config.schema.json');
  assert.deepEqual(nms, [{ fileMatch: [...NMS_CONFIG_FILE_MATCH], url: './schemas/nms-config.schema.json' }]);
  assert.ok(readFileSync(join(repoRoot, 'schemas', 'nms-config.schema.json')).length > 0);
  assert.ok(readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').includes('!schemas/*.json'), 'the schema is packaged');
});

test('every path the model zoo kept an NMS config at is one by name; other JSON is not', () => {
  const sources = readFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'SOURCES.md'), 'utf8');
  const paths = [...new Set([...sources.matchAll(/`([^`]+\/postprocess_config\/[^`]+\.json)`/g)].map((m) => m[1]))];
  assert.ok(paths.length >= 95, String(paths.length));
  assert.deepEqual(
    paths.filter((p) => !isNmsConfigName(p)),
    [],
  );
  // Outside the zoo layout the name alone decides (the zoo's own names, moved).
  for (const n of [
    'yolov8n_nms_config.json',
    'nms_config_yolox_s_leaky.json',
    'yolov5xs_wo_spp_nms_config_1class.json',
    'mobilenet_ssd_nms_postprocess_config.json',
  ])
    assert.ok(isNmsConfigName(`/work/${n}`), n);
  for (const n of ['package.json', 'tsconfig.json', 'labels.json', 'coco_names.json', 'hailo-config.json', 'settings/detector.json'])
    assert.ok(!isNmsConfigName(`/work/${n}`), n);
});

test('labels files by name', () => {
  for (const n of ['labels.json', 'barcode-labels.json', 'coco_labels.txt', 'coco.names', 'Labels.JSON']) assert.ok(looksLikeLabelsFile(n), n);
  for (const n of ['yolov8n_nms_config.json', 'classes.csv', 'label_studio.py']) assert.ok(!looksLikeLabelsFile(n), n);
});

test('docs/nms.md lists exactly the codes the NMS checks emit, with their severities', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'nms.md'), 'utf8');
  const severities = doc.slice(doc.indexOf('## Severities'));
  const rows = new Map([...severities.matchAll(/^\| `(nms\/[\w-]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()]));
  assert.deepEqual([...rows.keys()].sort(), Object.keys(NMS_CODES).sort());
  for (const [code, c] of Object.entries(NMS_CODES)) assert.equal(rows.get(code), c.severity, code);
  // …and the sources use no other code.
  const used = new Set<string>();
  for (const f of ['checks.ts', 'bundle.ts'])
    for (const m of readFileSync(join(repoRoot, 'server', 'src', 'core', 'nms', f), 'utf8').matchAll(/'(nms\/[\w-]+)'/g)) used.add(m[1]);
  for (const m of readFileSync(join(repoRoot, 'server', 'src', 'lsp', 'nmsService.ts'), 'utf8').matchAll(/'(nms\/[\w-]+)'/g)) used.add(m[1]);
  assert.deepEqual(
    [...used].filter((c) => !NMS_CODES[c]),
    [],
  );
  assert.deepEqual(
    Object.keys(NMS_CODES).filter((c) => !used.has(c)),
    [],
  );
});

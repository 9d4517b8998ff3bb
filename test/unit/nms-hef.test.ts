// The HEF side of the NMS checks: our reader decodes the NMS op's bbox decoders (hef.proto
// ProtoHEFYolov8NmsOp: decoders by pad index, regression_length) from HEFs built by the test
// builder, and the checks compare them with the zoo's yolov8n config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, readHef } from '../../server/src/hef';
import { parseNmsConfig } from '../../server/src/nms/config';
import { checkNms } from '../../server/src/nms/checks';
import { nmsHefFacts } from '../../server/src/nms/hefFacts';
import { yolov8nHef } from '../helpers/nmsDetectors';
import { repoRoot } from '../helpers/shared';

const YOLOV8N = readFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'configs', '42a2e6e16ac3d051df56c5d5fc6f7cec35376143.json'), 'utf8');

async function facts(bytes: Uint8Array) {
  const report = await readHef(bufferSource(bytes));
  assert.deepEqual(
    report.problems.filter((p) => p.severity === 'error').map((p) => p.message),
    [],
  );
  return nmsHefFacts('yolov8n.hef', report.networkGroups[0]);
}

test("the YOLOv8 op's values and decoders are read from the HEF", async () => {
  const f = await facts(await yolov8nHef());
  assert.equal(f.kind, 'op');
  assert.equal(f.opType, 'yolov8');
  assert.equal(f.classes, 80);
  assert.equal(f.outputClasses, 80);
  assert.equal(f.maxProposalsPerClass, 100);
  assert.equal(f.regressionLength, 16);
  assert.deepEqual(f.imageDims, [640, 640]);
  assert.deepEqual(f.decoders, [
    { stride: 8, layers: ['yolov8n/conv41', 'yolov8n/conv42'] },
    { stride: 16, layers: ['yolov8n/conv52', 'yolov8n/conv53'] },
    { stride: 32, layers: ['yolov8n/conv62', 'yolov8n/conv63'] },
  ]);
  assert.deepEqual(checkNms({ config: { name: 'yolov8n_nms_config.json', doc: parseNmsConfig(YOLOV8N) }, hef: f }), []);
});

test('a HEF compiled for 1 class against the 80-class config: classes and the decoder count', async () => {
  const f = await facts(await yolov8nHef({ classes: 1, regressionLength: 8 }));
  const found = checkNms({ config: { name: 'yolov8n_nms_config.json', doc: parseNmsConfig(YOLOV8N) }, hef: f });
  assert.deepEqual(found.map((x) => x.message).sort(), [
    'classes is 80 here but 1 in yolov8n.hef (compiled from another version of this config): compile again, or set 1 if the HEF is right.',
    'regression_length is 16 here but 8 in yolov8n.hef (compiled from another version of this config): compile again, or set 8 if the HEF is right.',
  ]);
});

test('a HEF without NMS: the raw heads are its outputs', async () => {
  const f = await facts(await yolov8nHef({ nms: false }));
  assert.equal(f.kind, 'none');
  assert.deepEqual(f.outputs[0], { name: 'yolov8n/conv41', shape: [80, 80, 64] });
});

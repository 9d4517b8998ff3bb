// "Hailo: New Compile Recipe from ONNX" as a user meets it: a custom YOLOv8 head exported the way
// Ultralytics exports it (test/helpers/detectorOnnx.ts, with its `names` metadata) gets the model
// zoo's recipe written beside it — the .alls with nms_postprocess(meta_arch=yolov8), the labels from
// the model's own names, the recipe JSON — and a second run replaces nothing; a classifier gets one
// sentence and no files. The command runs in both trust modes (it only reads and writes files).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { classifier, ultralyticsDetector, ultralyticsMetadata } from '../../helpers/detectorOnnx';
import { e2e } from './context';
import { deadlineMs, execute, fileArg, openWorkbench } from './workbench';

type Result = { written: string[] } | { refused: string } | undefined;

describe('New Compile Recipe from ONNX', () => {
  let page: Page;
  let dir: string;
  before(async () => {
    dir = join(e2e().workspace, 'e2e-fixtures', `recipe-${e2e().trust ? 'trusted' : 'restricted'}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'best.onnx'), ultralyticsDetector({ kind: 'yolov8', classes: 3, metadata: ultralyticsMetadata('custom', ['cat', 'dog', 'bird']) }));
    writeFileSync(join(dir, 'resnet.onnx'), classifier());
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a YOLOv8 head: the recipe is written beside the model with its labels; nothing is replaced on a second run; a classifier gets a sentence', async function () {
    this.timeout(deadlineMs(6));
    const rel = (f: string) => fileArg(join('e2e-fixtures', `recipe-${e2e().trust ? 'trusted' : 'restricted'}`, f));
    const r = await execute<Result>(page, 'hailo.newCompileRecipe', [rel('best.onnx')], { steps: 3 });
    assert.ok(r && 'written' in r, JSON.stringify(r));
    const alls = r.written.find((p) => p.endsWith('.alls'));
    assert.ok(alls && existsSync(alls), JSON.stringify(r.written));
    assert.match(readFileSync(alls, 'utf8'), /nms_postprocess\(.*meta_arch=yolov8/);
    const labels = r.written.find((p) => /label/i.test(p) && p.endsWith('.json'));
    assert.ok(labels, JSON.stringify(r.written));
    for (const name of ['cat', 'dog', 'bird']) assert.ok(readFileSync(labels, 'utf8').includes(`"${name}"`), name);
    const before = readdirSync(dir).sort();
    const again = await execute<Result>(page, 'hailo.newCompileRecipe', [rel('best.onnx')], { steps: 3 });
    assert.ok(again && 'refused' in again, JSON.stringify(again));
    assert.deepEqual(readdirSync(dir).sort(), before, 'a second run wrote or replaced nothing');
    const cls = await execute<Result>(page, 'hailo.newCompileRecipe', [rel('resnet.onnx')], { steps: 3 });
    assert.ok(cls && 'refused' in cls && /has no recognised detector head/.test(cls.refused), JSON.stringify(cls));
    assert.deepEqual(readdirSync(dir).sort(), before, 'the classifier got no files');
  });
});

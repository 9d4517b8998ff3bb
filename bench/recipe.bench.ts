// Recipe figures: `hailo-tools recipe` on a YOLOv8n-shaped detector with its HAR (the recognised
// head, the .alls, NMS config and labels, and the checks run on them), against reading the same
// ONNX and inferring its shapes (`hailo-tools onnx`'s work, the floor of any ONNX command),
// interleaved round by round so the machine's load falls on both; RSS growth.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHar } from '../server/src/core/har/harReader';
import { buildLayerIndex } from '../server/src/core/har/layers';
import { inferShapes } from '../server/src/core/onnx/inferShapes';
import { readOnnxFile } from '../server/src/core/onnx/reader';
import { recipeForOnnx } from '../server/src/core/recipe/fromFiles';
import { COCO_NAMES, harFor, ultralyticsDetector, ultralyticsMetadata, YOLOV8N_HN } from '../test/helpers/detectorOnnx';
import { nowMs, report, rssMB } from './report';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-bench-'));
  try {
    const onnx = join(dir, 'yolov8n.onnx');
    writeFileSync(
      onnx,
      ultralyticsDetector({ kind: 'yolov8', classes: 80, metadata: ultralyticsMetadata('Ultralytics YOLOv8n model trained on coco.yaml', COCO_NAMES) }),
    );
    writeFileSync(join(dir, 'yolov8n.har'), await harFor('yolov8n', YOLOV8N_HN));
    const rss0 = rssMB();
    for (let i = 0; i < 5; i++) await recipeForOnnx(onnx, { hwArch: 'hailo8' });
    // Without the HAR: the same model in a folder of its own.
    const alone = join(dir, 'alone');
    mkdirSync(alone);
    const onnxAlone = join(alone, 'yolov8n.onnx');
    copyFileSync(onnx, onnxAlone);
    const base: number[] = [];
    const harBase: number[] = [];
    const withHar: number[] = [];
    const noHar: number[] = [];
    for (let i = 0; i < 31; i++) {
      let s = nowMs();
      inferShapes(readOnnxFile(onnx));
      base.push(nowMs() - s);
      s = nowMs();
      buildLayerIndex(await readHar(join(dir, 'yolov8n.har')));
      harBase.push(nowMs() - s);
      s = nowMs();
      const r = await recipeForOnnx(onnx, { hwArch: 'hailo8' });
      withHar.push(nowMs() - s);
      s = nowMs();
      const r2 = await recipeForOnnx(onnxAlone, { hwArch: 'hailo8' });
      noHar.push(nowMs() - s);
      if (!r.ok || !r2.ok) throw new Error('the recipe failed');
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const b = Math.max(med(base), 0.001);
    // A one-shot command: the target is that the recipe stays within an order of magnitude of the
    // read every ONNX command does (the CLI's own start-up is tens of ms, README).
    report({
      figure: 'recipe for a YOLOv8n head without a HAR (read, recognise, build, check)',
      target: '< 10× reading the ONNX and inferring its shapes',
      measured: `${med(noHar).toFixed(2)} ms median = ${(med(noHar) / b).toFixed(2)}× the ONNX read + shapes (${b.toFixed(2)} ms, interleaved, 31 rounds)`,
      ratio: 10 / (med(noHar) / b),
    });
    const hb = b + Math.max(med(harBase), 0.001);
    report({
      figure: 'recipe for a YOLOv8n head with its HAR (+ the NMS config checked against the HN)',
      target: '< 10× reading the ONNX (+ shapes) and the HAR (+ layer index)',
      measured: `${med(withHar).toFixed(2)} ms median = ${(med(withHar) / hb).toFixed(2)}× the two reads (${b.toFixed(2)} + ${med(harBase).toFixed(2)} ms, interleaved, 31 rounds)`,
      ratio: 10 / (med(withHar) / hb),
    });
    report({
      figure: 'recipe: RSS growth over 36 + 31 recipes',
      target: '< 64 MB',
      measured: `+${(rssMB() - rss0).toFixed(1)} MB`,
      ratio: 64 / Math.max(rssMB() - rss0, 0.1),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

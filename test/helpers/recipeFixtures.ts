// TEST-ONLY: the files of test/fixtures/recipe (generate.mjs writes them; recipe-fixtures test
// rebuilds and compares bytes). Sources of each structure: test/helpers/detectorOnnx.ts.
import {
  classifier,
  COCO_NAMES,
  harFor,
  ultralyticsDetector,
  ultralyticsMetadata,
  YOLOV5S_HN,
  YOLOV8N_HN,
  yolov5Detector,
  YOLOX_S_HN,
  yoloxDetector,
} from './detectorOnnx';

export interface FixtureFile {
  path: string;
  bytes: () => Promise<Uint8Array> | Uint8Array;
}

/** A custom 3-class model, as a user's `yolo train data=fruits.yaml` then export would name it. */
export const CUSTOM_NAMES = ['apple', 'banana', "dragon's fruit"];

export function recipeFixtureFiles(): FixtureFile[] {
  return [
    {
      path: 'yolov8n/yolov8n.onnx',
      bytes: () =>
        ultralyticsDetector({ kind: 'yolov8', classes: 80, metadata: ultralyticsMetadata('Ultralytics YOLOv8n model trained on coco.yaml', COCO_NAMES) }),
    },
    {
      path: 'yolov8n-har/yolov8n.onnx',
      bytes: () =>
        ultralyticsDetector({ kind: 'yolov8', classes: 80, metadata: ultralyticsMetadata('Ultralytics YOLOv8n model trained on coco.yaml', COCO_NAMES) }),
    },
    { path: 'yolov8n-har/yolov8n.har', bytes: () => harFor('yolov8n', YOLOV8N_HN) },
    {
      path: 'custom3/best.onnx',
      bytes: () =>
        ultralyticsDetector({ kind: 'yolov8', classes: 3, metadata: ultralyticsMetadata('Ultralytics YOLOv8n model trained on fruits.yaml', CUSTOM_NAMES) }),
    },
    { path: 'yolo11n/yolo11n.onnx', bytes: () => ultralyticsDetector({ kind: 'yolo11', classes: 80 }) },
    { path: 'yolov10n/yolov10n.onnx', bytes: () => ultralyticsDetector({ kind: 'yolov10', classes: 80 }) },
    { path: 'yolo26n/yolo26n.onnx', bytes: () => ultralyticsDetector({ kind: 'yolo26', classes: 80 }) },
    { path: 'yolov5s/yolov5s.onnx', bytes: () => yolov5Detector(80) },
    { path: 'yolov5s-har/yolov5s.onnx', bytes: () => yolov5Detector(80) },
    { path: 'yolov5s-har/yolov5s.har', bytes: () => harFor('yolov5s', YOLOV5S_HN) },
    { path: 'yolox_s_leaky/yolox_s_leaky.onnx', bytes: () => yoloxDetector(80) },
    { path: 'yolox_s_leaky-har/yolox_s_leaky.onnx', bytes: () => yoloxDetector(80) },
    { path: 'yolox_s_leaky-har/yolox_s_leaky.har', bytes: () => harFor('yolox_s_leaky', YOLOX_S_HN) },
    // A format="hailo" export folder: no names in the ONNX, a metadata.yaml beside it.
    { path: 'hailo-export/best.onnx', bytes: () => ultralyticsDetector({ kind: 'yolov8', classes: 3 }) },
    {
      path: 'hailo-export/metadata.yaml',
      bytes: () =>
        new TextEncoder().encode(
          [
            'description: Ultralytics YOLOv8n model trained on fruits.yaml',
            'author: Ultralytics',
            "date: '2026-08-01T10:00:00.000000'",
            'version: 8.4.97',
            'stride: 32',
            'task: detect',
            'batch: 1',
            'imgsz:',
            '- 640',
            '- 640',
            'names:',
            '  0: apple',
            '  1: banana',
            "  2: dragon's fruit",
            '',
          ].join('\n'),
        ),
    },
    { path: 'classifier/classifier.onnx', bytes: () => classifier() },
  ];
}

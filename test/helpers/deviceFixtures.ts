// HEFs for the device tests, built with the test-only HEF builder: a classifier shaped like the
// model-zoo efficientnet_lite0 (224x224x3 UINT8 → 1000 UINT8) compiled for Hailo-10H/15H, the
// same for Hailo-8 (architecture mismatch), and the example mtmd encoder (embedded resource).
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHef } from './hefBuilder';
import { projectRoot as repoRoot } from './projectRoot';

export interface DeviceHefs {
  classifier: string;
  hailo8: string;
  encoder: string;
  truncated: string;
  all: string[];
}

function classifierSpec(hwArch: number) {
  return {
    version: 3 as const,
    hwArch,
    sdk: [5, 4, 0] as [number, number, number],
    ccwsSize: 256,
    networkGroups: [
      {
        name: 'efficientnet_lite0',
        inputs: [{ name: 'efficientnet_lite0/input_layer1', shape: [224, 224, 3] as [number, number, number], zp: 0, scale: 1 }],
        outputs: [{ name: 'efficientnet_lite0/fc1', shape: [1, 1, 1000] as [number, number, number], format: 2, zp: 12, scale: 0.0625 }],
      },
    ],
  };
}

export async function writeDeviceHefs(dir: string): Promise<DeviceHefs> {
  const classifier = join(dir, 'classifier.hef');
  writeFileSync(classifier, await buildHef(classifierSpec(103)));
  const hailo8 = join(dir, 'classifier-hailo8.hef');
  writeFileSync(hailo8, await buildHef(classifierSpec(0)));
  const encoder = join(dir, 'encoder.hef');
  copyFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef'), encoder);
  const truncated = join(dir, 'classifier-truncated.hef');
  const whole = await buildHef(classifierSpec(103));
  writeFileSync(truncated, whole.subarray(0, whole.length - 100));
  return { classifier, hailo8, encoder, truncated, all: [classifier, hailo8, encoder, truncated] };
}

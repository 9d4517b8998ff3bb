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
  /** A flipped byte in the protobuf body: HailoRT refuses it with 91. */
  corrupted: string;
  /** No buffer_indices on its boundary edge layers: libhailort (and the fake) crash in Hef::create. */
  crashes: string;
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
  // Damaged where every HailoRT checks: one flipped byte inside the protobuf body (offset 200), which
  // the real libhailort 5.2.0 refuses with 91 (a cut inside the CCWs it would load: it hashes only the body).
  const corrupted = join(dir, 'classifier-corrupted.hef');
  const whole = await buildHef(classifierSpec(103));
  const flipped = whole.slice();
  flipped[200] ^= 0xff;
  writeFileSync(corrupted, flipped);
  // Structurally broken where libhailort crashes: boundary edge layers without buffer_indices.
  const crashes = join(dir, 'classifier-no-buffer-indices.hef');
  writeFileSync(crashes, await buildHef({ ...classifierSpec(103), faults: { noBufferIndices: true } }));
  return { classifier, hailo8, encoder, corrupted, crashes, all: [classifier, hailo8, encoder, corrupted, crashes] };
}

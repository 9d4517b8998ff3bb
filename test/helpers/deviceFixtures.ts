// HEFs for the device tests, built with the test-only HEF builder: a classifier shaped like the
// model-zoo efficientnet_lite0 (224x224x3 UINT8 → 1000 UINT8) compiled for Hailo-10H/15H, the
// same for Hailo-8 (architecture mismatch), and the example mtmd encoder (embedded resource).
// For HailoRT 4.x (the Raspberry Pi's Hailo-8/8L): the classifier compiled for hailo8l (hw_arch 3)
// and for hailo8 (hw_arch 1, what the DFC writes for hailo8) in a V2 container, as DFC 3.x writes
// them (the real Hailo-8 HEFs in ../shared/corpus/hef are V0-V2; 4.18-4.20 cannot read V3).
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
  /** hailo8l, V1 container (CRC32, which every 4.18+ reads; 4.18-4.19 read no V2): what a Raspberry Pi AI Kit (Hailo-8L) runs on HailoRT 4.x. */
  hailo8lV1: string;
  /** hailo8 (hw_arch 1), V1 container: a Hailo-8 HEF, which HailoRT refuses on a Hailo-8L. */
  hailo8V1: string;
  all: string[];
}

function classifierSpec(hwArch: number, version: 1 | 2 | 3 = 3) {
  return {
    version,
    hwArch,
    sdk: (version === 3 ? [5, 4, 0] : [3, 31, 0]) as [number, number, number],
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
  const hailo8lV1 = join(dir, 'classifier-hailo8l-v1.hef');
  writeFileSync(hailo8lV1, await buildHef(classifierSpec(3, 1)));
  const hailo8V1 = join(dir, 'classifier-hailo8-v1.hef');
  writeFileSync(hailo8V1, await buildHef(classifierSpec(1, 1)));
  return {
    classifier,
    hailo8,
    encoder,
    corrupted,
    crashes,
    hailo8lV1,
    hailo8V1,
    all: [classifier, hailo8, encoder, corrupted, crashes, hailo8lV1, hailo8V1],
  };
}

// RunDocuments for the results page's tests, built from the one published device run we have
// (dfc-flow.md §5.2: rb_batched.hef through the shim on an ASUS UGen300 Hailo-10H, HailoRT and
// firmware 5.3.2): frame sizes, seeds, means, argmaxes, sha256 prefixes, the undersized refusal
// (status 2), ~1.4 ms per synchronous frame, 0.48 ms/frame pipelined, saturation at depth 32.
// Values the logbook did not record (std, min/max, histograms, depths between 1 and 32, p99)
// are marked ASSUMED; tests never treat them as facts.
import type { RunDocument } from '../../client/src/device/runDocument';
import { calibrationStatement } from '../../client/src/device/runDocument';
import type { RunReport } from '../../server/src/core/device/protocol';
import { EVIL } from './webviewPage';

const hist = (counts: number[], min = 0, max = 255) => ({ min, max, counts });
// ASSUMED: a bell-shaped histogram of 4096 uint8 values around the recorded mean.
const BELL = [2, 4, 8, 14, 24, 40, 62, 90, 124, 162, 200, 236, 266, 286, 294, 290, 280, 262, 236, 204, 170, 136, 104, 76, 52, 34, 20, 12, 6, 4, 2, 0];

export function rbBatchedReport(): RunReport {
  const device = {
    id: 'usb:0b05:1d6f',
    architecture: 'HAILO10H',
    architectureId: 6,
    firmware: '5.3.2 (release,app)',
    serial: 'ASSUMED-0001',
    boardName: 'UGen300',
    partNumber: '',
    productName: 'ASUS UGen300',
  };
  const stream = (name: string, direction: 'input' | 'output') => ({
    name,
    direction,
    shape: [1, 1, 4096] as [number, number, number],
    order: 'NHWC',
    type: 'UINT8',
    frameSize: 4096,
    quant: [{ zp: 0, scale: 1, limMin: 0, limMax: 0 }],
    isNms: false,
  });
  return {
    hef: '/models/rb_batched.hef',
    runtime: { hailortVersion: '5.3.2', shimPath: '/cache/libhailo_tools_shim.so', libraryPath: '/usr/lib/libhailort.so.5.3.2', fake: false },
    model: {
      hef: '/models/rb_batched.hef',
      device,
      format: 'uint8',
      batch: 0,
      asyncQueueSize: 32,
      inputs: [stream('rb_batched/input_layer1', 'input')],
      outputs: [stream('rb_batched/output_layer1', 'output')],
      resources: [],
    },
    input: { kind: 'random', text: 'uniform uint8 0..255, seeds 1171 and 2026', seeds: [1171, 2026] },
    outputs: [
      {
        name: 'rb_batched/output_layer1',
        shape: [1, 1, 4096],
        type: 'UINT8',
        count: 4096,
        mean: 121.917,
        std: 41.2 /* ASSUMED */,
        min: 0,
        max: 255,
        argmax: 1531,
        sha256: '952a0d6e00a7e426',
        histogram: hist(BELL),
      },
    ],
    checks: [
      {
        id: 'different-inputs',
        name: 'different inputs → different outputs',
        pass: true,
        detail: 'seed 1171: mean 121.917, argmax 1531, sha 952a0d6e00a7e426; seed 2026: mean 122.916, argmax 1004, sha ccb28aab19d2f97a',
      },
      { id: 'same-input-twice', name: 'same input twice → bit-identical', pass: true, detail: 'seed 1171 twice: sha 952a0d6e00a7e426 both times' },
      { id: 'undersized-refused', name: 'undersized input refused', pass: true, detail: '4095 bytes (one short) refused before HailoRT, status=2' },
    ],
    latency: {
      p50Ms: 1.4,
      p99Ms: 1.9 /* ASSUMED */,
      meanMs: 1.45 /* ASSUMED */,
      samples: 100,
      histogram: hist([0, 0, 3, 12, 30, 28, 14, 6, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1.2, 2.0),
    },
    fps: { queueDepth: 32, frames: 1000, fps: 2083.3, msPerFrame: 0.48 },
    // depth 1 = 1.4 ms and 32 = 0.48 ms are recorded; the points between are ASSUMED.
    fpsByQueue: [
      { queueDepth: 1, frames: 1000, fps: 714.3, msPerFrame: 1.4 },
      { queueDepth: 2, frames: 1000, fps: 1190, msPerFrame: 0.84 },
      { queueDepth: 4, frames: 1000, fps: 1600, msPerFrame: 0.625 },
      { queueDepth: 8, frames: 1000, fps: 1900, msPerFrame: 0.526 },
      { queueDepth: 16, frames: 1000, fps: 2040, msPerFrame: 0.49 },
      { queueDepth: 32, frames: 1000, fps: 2083.3, msPerFrame: 0.48 },
    ],
    finishedAt: '2026-11-20T10:00:00.000Z',
  };
}

export function rbBatchedDocument(): RunDocument {
  const report = rbBatchedReport();
  const inputs = report.input.text;
  return {
    kind: 'hailo-tools.device-run',
    version: 1,
    title: 'rb_batched.hef',
    options: { hef: report.hef, format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 5000, input: { kind: 'random', seed: 1171 }, frames: 1000 },
    arch: { hefArch: 'HAILO15H', compatible: ['HAILO15H', 'HAILO10H'], device: 'HAILO10H', ok: true },
    report,
    reference: {
      status: 'ok',
      onnx: 'rb_batched.onnx',
      onnxFoundBy: 'beside the HEF',
      runtime: '1.30.0',
      inputs,
      calibration: calibrationStatement({ text: 'standard normal (ASSUMED)' }),
      comparison: {
        // dfc-flow.md §5.2: 2.44 % / 0.99971 with normal calibration (max|err| not recorded: ASSUMED).
        outputs: [
          {
            name: 'rb_batched/output_layer1',
            onnxName: 'output',
            pairing: 'the only one on each side',
            layout: 'HEF 1x1x4096 ↔ ONNX [1,4096] (same element order)',
            dequantized: true,
            metrics: {
              count: 4096,
              maxAbsError: 0.41,
              maxAbsErrorIndex: 1531,
              meanAbsError: 0.052,
              relativeError: 0.0244,
              correlation: 0.99971,
              cosine: 0.9998,
              nonFinite: { device: 0, reference: 0 },
            },
          },
        ],
        skipped: [],
        preprocessing: [
          'input ← rb_batched/input_layer1: values as sent to the device (no normalization in the script), HEF 1x1x4096 ↔ ONNX [1,4096] (same element order)',
        ],
        warnings: [],
      },
    },
  };
}

// The hostile name the render tests check for (webviewPage.ts's).
export { EVIL } from './webviewPage';
export const EVIL_SCRIPT = '</script><script>alert(2)</script>';

/** Every string a device, a HEF or a worker can put on the page, made hostile. */
export function hostileDocument(): RunDocument {
  const d = rbBatchedDocument();
  const r = d.report;
  d.title = `model${EVIL}.hef`;
  r.model.device = { ...r.model.device, id: EVIL, architecture: `HAILO10H${EVIL}`, firmware: EVIL, serial: `"'${EVIL}`, productName: EVIL_SCRIPT };
  r.runtime.hailortVersion = EVIL;
  r.input.text = `uniform ${EVIL}`;
  r.outputs = [
    { ...r.outputs[0], name: `out/${EVIL}`, type: `UINT8${EVIL}`, sha256: EVIL },
    { ...r.outputs[0], name: `out/${EVIL_SCRIPT}` },
  ];
  r.checks = r.checks.map((c) => ({ ...c, id: `${c.id}${EVIL}` as never, name: `${c.name}${EVIL}`, detail: `${c.detail}${EVIL_SCRIPT}` }));
  r.finishedAt = EVIL;
  d.arch = { ...d.arch, hefArch: EVIL, compatible: [EVIL] };
  d.options.groupId = EVIL;
  if (d.reference.status === 'ok') {
    d.reference.onnx = `x${EVIL}.onnx`;
    d.reference.onnxFoundBy = EVIL;
    d.reference.runtime = EVIL;
    d.reference.script = EVIL;
    d.reference.calibration = EVIL;
    d.reference.inputs = EVIL_SCRIPT;
    const c = d.reference.comparison;
    c.outputs = c.outputs.map((o) => ({ ...o, name: `out/${EVIL}`, onnxName: EVIL_SCRIPT, pairing: EVIL, layout: EVIL }));
    c.skipped = [{ name: EVIL, reason: EVIL_SCRIPT }];
    c.preprocessing = [EVIL];
    c.warnings = [EVIL_SCRIPT];
  }
  return d;
}

// The document behind the results page and its "Export JSON": the device run as the worker
// reported it, the options it ran with, the architecture check, and the float reference.
// Pure types and statements (no vscode import): the renderer, the exporter and the tests share them.
import type { GateArch, ReferenceComparison, RunOptions, RunReport } from '@hailo/api';

/** Both sides of the pre-run gate's architecture check (server/src/core/device/runGate.ts). */
export type ArchCheck = GateArch;

export type ReferenceSection =
  | {
      status: 'ok';
      onnx: string;
      /** How the ONNX file was found. */
      onnxFoundBy: string;
      /** onnxruntime-node version and how it was found. */
      runtime: string;
      /** The script the normalization came from, when one was found. */
      script?: string;
      comparison: ReferenceComparison;
      inputs: string;
      calibration: string;
    }
  | {
      status: 'skipped' | 'failed';
      /** One sentence: why there is no float reference. */
      reason: string;
      /** A fix the page offers as a button. */
      fix?: 'set-onnx' | 'set-onnxruntime';
      inputs: string;
      calibration: string;
    };

export interface RunDocument {
  kind: 'hailo-tools.device-run';
  version: 1;
  /** Display name of the HEF (basename). */
  title: string;
  options: RunOptions;
  arch: ArchCheck;
  report: RunReport;
  reference: ReferenceSection;
}

/** docs/research/dfc-flow.md#calibration: the same graph, two calibration sets, 27× apart. Said beside every figure. */
export const CALIBRATION_LESSON =
  'The same attention block compiled twice measured 66.65 % relative error (corr 0.769) with a uniform [0,1) calibration set and 2.44 % (corr 0.99971) with a standard-normal one (published DFC logbook, dfc-flow.md §3.4): read these figures against the distribution your calibration set was drawn from.';

/** What is known about the calibration set, as one statement for the page. */
export function calibrationStatement(known?: { text: string; source?: string }): string {
  if (known) return `Calibration set: ${known.text}${known.source ? ` (${known.source})` : ''}. ${CALIBRATION_LESSON}`;
  return `Calibration set: not recorded in the HEF or the script, so not known here. ${CALIBRATION_LESSON}`;
}

// ---- reading an exported run back ("Hailo: Open Device Run Results"): the file is data from disk,
// so every field the page reads is checked before it is rendered. ----

type Check = (v: unknown) => boolean;
const num: Check = (v) => typeof v === 'number';
const str: Check = (v) => typeof v === 'string';
const arr =
  (each: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(each);
const obj =
  (fields: Record<string, Check>): Check =>
  (v) =>
    typeof v === 'object' && v !== null && Object.entries(fields).every(([k, c]) => c((v as Record<string, unknown>)[k]));
const opt =
  (c: Check): Check =>
  (v) =>
    v === undefined || c(v);
const numOrNull: Check = (v) => v === null || typeof v === 'number';
const histogram = obj({ min: num, max: num, counts: arr(num) });
const device = obj({ id: str, architecture: str, firmware: str, serial: str, productName: opt(str) });
const metrics = obj({
  count: num,
  maxAbsError: num,
  meanAbsError: num,
  relativeError: numOrNull,
  correlation: numOrNull,
  cosine: numOrNull,
  nonFinite: obj({ device: num, reference: num }),
});

const FIELDS: [string, Check][] = [
  ['kind', (v) => v === 'hailo-tools.device-run'],
  ['version', (v) => v === 1],
  ['title', str],
  ['options', obj({ frames: num, groupId: str })],
  ['arch', obj({ hefArch: str, compatible: arr(str), device: str, ok: (v) => typeof v === 'boolean' })],
  ['report.runtime', obj({ hailortVersion: str, fake: (v) => typeof v === 'boolean' })],
  ['report.model', obj({ device, format: str, batch: num, asyncQueueSize: num })],
  ['report.input', obj({ text: str })],
  ['report.outputs', arr(obj({ name: str, shape: arr(num), type: str, mean: num, std: num, min: num, max: num, argmax: num, sha256: str, histogram }))],
  ['report.checks', arr(obj({ id: str, name: str, pass: (v) => typeof v === 'boolean', detail: str }))],
  ['report.latency', obj({ p50Ms: num, p99Ms: num, meanMs: num, samples: num, histogram: opt(histogram) })],
  ['report.fps', obj({ queueDepth: num, fps: num, msPerFrame: num })],
  ['report.fpsByQueue', arr(obj({ queueDepth: num, fps: num, msPerFrame: num }))],
  ['report.finishedAt', str],
  [
    'reference',
    (v) => {
      const r = v as Record<string, unknown>;
      if (!obj({ status: str, inputs: str, calibration: str })(v)) return false;
      if (r.status !== 'ok')
        return (r.status === 'skipped' || r.status === 'failed') && str(r.reason) && opt((x) => x === 'set-onnx' || x === 'set-onnxruntime')(r.fix);
      const c = r.comparison as Record<string, unknown>;
      return (
        str(r.onnx) &&
        str(r.onnxFoundBy) &&
        str(r.runtime) &&
        opt(str)(r.script) &&
        obj({ preprocessing: arr(str), warnings: arr(str), skipped: arr(obj({ name: str, reason: str })) })(c) &&
        arr(obj({ name: str, onnxName: str, pairing: str, layout: str, dequantized: (x) => typeof x === 'boolean', metrics }))(c.outputs)
      );
    },
  ],
];

/** An exported run read back, or one sentence saying why it cannot be shown. */
export function parseRunDocument(text: string, file: string): RunDocument | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { error: `${file} is not JSON: ${(err as Error).message}` };
  }
  for (const [path, check] of FIELDS) {
    const value = path.split('.').reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined), raw);
    if (!check(value)) return { error: `${file} is not a Hailo Tools device run export: '${path}' is missing or malformed.` };
  }
  return raw as RunDocument;
}

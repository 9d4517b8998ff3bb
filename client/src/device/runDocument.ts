// The document behind the results page and its "Export JSON": the device run as the worker
// reported it, the options it ran with, the architecture check, and the float reference.
// Pure types and statements (no vscode import): the renderer, the exporter and the tests share them.
import type { ReferenceComparison, RunOptions, RunReport } from '@hailo/api';

export interface ArchCheck {
  /** The HEF's architecture as our HEF reader reads it (e.g. `HAILO15H`). */
  hefArch: string;
  /** Devices HailoRT runs it on. */
  compatible: string[];
  /** The device's architecture, as identify() names it. */
  device: string;
  ok: boolean;
}

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

/** dfc-flow.md §3.4: the same graph, two calibration sets, 27× apart. Said beside every figure. */
export const CALIBRATION_LESSON =
  'The same attention block compiled twice measured 66.65 % relative error (corr 0.769) with a uniform [0,1) calibration set and 2.44 % (corr 0.99971) with a standard-normal one (published DFC logbook, dfc-flow.md §3.4): read these figures against the distribution your calibration set was drawn from.';

/** What is known about the calibration set, as one statement for the page. */
export function calibrationStatement(known?: { text: string; source?: string }): string {
  if (known) return `Calibration set: ${known.text}${known.source ? ` (${known.source})` : ''}. ${CALIBRATION_LESSON}`;
  return `Calibration set: not recorded in the HEF or the script, so not known here. ${CALIBRATION_LESSON}`;
}

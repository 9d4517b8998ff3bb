// The "Run on Device" results page's messages (host: client/src/device/resultsPanel.ts; page:
// pages/deviceResults.ts).
import type { Schema, StatusMessage } from '../protocol';

export type DeviceResultsToPage = StatusMessage;

/** The float reference's fixes the page offers (a button each). */
export type ReferenceFix = 'set-onnx' | 'set-onnxruntime';

export type DeviceResultsFromPage = { type: 'exportJson' } | { type: 'runAgain' } | { type: 'fix'; fix: ReferenceFix };

export const DEVICE_RESULTS_FROM_PAGE: Schema<DeviceResultsFromPage> = {
  exportJson: {},
  runAgain: {},
  fix: { fix: ['set-onnx', 'set-onnxruntime'] },
};

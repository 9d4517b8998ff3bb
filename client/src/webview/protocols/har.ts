// The HAR view's messages (host: client/src/har/harEditor.ts; page: pages/har.ts). Links carry
// indexes into the host's own document (a layer, a script, a noise or divergence row), never
// names or paths: the host resolves them, so the page can name nothing outside what it was shown.
import type { Schema, StatusMessage } from '../protocol';

export type HarToPage = StatusMessage;

export type HarFromPage =
  /** The page listens: the host re-sends the last status (a page rebuilt while it was posted missed it). */
  | { type: 'ready' }
  | { type: 'copyJson' }
  | { type: 'reload' }
  | { type: 'analyzeNoise' }
  | { type: 'findDivergence' }
  | { type: 'pagePrev' }
  | { type: 'pageNext' }
  | { type: 'search'; query: string }
  /** Write the 16-bit line for these rows of the noise table. */
  | { type: 'writeSixteen'; noise: number[] }
  /** A script line that names a layer: the script's index and a 0-based line. */
  | { type: 'openScript'; script: number; line: number }
  /** A layer's ONNX node: the layer's index and the index among its original names. */
  | { type: 'openOnnx'; layer: number; name: number }
  | { type: 'openTensor'; row: number }
  | { type: 'focusNoise'; noise: number }
  | { type: 'focusDiverge'; row: number };

export const HAR_FROM_PAGE: Schema<HarFromPage> = {
  ready: {},
  copyJson: {},
  reload: {},
  analyzeNoise: {},
  findDivergence: {},
  pagePrev: {},
  pageNext: {},
  search: { query: 'string' },
  writeSixteen: { noise: 'indexes' },
  openScript: { script: 'index', line: 'index' },
  openOnnx: { layer: 'index', name: 'index' },
  openTensor: { row: 'index' },
  focusNoise: { noise: 'index' },
  focusDiverge: { row: 'index' },
};

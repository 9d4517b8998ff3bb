// The parsed model a `.alls` script talks about: HN layers (from a `.har`) and the ONNX nodes
// they came from. The `.alls` core consumes this interface (layer completion, unknown-layer
// diagnostics, hover, go-to-definition); the HAR/ONNX side produces it. Neither depends on the other.
import type { Range } from './types';

export type Dim = number | string | null;

export interface ModelLayer {
  /** HN layer name without the network prefix as written in scripts, e.g. `conv1`. */
  name: string;
  /** Full HN name, e.g. `whisper/conv1`. */
  fullName: string;
  /** HN layer type, e.g. `conv`, `matmul`, `ew_add`. */
  type: string;
  /** ONNX node names this layer was translated from (HN `original_names`). */
  originalNames: string[];
  inputShapes: Dim[][];
  outputShapes: Dim[][];
  /** Output shapes of the ONNX nodes it came from (NCHW), when the ONNX is known. */
  onnxOutputShapes?: Dim[][];
  /** Extra markdown for hover (e.g. the ONNX source nodes' ops, shapes and ranks). */
  detail?: string;
  /** Where go-to-definition should land (e.g. the node's line in the ONNX graph view). */
  location?: { uri: string; range: Range };
}

export interface ModelLayerIndex {
  /** Where the layers came from (a `.har` path), for messages. */
  source: string;
  /** Network name (HN `name`), used as the layer prefix `net/layer`. */
  networkName: string;
  layers: Map<string, ModelLayer>;
  /** `hw_arch` of the HAR's metadata.json (the architecture it was parsed for), when it says. */
  hwArch?: string;
  /** `sdk_version` of the HAR's metadata.json (the DFC that wrote it), when it says. */
  sdkVersion?: string;
  /** A layer noise analysis of this HAR (`<net>.noise.json` beside it), when one was run. */
  noise?: ModelNoise;
}

/** What the script side needs of a noise analysis (server/src/core/har/noise.ts makes it). */
export interface ModelNoise {
  /** The results file. */
  source: string;
  /** "simple analysis on 16 entries of the calibration set (…distribution…)". */
  calibration: string;
  thresholdDb: number;
  /** Layers that need more bits, worst first (unscoped), with their figure and why. */
  chosen: { name: string; snrDb: number; reasons: string[] }[];
}

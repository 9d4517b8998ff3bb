// Builds a ModelLayerIndex from a small JSON description — a hand-made stand-in for the index the
// HAR reader produces, with the same interface (server/src/core/common/modelLayers.ts).
import type { Dim, ModelLayer, ModelLayerIndex, ModelNoise } from '../../server/src/core/common/modelLayers';

export interface ModelJson {
  source?: string;
  networkName: string;
  layers: {
    name: string;
    type: string;
    originalNames?: string[];
    inputShapes?: Dim[][];
    outputShapes?: Dim[][];
    detail?: string;
    location?: ModelLayer['location'];
  }[];
  /** A noise analysis of the model (as server/src/core/har/layers.ts builds it from `<net>.noise.json`). */
  noise?: ModelNoise;
}

export function modelFromJson(j: ModelJson): ModelLayerIndex {
  const layers = new Map<string, ModelLayer>();
  for (const l of j.layers) {
    layers.set(l.name, {
      name: l.name,
      fullName: `${j.networkName}/${l.name}`,
      type: l.type,
      originalNames: l.originalNames ?? [],
      inputShapes: l.inputShapes ?? [],
      outputShapes: l.outputShapes ?? [],
      ...(l.detail ? { detail: l.detail } : {}),
      ...(l.location ? { location: l.location } : {}),
    });
  }
  return { source: j.source ?? 'test.har', networkName: j.networkName, layers, ...(j.noise ? { noise: j.noise } : {}) };
}

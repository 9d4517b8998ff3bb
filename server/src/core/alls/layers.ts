// Lookups into a parsed model (ModelLayerIndex) as scripts write layer names: with or without the
// `net/` scope prefix, or as a `{glob}`.
import type { ModelLayer, ModelLayerIndex } from '../common/modelLayers';
import { globMatcher } from '../common/glob';

export interface LayerLookup {
  index: ModelLayerIndex;
  find(name: string): ModelLayer | undefined;
  /** Layers a `{pattern}` matches (by short or full name). */
  matchGlob(pattern: string): ModelLayer[];
  /** Short names, for completion and suggestions. */
  names: string[];
}

const cache = new WeakMap<ModelLayerIndex, LayerLookup>();

export function layerLookup(index: ModelLayerIndex): LayerLookup {
  let l = cache.get(index);
  if (l) return l;
  const byName = new Map<string, ModelLayer>();
  for (const [key, layer] of index.layers) {
    byName.set(key, layer);
    if (layer.name) byName.set(layer.name, layer);
    if (layer.fullName) byName.set(layer.fullName, layer);
  }
  const all = [...new Set(index.layers.values())];
  const prefix = index.networkName ? index.networkName + '/' : '';
  l = {
    index,
    names: all.map((x) => x.name),
    find(name) {
      const hit = byName.get(name);
      if (hit) return hit;
      if (prefix && name.startsWith(prefix)) return byName.get(name.slice(prefix.length));
      return undefined;
    },
    matchGlob(pattern) {
      const re = globMatcher(pattern);
      return all.filter((x) => re.test(x.name) || re.test(x.fullName));
    },
  };
  cache.set(index, l);
  return l;
}

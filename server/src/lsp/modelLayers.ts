// The ModelLayerProvider behind `ServiceContext.modelLayers()` for `.alls` scripts: reads
// `hailo.model.har` / `hailo.model.onnx` for the document and asks the shared core resolver
// (server/src/core/har/modelResolver.ts — the same one `hailo-tools check` uses) for the model; the
// ONNX side comes from the graph view's cache, so both share one parsed model.
import { localPathOf } from './uri';
import { ModelResolver, type OnnxLoad } from '../core/har/modelResolver';
import { graphUriForPath } from '../core/onnx/viewUri';
import type { OnnxModelCache } from './onnxCache';
import type { ModelLayerProvider, ServerHost } from './service';

export { findHarBeside, findOnnxBeside, type ModelPathSettings } from '../core/har/modelResolver';

/** The ONNX side from the graph view's cache (the view's lines are the layers' locations). */
export function cachedOnnx(cache: OnnxModelCache): (path: string) => OnnxLoad {
  return (path) => {
    const m = cache.load(path);
    return m.ok
      ? { ok: true, stamp: m.stamp, side: { path: m.path, analysis: m.analysis, view: m.view, uri: graphUriForPath(m.path) } }
      : { ok: false, stamp: m.stamp, error: m.error };
  };
}

export function createHarLayerProvider(cache: OnnxModelCache, host: Pick<ServerHost, 'log'>): ModelLayerProvider {
  const resolver = new ModelResolver(cachedOnnx(cache));
  // The provider runs on every validation (each edit): a broken HAR is logged once per document
  // and problem, not once per keystroke.
  const logged = new Map<string, string>();
  return async (uri, settings) => {
    const scriptPath = localPathOf(uri);
    if (!scriptPath) return undefined;
    const r = await resolver.resolve(scriptPath, { harPath: settings.model.har || undefined, onnxPath: settings.model.onnx || undefined });
    const said = r.problems.join('\n');
    if (said && logged.get(uri) !== said) for (const p of r.problems) host.log(`model layers: ${p}`);
    logged.set(uri, said);
    return r.index;
  };
}

// URIs of the read-only graph view: `hailo-onnx:` + the model's file path + `.graph`, e.g.
// `hailo-onnx:/home/me/model.onnx.graph`. The client serves their text by asking the server
// (`OnnxGraphTextRequest` in protocol.ts); the server maps them back to the model file. The suffix keeps the view out
// of the `*.onnx` custom editor (which would otherwise claim it when go-to-definition opens it) and
// gives it its language by file name (`*.onnx.graph` → onnx-graph).
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GRAPH_SCHEME = 'hailo-onnx';
/** Language id of graph-view documents (package.json maps `*.onnx.graph` names to it). */
export const GRAPH_LANGUAGE_ID = 'onnx-graph';
export const GRAPH_SUFFIX = '.graph';

/** The graph-view URI of a model file, in the form VS Code prints (`scheme:/path`, no authority). */
export function graphUriForPath(fsPath: string): string {
  return pathToFileURL(fsPath).href.replace(/^file:\/\//, `${GRAPH_SCHEME}:`) + GRAPH_SUFFIX;
}

/** The model file a graph-view URI shows, or undefined for any other URI. */
export function pathForGraphUri(uri: string): string | undefined {
  if (!uri.startsWith(`${GRAPH_SCHEME}:`)) return undefined;
  let rest = uri.slice(GRAPH_SCHEME.length + 1).replace(/[?#].*$/, '');
  if (rest.endsWith(GRAPH_SUFFIX)) rest = rest.slice(0, -GRAPH_SUFFIX.length);
  if (rest.startsWith('//'))
    rest = rest.slice(2); // `scheme://authority/path`: keep authority (UNC) in the file URL
  else if (!rest.startsWith('/')) rest = '/' + rest;
  try {
    return fileURLToPath(`file://${rest}`);
  } catch {
    return undefined;
  }
}

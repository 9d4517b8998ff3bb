// URIs of the read-only graph view: `hailo-onnx:` + the model's file path, e.g.
// `hailo-onnx:/home/me/model.onnx`. The client serves their text by asking the server
// (`hailo/onnxGraph`); the server maps them back to the model file.
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GRAPH_SCHEME = 'hailo-onnx';
/** Language id of graph-view documents (package.json maps `.onnx` paths to it). */
export const GRAPH_LANGUAGE_ID = 'onnx-graph';
/** Request the client sends to get a view's text: params { uri }, result { text }. */
export const GRAPH_TEXT_REQUEST = 'hailo/onnxGraph';

/** The graph-view URI of a model file, in the form VS Code prints (`scheme:/path`, no authority). */
export function graphUriForPath(fsPath: string): string {
  return pathToFileURL(fsPath).href.replace(/^file:\/\//, `${GRAPH_SCHEME}:`);
}

/** The model file a graph-view URI shows, or undefined for any other URI. */
export function pathForGraphUri(uri: string): string | undefined {
  if (!uri.startsWith(`${GRAPH_SCHEME}:`)) return undefined;
  let rest = uri.slice(GRAPH_SCHEME.length + 1).replace(/[?#].*$/, '');
  if (rest.startsWith('//')) rest = rest.slice(2); // `scheme://authority/path`: keep authority (UNC) in the file URL
  else if (!rest.startsWith('/')) rest = '/' + rest;
  try {
    return fileURLToPath(`file://${rest}`);
  } catch {
    return undefined;
  }
}

// Files that must travel with an ONNX model into a container without bind mounts: its external
// data (read from the model's own external_data entries by the lazy ONNX reader, weights unread).
import { readOnnxFile } from '../../core/onnx/reader';
import type { OnnxRead } from '../../core/onnx/modelCache';

/** External data files inside the model's folder: location as recorded (forward slashes) and path. */
export function externalDataFiles(model: string, read: OnnxRead = readOnnxFile): { location: string; path: string }[] {
  let index;
  try {
    index = read(model);
  } catch {
    return []; // the DFC will say what is wrong with the model
  }
  const seen = new Map<string, string>();
  for (const t of index.graph.initializers) {
    const ref = t.external;
    if (ref?.path && !ref.problem && !seen.has(ref.location)) seen.set(ref.location.replace(/\\/g, '/').replace(/^\.\//, ''), ref.path);
  }
  return [...seen].map(([location, path]) => ({ location, path }));
}

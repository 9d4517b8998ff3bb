// The reader's view of an ONNX model: node names, tensor producers and where each node is shown —
// the node's name on its line of the ONNX graph view (`hailo-onnx:<model>.onnx.graph`), the same
// text VS Code shows, so a CLI position and an editor position agree. Pure: the caller reads the file.
import type { OnnxAnalysis } from '../onnx/analysis';
import { renderGraphView } from '../onnx/graphView';
import { nodeIndexFrom } from './locate';
import type { OnnxNodeIndex, Place } from './types';

export function onnxNodeIndex(a: OnnxAnalysis, label: string): OnnxNodeIndex {
  const view = renderGraphView(a, label);
  const places = new Map<string, Place>();
  for (const [n, span] of view.nodeNameSpan) {
    if (n.name && !places.has(n.name)) places.set(n.name, { line: span.line + 1, column: span.start + 1, endLine: span.line + 1, endColumn: span.end + 1 });
  }
  return nodeIndexFrom(a.model.graph.nodes, (name) => places.get(name));
}

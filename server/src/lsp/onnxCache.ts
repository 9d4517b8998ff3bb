// Analysed ONNX models by file path, re-read when the file's size or mtime changes. Shared by the
// graph view and the HAR layer provider (which links HN layers to the view's lines).
import { FileRoots } from '../core/common/confined';
import { basename } from 'node:path';
import { analyzeOnnx, type OnnxAnalysis } from '../core/onnx/analysis';
import { renderGraphView, type GraphView } from '../core/onnx/graphView';
import { readOnnxFile, OnnxReadError } from '../core/onnx/reader';

export type LoadedModel =
  { ok: true; path: string; analysis: OnnxAnalysis; view: GraphView; stamp: string } | { ok: false; path: string; error: string; kind: string; stamp: string };

const MAX_ENTRIES = 8;

export class OnnxModelCache {
  private entries = new Map<string, LoadedModel>();

  load(path: string): LoadedModel {
    let stamp: string;
    try {
      const st = FileRoots.named(path).stat(path);
      if (!st) throw new Error('no such file');
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch (err) {
      return { ok: false, path, error: `cannot read ${path}: ${(err as Error).message}`, kind: 'io', stamp: 'missing' };
    }
    const hit = this.entries.get(path);
    if (hit && hit.stamp === stamp) {
      // refresh LRU position
      this.entries.delete(path);
      this.entries.set(path, hit);
      return hit;
    }
    let entry: LoadedModel;
    try {
      const analysis = analyzeOnnx(readOnnxFile(path));
      entry = { ok: true, path, analysis, view: renderGraphView(analysis, basename(path)), stamp };
    } catch (err) {
      const kind = err instanceof OnnxReadError ? err.kind : 'internal';
      entry = { ok: false, path, error: err instanceof Error ? err.message : String(err), kind, stamp };
    }
    this.entries.delete(path);
    this.entries.set(path, entry);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}

/** The text shown for a file that is not readable ONNX (the view still opens, with the reason). */
export function errorViewText(path: string, error: string): string {
  return `# ONNX graph view (read-only): ${basename(path)}\n# not readable ONNX: ${error}\n`;
}

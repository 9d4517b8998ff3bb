// One parse of an ONNX file for everything a sweep asks of it: the inputs key's external data, the
// DFC log reader's node index of each compile, the copy of external data to a remote host, the
// accuracy table's input shape. Without it the same model was parsed again for every variant (and
// several times per variant). Keyed by the file's resolved path, size and mtime: a model rewritten
// during a sweep is read again. A read that failed fails the same way again without re-reading.
import { FileRoots } from '../common/confined';
import { resolve } from 'node:path';
import { readOnnxFile } from './reader';
import type { OnnxModel } from './model';

export type OnnxRead = (path: string) => OnnxModel;

export class OnnxModelCache {
  private readonly models = new Map<string, { model?: OnnxModel; error?: unknown }>();
  private readonly derived = new Map<string, unknown>();
  /** How many times a file was actually parsed, and how often one was asked for (figures and tests). */
  parses = 0;
  reads = 0;

  /** The model (parsed once per file version); throws what readOnnxFile threw. */
  readonly read: OnnxRead = (path) => {
    this.reads++;
    const key = this.key(path);
    let entry = this.models.get(key);
    if (!entry) {
      this.parses++;
      try {
        entry = { model: readOnnxFile(path) };
      } catch (error) {
        entry = { error };
      }
      this.models.set(key, entry);
    }
    if (entry.error !== undefined) throw entry.error;
    return entry.model!;
  };

  /** A value computed once from the model (e.g. the node index of the DFC log reader). */
  derive<T>(path: string, name: string, compute: (model: OnnxModel) => T): T {
    const key = `${this.key(path)}\u0000${name}`;
    if (this.derived.has(key)) return this.derived.get(key) as T;
    const value = compute(this.read(path));
    this.derived.set(key, value);
    return value;
  }

  private key(path: string): string {
    const full = resolve(path);
    const stamp = FileRoots.named(full).stamp(full);
    return stamp ? `${full}\u0000${stamp.replace(':', '\u0000')}` : full; // readOnnxFile says why it cannot be read
  }
}

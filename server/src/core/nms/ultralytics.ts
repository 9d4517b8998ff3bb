// What Ultralytics ships with a model: the class names, input size and stride, written into the
// ONNX's metadata_props (ultralytics/engine/exporter.py: every value `str(v)` — `names` a Python
// dict repr `{0: 'person', …}`, `imgsz` `[640, 640]`, `stride` `32`) and into the `metadata.yaml`
// its `format="hailo"` (and other) exports leave beside the model (yaml_save of the same dict). Pure.
import { boundedIndex } from '../common/limits';

export interface UltralyticsMetadata {
  /** Class names by index (dense; a gap is ''). */
  names?: string[];
  /** [height, width]. */
  imgsz?: [number, number];
  stride?: number;
  task?: string;
  description?: string;
  /** Where the facts came from, for messages ("yolov8n.onnx metadata_props", "metadata.yaml"). */
  source: string;
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t[0] === "'" && t.endsWith("'")) || (t[0] === '"' && t.endsWith('"')))) {
    const body = t.slice(1, -1);
    return t[0] === "'" ? body.replace(/\\(['\\])/g, '$1').replace(/''/g, "'") : body.replace(/\\(["\\])/g, '$1');
  }
  return t;
}

function dense(entries: [number, string][], source: string): string[] | undefined {
  if (!entries.length) return undefined;
  const out: string[] = [];
  // An index sizes the array: bounded first, like the labels JSON's (a 22-byte file named class 150,000,000).
  for (const [k, v] of entries) out[boundedIndex('labelIndex', `${source} names class`, k)] = v;
  return Array.from(out, (n) => n ?? '');
}

/** `{0: 'person', 1: "dog's toy"}` (Python's repr of a dict of int → str). */
export function parsePythonNames(text: string, source = 'the names'): string[] | undefined {
  const entries: [number, string][] = [];
  const re = /(\d+)\s*:\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/g;
  for (let m = re.exec(text); m; m = re.exec(text)) entries.push([Number(m[1]), unquote(m[2])]);
  return dense(entries, source);
}

function parseSize(text: string): [number, number] | undefined {
  const nums = (text.match(/\d+/g) ?? []).map(Number);
  if (nums.length === 1) return [nums[0], nums[0]];
  return nums.length === 2 ? [nums[0], nums[1]] : undefined;
}

/** From an ONNX's metadata_props; undefined when it carries none of Ultralytics' keys. */
export function ultralyticsFromOnnx(metadata: Record<string, string>, source: string): UltralyticsMetadata | undefined {
  if (metadata.names === undefined && metadata.imgsz === undefined) return undefined;
  const out: UltralyticsMetadata = { source };
  if (metadata.names) out.names = parsePythonNames(metadata.names, source);
  if (metadata.imgsz) out.imgsz = parseSize(metadata.imgsz);
  if (metadata.stride && /^\d+$/.test(metadata.stride.trim())) out.stride = Number(metadata.stride);
  if (metadata.task) out.task = metadata.task;
  if (metadata.description) out.description = metadata.description;
  return out;
}

/**
 * A `metadata.yaml` as Ultralytics writes it (block style: `names:` then `  0: person` lines,
 * `imgsz:` then `- 640` lines or `[640, 640]`). Only these keys are read; undefined when the text
 * has no `names:` or `imgsz:`.
 */
export function ultralyticsFromYaml(text: string, source: string): UltralyticsMetadata | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const out: UltralyticsMetadata = { source };
  let seen = false;
  for (let i = 0; i < lines.length; i++) {
    const top = /^([A-Za-z_]+):\s*(.*)$/.exec(lines[i]);
    if (!top) continue;
    const [, key, rest] = top;
    const block: string[] = [];
    while (i + 1 < lines.length && /^(\s+|-\s)/.test(lines[i + 1])) block.push(lines[++i]);
    if (key === 'names') {
      seen = true;
      if (rest.trim().startsWith('{')) out.names = parsePythonNames(rest, source);
      else if (rest.trim().startsWith('['))
        out.names = [...rest.matchAll(/'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)"|([^,[\]\s][^,[\]]*)/g)].map((m) => (m[1] ?? m[2] ?? m[3]).trim());
      else {
        const entries: [number, string][] = [];
        for (const b of block) {
          const m = /^\s+(\d+)\s*:\s*(.*)$/.exec(b);
          if (m) entries.push([Number(m[1]), unquote(m[2])]);
        }
        out.names = dense(entries, source);
      }
    } else if (key === 'imgsz') {
      seen = true;
      out.imgsz = parseSize(rest.trim() ? rest : block.join(' '));
    } else if (key === 'stride' && /^\d+$/.test(rest.trim())) out.stride = Number(rest.trim());
    else if (key === 'task') out.task = unquote(rest);
    else if (key === 'description') out.description = unquote(rest);
  }
  return seen ? out : undefined;
}

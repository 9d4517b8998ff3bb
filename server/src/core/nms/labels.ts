// A labels file, in the forms detection apps read: hailo-apps' labels JSON
// (`{"detection_threshold", "max_boxes", "labels": ["unlabeled", …]}`, `--labels-json`), a plain
// JSON list of names, a JSON object keyed by class index (the model zoo's `coco_names.json`), or a
// names file with one name per line (darknet/COCO `.names`). Pure.
import { parseTree, type Node } from 'jsonc-parser';
import { LineIndex } from '../alls/lineIndex';
import type { Range } from '../common/types';
import { ultralyticsFromYaml } from './ultralytics';

export type LabelsKind = 'hailo-apps' | 'list' | 'index-map' | 'names' | 'ultralytics';

export interface LabelsFile {
  kind: LabelsKind;
  names: string[];
  /**
   * Entries that name no detection class: index 0 of a hailo-apps labels JSON (hailo-apps decodes
   * class `i` of the NMS output as label `i + 1`: hailo_nms_decode.hpp `class_id + 1`), or a first
   * entry called background/unlabeled in the other forms.
   */
  offset: number;
  /** Classes the file names: names.length − offset. */
  classes: number;
  /** Where a finding about the count goes: the `labels` array, the list, or line 1. */
  range: Range;
  /** Ultralytics' metadata.yaml: its `imgsz` ([height, width]), which image_dims must match. */
  imageSize?: [number, number];
}

const BACKGROUND = /^(__)?(background|unlabeled|unlabelled|bg)(__)?$/i;

/** `undefined` when the text is none of the forms (a finding says so). */
export function parseLabels(text: string, fileName: string): LabelsFile | undefined {
  const lines = new LineIndex(text);
  const range = (n: Node): Range => lines.range(n.offset, n.offset + n.length);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const root = parseTree(text, [], { disallowComments: true });
    if (!root) return undefined;
    const strings = (n: Node | undefined) =>
      n?.type === 'array' && n.children?.every((c) => c.type === 'string') ? n.children.map((c) => c.value as string) : undefined;
    if (root.type === 'array') {
      const names = strings(root);
      if (!names) return undefined;
      const offset = names.length && BACKGROUND.test(names[0]) ? 1 : 0;
      return { kind: 'list', names, offset, classes: names.length - offset, range: range(root) };
    }
    if (root.type !== 'object') return undefined;
    const labelsProp = root.children?.find((p) => p.children?.[0]?.value === 'labels');
    const labels = strings(labelsProp?.children?.[1]);
    if (labels) return { kind: 'hailo-apps', names: labels, offset: 1, classes: Math.max(0, labels.length - 1), range: range(labelsProp!.children![1]) };
    // {"0": "unlabeled", "1": "person", …}: indices are class ids.
    const entries = (root.children ?? []).map((p) => [p.children?.[0]?.value, p.children?.[1]] as const);
    if (!entries.length || !entries.every(([k, v]) => typeof k === 'string' && /^\d+$/.test(k) && v?.type === 'string')) return undefined;
    const names: string[] = [];
    for (const [k, v] of entries) names[Number(k)] = v!.value as string;
    const dense = Array.from(names, (n) => n ?? '');
    const offset = dense.length && BACKGROUND.test(dense[0]) ? 1 : 0;
    return { kind: 'index-map', names: dense, offset, classes: dense.length - offset, range: range(root) };
  }
  // Ultralytics' metadata.yaml (beside a format="hailo" export): `names:` indexed by class id.
  if (/\.ya?ml$/i.test(fileName)) {
    const meta = ultralyticsFromYaml(text, fileName);
    if (!meta?.names) return undefined;
    const at = /^names:/m.exec(text)?.index ?? 0;
    return {
      kind: 'ultralytics',
      names: meta.names,
      offset: 0,
      classes: meta.names.length,
      range: lines.range(at, lines.lineEnd(lines.positionAt(at).line)),
      ...(meta.imgsz ? { imageSize: meta.imgsz } : {}),
    };
  }
  if (!/\.(names|txt)$/i.test(fileName)) return undefined;
  const names = text.split(/\r\n|\r|\n/).map((l) => l.trim());
  while (names.length && names[names.length - 1] === '') names.pop();
  if (names.some((n) => n === '')) return undefined; // a blank line in the middle: not a names file
  const offset = names.length && BACKGROUND.test(names[0]) ? 1 : 0;
  return { kind: 'names', names, offset, classes: names.length - offset, range: lines.range(0, lines.lineEnd(0)) };
}

/** File names taken as a labels file when one lies beside a HEF or script. */
export function looksLikeLabelsFile(name: string): boolean {
  if (name === 'metadata.yaml') return true; // Ultralytics' export sidecar (names, imgsz)
  return /label/i.test(name) ? /\.(json|txt|names)$/i.test(name) : /\.names$/i.test(name);
}

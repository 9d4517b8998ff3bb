// An NMS post-process config (the JSON `nms_postprocess` names) read with the position of every
// value, so a finding can sit on the line that holds the wrong number. Keys and their meanings:
// schemas/nms-config.schema.json (from every config the model zoo released). Pure.
import { printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { parseFileJsonTree } from '../common/json';
import { LimitError } from '../common/limits';
import { LineIndex } from '../alls/lineIndex';
import type { Range } from '../common/types';

export interface Located<T> {
  value: T;
  /** The value's range in the file. */
  range: Range;
}

/** Decoder keys that name HN layers. */
export const LAYER_KEYS = ['encoded_layer', 'reg_layer', 'cls_layer', 'objectness_layer', 'combined_layer', 'reg_layer_h', 'reg_layer_w'] as const;
export type LayerKey = (typeof LAYER_KEYS)[number];

export interface NmsDecoder {
  index: number;
  range: Range;
  name?: Located<string>;
  stride?: Located<number>;
  w?: Located<number[]>;
  h?: Located<number[]>;
  layers: Partial<Record<LayerKey, Located<string>>>;
}

/** The top-level numbers and flags the checks compare, each with its position. */
export interface NmsConfigValues {
  classes?: Located<number>;
  regression_length?: Located<number>;
  image_dims?: Located<number[]>;
  nms_scores_th?: Located<number>;
  nms_iou_th?: Located<number>;
  max_proposals_per_class?: Located<number>;
  max_total_proposals?: Located<number>;
  background_removal?: Located<boolean>;
  background_removal_index?: Located<number>;
  input_division_factor?: Located<number>;
  number_of_detection_heads?: Located<number>;
}

export interface NmsConfig {
  text: string;
  lines: LineIndex;
  /** The first syntax error (the file is then not checked further). */
  syntaxError?: { message: string; range: Range };
  /** The file is a JSON object (else nothing below is set). */
  isObject: boolean;
  values: NmsConfigValues;
  decoders: NmsDecoder[];
  /** The `bbox_decoders` array (or the whole file when it is missing). */
  decodersRange: Range;
  /** `proto[0].number` (YOLOv5 instance segmentation: mask coefficients per anchor). */
  protoNumber?: number;
}

const NUMBER_KEYS = [
  'classes',
  'regression_length',
  'nms_scores_th',
  'nms_iou_th',
  'max_proposals_per_class',
  'max_total_proposals',
  'background_removal_index',
  'input_division_factor',
  'number_of_detection_heads',
] as const;

function child(obj: Node, key: string): Node | undefined {
  // The last duplicate wins, as in JSON.parse (and Python's json, which the DFC uses).
  let found: Node | undefined;
  for (const p of obj.children ?? []) if (p.type === 'property' && p.children?.[0]?.value === key) found = p.children[1];
  return found;
}

export function parseNmsConfig(text: string): NmsConfig {
  const lines = new LineIndex(text);
  const range = (n: Node): Range => lines.range(n.offset, n.offset + n.length);
  const errors: ParseError[] = [];
  const out: NmsConfig = { text, lines, isObject: false, values: {}, decoders: [], decodersRange: lines.range(0, text.length) };
  let root: Node | undefined;
  try {
    root = parseFileJsonTree(text, 'the config', errors, { allowTrailingComma: false, disallowComments: true });
  } catch (err) {
    if (!(err instanceof LimitError)) throw err;
    out.syntaxError = { message: err.message, range: lines.range(0, lines.lineEnd(0)) };
    return out;
  }
  if (errors.length) {
    const e = errors[0];
    out.syntaxError = { message: `not valid JSON (${printParseErrorCode(e.error)})`, range: lines.range(e.offset, e.offset + Math.max(1, e.length)) };
    return out;
  }
  if (!root || root.type !== 'object') return out;
  out.isObject = true;
  const num = (n: Node | undefined): Located<number> | undefined => (n?.type === 'number' ? { value: n.value as number, range: range(n) } : undefined);
  const numbers = (n: Node | undefined): Located<number[]> | undefined =>
    n?.type === 'array' && n.children?.every((c) => c.type === 'number') ? { value: n.children.map((c) => c.value as number), range: range(n) } : undefined;
  const str = (n: Node | undefined): Located<string> | undefined => (n?.type === 'string' ? { value: n.value as string, range: range(n) } : undefined);
  for (const k of NUMBER_KEYS) {
    const v = num(child(root, k));
    if (v) out.values[k] = v;
  }
  const dims = numbers(child(root, 'image_dims'));
  if (dims) out.values.image_dims = dims;
  const bg = child(root, 'background_removal');
  if (bg?.type === 'boolean') out.values.background_removal = { value: bg.value as boolean, range: range(bg) };
  const proto = child(root, 'proto');
  const first = proto?.type === 'array' ? proto.children?.[0] : undefined;
  if (first?.type === 'object') out.protoNumber = num(child(first, 'number'))?.value;
  const decoders = child(root, 'bbox_decoders');
  if (decoders?.type === 'array') {
    out.decodersRange = range(decoders);
    (decoders.children ?? []).forEach((d, index) => {
      if (d.type !== 'object') return;
      const dec: NmsDecoder = { index, range: range(d), layers: {} };
      const name = str(child(d, 'name'));
      if (name) dec.name = name;
      const stride = num(child(d, 'stride'));
      if (stride) dec.stride = stride;
      const w = numbers(child(d, 'w'));
      if (w) dec.w = w;
      const h = numbers(child(d, 'h'));
      if (h) dec.h = h;
      for (const k of LAYER_KEYS) {
        const v = str(child(d, k));
        if (v) dec.layers[k] = v;
      }
      out.decoders.push(dec);
    });
  }
  return out;
}

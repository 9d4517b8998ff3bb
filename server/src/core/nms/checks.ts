// Cross-file consistency of a detector's NMS pieces: the config JSON, the script's
// `nms_postprocess`, the parsed model (HN), the HEF's NMS op and a labels file. Each mismatch is one
// finding on the value that is wrong, naming the other file and its value; a quick fix where the
// fix is one value. Errors only where the DFC or HailoRT is known to refuse (codes and evidence:
// docs/nms.md); the rest are warnings. Pure.
import { quoteDfc } from '../common/dfcMessages';
import type { Diagnostic, Fix, Range, Severity } from '../common/types';
import type { LabelsFile } from './labels';
import type { Hwc, NmsHefFacts, NmsModel } from './model';
import { LAYER_KEYS, type LayerKey, type Located, type NmsConfig, type NmsDecoder } from './config';
import type { NmsScriptCall } from './script';
import type { UltralyticsMetadata } from './ultralytics';

export type NmsFile = 'config' | 'script' | 'labels' | 'hef';

export interface NmsFinding extends Diagnostic {
  /** The file the range is in. */
  file: NmsFile;
}

export interface NmsCheckInput {
  config?: { name: string; doc: NmsConfig };
  script?: { name: string; call: NmsScriptCall };
  model?: NmsModel;
  hef?: NmsHefFacts;
  labels?: { name: string; file: LabelsFile };
  /** Ultralytics' metadata of the model the detector came from (its ONNX's metadata_props). */
  ultralytics?: UltralyticsMetadata;
}

/** Decoder layouts, by the meta_arch the script names (schemas/nms-config.schema.json). */
export type NmsFamily = 'yolov5' | 'yolov5_seg' | 'yolov8' | 'yolox' | 'yolov6' | 'ssd' | 'centernet';

/** meta_arch → family. `yolo` is the older name of the YOLOv5 decoder (v2.3–v2.6 scripts). */
export function familyOfMetaArch(metaArch: string): NmsFamily | undefined {
  const m = metaArch.toLowerCase();
  if (m === 'yolo' || m === 'yolov5') return 'yolov5';
  if (m === 'yolov5_seg' || m === 'yolov8' || m === 'yolox' || m === 'yolov6' || m === 'ssd' || m === 'centernet') return m;
  return undefined;
}

/** The family a config's decoder keys describe, or undefined when they say nothing clear. */
export function familyOfConfig(doc: NmsConfig): NmsFamily | undefined {
  const has = (k: LayerKey) => doc.decoders.some((d) => d.layers[k] !== undefined);
  const anchors = doc.decoders.some((d) => d.w || d.h);
  if (has('encoded_layer')) return doc.protoNumber !== undefined ? 'yolov5_seg' : 'yolov5';
  if (has('objectness_layer')) return 'yolox';
  if (has('reg_layer_h')) return 'centernet';
  if (has('combined_layer')) return 'yolov8'; // NanoDet configs, meta_arch=yolov8 in the zoo
  if (has('reg_layer') && has('cls_layer')) {
    if (anchors) return 'ssd';
    return doc.values.regression_length ? 'yolov8' : 'yolov6';
  }
  return undefined;
}

const FAMILY_FORM: Record<NmsFamily, string> = {
  yolov5: '`encoded_layer` decoders with `w`/`h` anchors',
  yolov5_seg: '`encoded_layer` decoders with anchors and a `proto` layer',
  yolov8: '`reg_layer`/`cls_layer` decoders with `regression_length`',
  yolox: '`reg_layer`/`objectness_layer`/`cls_layer` decoders',
  yolov6: '`reg_layer`/`cls_layer` decoders without `regression_length`',
  ssd: '`reg_layer`/`cls_layer` decoders with `w`/`h` anchors',
  centernet: '`reg_layer_h`/`reg_layer_w`/`cls_layer` decoders',
};
const FAMILY_META: Record<NmsFamily, string> = {
  yolov5: 'yolov5',
  yolov5_seg: 'yolov5_seg',
  yolov8: 'yolov8',
  yolox: 'yolox',
  yolov6: 'yolov6',
  ssd: 'ssd',
  centernet: 'centernet',
};
/** HailoRT's op for a family (hef.proto `oneof nms_op`, our facts' `nmsType`). */
const FAMILY_OP: Partial<Record<NmsFamily, string>> = { yolov5: 'yolov5', yolov5_seg: 'yolov5_seg', yolov8: 'yolov8', yolox: 'yolox', ssd: 'ssd' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6));
const dims = (s: Hwc) => `${s[0]}×${s[1]}×${s[2]}`;
const shortName = (n: string) => n.slice(n.lastIndexOf('/') + 1);

class Checker {
  readonly out: NmsFinding[] = [];
  /** Codes already reported: "once per file" checks ask this set, not a scan of `out` per decoder (issue 29). */
  private readonly codes = new Set<string>();
  constructor(readonly input: NmsCheckInput) {}

  has(code: string): boolean {
    return this.codes.has(code);
  }

  add(file: NmsFile, range: Range, severity: Severity, code: string, message: string, fix?: { title: string; newText: string }): void {
    const f: NmsFinding = { file, range, severity, code, message };
    if (fix) f.fixes = [{ title: fix.title, edits: [{ range, newText: fix.newText }], preferred: true } satisfies Fix];
    this.out.push(f);
    this.codes.add(code);
  }

  get configName(): string {
    return this.input.config?.name ?? 'the NMS config';
  }

  run(): NmsFinding[] {
    const { config, script, model, hef, labels } = this.input;
    const doc = config?.doc;
    const usable = doc && !doc.syntaxError && doc.isObject ? doc : undefined;
    const metaFamily = script?.call.metaArch ? familyOfMetaArch(script.call.metaArch.value) : undefined;
    const configFamily = usable ? familyOfConfig(usable) : undefined;
    const family = metaFamily ?? configFamily;
    if (usable) this.internal(usable, family);
    if (script) this.scriptChecks(script.call, usable, metaFamily, configFamily, family);
    if (script?.call.metaArch && model?.sdkVersion) this.metaArchDfc(script.call.metaArch, model);
    if (usable && model) this.modelChecks(usable, model, family);
    if (script && !usable && !script.call.configPath && model && family) this.inlineClassesAgainstHeads(script.call, model, family);
    if (hef) this.hefChecks(hef, usable, script?.call, family);
    if (labels) this.labelsChecks(labels.name, labels.file, usable, script?.call, hef);
    if (this.input.ultralytics && (usable || script)) this.ultralyticsChecks(this.input.ultralytics, usable, script?.call);
    return this.out;
  }

  // ---- the config alone -----------------------------------------------------------------------

  private internal(doc: NmsConfig, family: NmsFamily | undefined): void {
    for (const d of doc.decoders) {
      if (d.w && d.h && d.w.value.length !== d.h.value.length) {
        // hef.cpp create_yolov5_config refuses the compiled HEF (HAILO_INVALID_HEF).
        const yolo = family === 'yolov5' || family === 'yolov5_seg';
        this.add(
          'config',
          d.h.range,
          yolo ? 'error' : 'warning',
          'nms/anchors-count',
          `Decoder ${d.index + 1} has ${d.w.value.length} anchor widths (w) but ${d.h.value.length} heights (h): give one w and one h per anchor${yolo ? ` — HailoRT refuses the HEF ("YOLOv5 height anchors count ${d.h.value.length} doesn't mach the width anchors count ${d.w.value.length}")` : ''}.`,
        );
      }
    }
    const heads = doc.values.number_of_detection_heads;
    if (heads && heads.value !== doc.decoders.length) {
      this.add(
        'config',
        heads.range,
        'warning',
        'nms/detection-heads',
        `number_of_detection_heads is ${heads.value} but bbox_decoders lists ${doc.decoders.length} decoders: set it to ${doc.decoders.length}.`,
        { title: `Set number_of_detection_heads to ${doc.decoders.length}`, newText: String(doc.decoders.length) },
      );
    }
  }

  // ---- the script's nms_postprocess -------------------------------------------------------------

  private scriptChecks(
    call: NmsScriptCall,
    doc: NmsConfig | undefined,
    metaFamily: NmsFamily | undefined,
    configFamily: NmsFamily | undefined,
    family: NmsFamily | undefined,
  ): void {
    if (call.metaArch && metaFamily && configFamily && metaFamily !== configFamily) {
      this.add(
        'script',
        call.metaArch.range,
        'warning',
        'nms/meta-arch',
        `meta_arch ${call.metaArch.value} decodes ${FAMILY_FORM[metaFamily]}, but ${this.configName} has ${FAMILY_FORM[configFamily]} (the ${FAMILY_META[configFamily]} form): use meta_arch=${FAMILY_META[configFamily]}, or the config of this detector.`,
        {
          title: `Use meta_arch ${FAMILY_META[configFamily]}`,
          newText: call.metaArch.value.startsWith('"') ? `"${FAMILY_META[configFamily]}"` : FAMILY_META[configFamily],
        },
      );
    }
    const bboxOnly = call.inline.get('bbox_decoding_only');
    if (bboxOnly?.value === true && (family === 'yolox' || family === 'ssd' || family === 'yolov5_seg')) {
      const who = family === 'yolox' ? 'YOLOXPostProcessOp' : family === 'ssd' ? 'SSDPostProcessOp' : 'YOLOv5SegPostProcessOp';
      this.add(
        'script',
        bboxOnly.range,
        'error',
        'nms/bbox-only-unsupported',
        `HailoRT refuses bbox_decoding_only for ${family} ("${who}: bbox_only is not supported"): remove bbox_decoding_only=True (it exists for yolov5 and yolov8).`,
      );
    }
    if (!doc) return;
    const pairs: [string, Located<number | boolean | number[]> | undefined][] = [
      ['classes', doc.values.classes],
      ['nms_scores_th', doc.values.nms_scores_th],
      ['nms_iou_th', doc.values.nms_iou_th],
      ['max_proposals_per_class', doc.values.max_proposals_per_class],
      ['image_dims', doc.values.image_dims],
      ['regression_length', doc.values.regression_length],
      ['background_removal', doc.values.background_removal],
    ];
    for (const [key, inConfig] of pairs) {
      const inline = call.inline.get(key);
      if (!inline || !inConfig || JSON.stringify(inline.value) === JSON.stringify(inConfig.value)) continue;
      this.add(
        'script',
        inline.range,
        'warning',
        'nms/inline-differs',
        `${key}=${JSON.stringify(inline.value)} here but ${JSON.stringify(inConfig.value)} in ${this.configName}: which one the DFC takes is not documented (the model zoo never passes both; its --classes rewrites a copy of the JSON) — set the same value in both, or only in the JSON.`,
      );
    }
  }

  /** meta_arch values younger than the DFC that wrote the HAR. */
  private metaArchDfc(metaArch: Located<string>, model: NmsModel): void {
    // The model zoo's first scripts with meta_arch=yolov8 are v2.10's (DFC 3.26.0); with an older
    // DFC, optimize stops with "ValueError: 'yolov8' is not a valid NMSMetaArchitectures" (hailo_model_zoo#86).
    if (metaArch.value.replace(/"/g, '') !== 'yolov8') return;
    const [major, minor] = model.sdkVersion!.split('.').map(Number);
    if (!(major < 3 || (major === 3 && minor < 26))) return;
    this.add(
      'script',
      metaArch.range,
      'warning',
      'nms/meta-arch-dfc',
      `meta_arch=yolov8 with ${model.source} from DFC ${model.sdkVersion}: Hailo's scripts use it from DFC 3.26.0 (model zoo v2.10) on, and older DFCs stop with "'yolov8' is not a valid NMSMetaArchitectures" (hailo_model_zoo#86) — use a DFC of 3.26 or later (and parse again with it).`,
    );
  }

  /**
   * `classes=` inline with no config: the DFC generates the config from the head layout it detects,
   * and no public file shows where it keeps it in the HAR, so the heads are read here from the HN's
   * outputs — only when they are unambiguous, grouped per scale (one h×w) in the layout of the
   * meta_arch (the zoo's configs: schemas/nms-config.schema.json):
   * - yolov8: two outputs, one the box head (4 × regression_length channels), the other the classes;
   * - yolov5: one output of 3 anchors × (5 + classes) (every zoo YOLOv5 config has 3 anchors per scale);
   * - yolox: three outputs of 4 (box), 1 (objectness) and the classes;
   * - ssd: two outputs, 4 × anchors (box) and anchors × classes (background included, as the zoo's
   *   SSD configs count it).
   * Every scale must give the same count.
   */
  private inlineClassesAgainstHeads(call: NmsScriptCall, model: NmsModel, family: NmsFamily): void {
    const classes = call.inline.get('classes');
    if (!classes || typeof classes.value !== 'number' || !model.outputs?.length) return;
    const rl = call.inline.get('regression_length')?.value;
    const regChannels = 4 * (typeof rl === 'number' ? rl : 16);
    const scales = new Map<string, { name: string; shape: Hwc }[]>();
    for (const o of model.outputs) {
      const key = `${o.shape[0]}×${o.shape[1]}`;
      scales.set(key, [...(scales.get(key) ?? []), o]);
    }
    const perScale: { count: number; heads: { name: string; shape: Hwc }[] }[] = [];
    let rule = '';
    for (const heads of scales.values()) {
      const ch = heads.map((h) => h.shape[2]);
      let count: number | undefined;
      let shown = heads;
      if (family === 'yolov8' && heads.length === 2) {
        const others = heads.filter((h) => h.shape[2] !== regChannels);
        if (others.length === 1) [count, shown] = [others[0].shape[2], others];
        rule = `beside each ${regChannels}-channel box head, one per scale`;
      } else if (family === 'yolov5' && heads.length === 1) {
        if (ch[0] % 3 === 0 && ch[0] / 3 > 5) count = ch[0] / 3 - 5;
        rule = 'one head per scale of 3 anchors × (5 + classes) channels';
      } else if (family === 'yolox' && heads.length === 3) {
        const others = heads.filter((h) => h.shape[2] !== 4 && h.shape[2] !== 1);
        if (others.length === 1 && ch.includes(4) && ch.includes(1)) [count, shown] = [others[0].shape[2], others];
        rule = 'beside each 4-channel box head and 1-channel objectness head, one per scale';
      } else if (family === 'ssd' && heads.length === 2) {
        // The box head has 4 channels per anchor; the class head `classes` per anchor.
        const fits = heads.filter((h, i) => h.shape[2] % 4 === 0 && heads[1 - i].shape[2] % (h.shape[2] / 4) === 0);
        if (fits.length === 1) {
          const anchors = fits[0].shape[2] / 4;
          const cls = heads.find((h) => h !== fits[0])!;
          [count, shown] = [cls.shape[2] / anchors, [cls]];
        }
        rule = 'each class head has anchors × classes channels (the anchors from its 4 × anchors box head), background included';
      }
      if (count === undefined) return;
      perScale.push({ count, heads: shown });
    }
    const counts = new Set(perScale.map((p) => p.count));
    if (counts.size !== 1) return;
    const expected = perScale[0].count;
    if (expected === classes.value) return;
    const heads = perScale.flatMap((p) => p.heads);
    const what =
      family === 'yolov8' || family === 'yolox'
        ? `the class heads of ${model.source} have ${plural(expected, 'channel')}`
        : `the heads of ${model.source} hold ${plural(expected, 'class', 'classes')}`;
    this.add(
      'script',
      classes.range,
      'warning',
      'nms/classes',
      `classes=${classes.value} but ${what} (${heads.map((c) => `${c.name} ${dims(c.shape)}`).join(', ')}: ${rule}; read from the HN's outputs, as no NMS config is named): the scores of ${plural(expected, 'class', 'classes')} would be read as ${classes.value} — set classes=${expected}.`,
      { title: `Set classes to ${expected}`, newText: String(expected) },
    );
  }

  // ---- the config against the HN ------------------------------------------------------------------

  private modelChecks(doc: NmsConfig, model: NmsModel, family: NmsFamily | undefined): void {
    const found = new Map<NmsDecoder, Partial<Record<LayerKey, Hwc>>>();
    for (const d of doc.decoders) {
      const shapes: Partial<Record<LayerKey, Hwc>> = {};
      for (const k of LAYER_KEYS) {
        const ref = d.layers[k];
        if (!ref || ref.value === '') continue; // "" (NanoDet's combined_layer): the DFC finds it
        const layer = model.layer(ref.value);
        if (!layer) {
          this.missingLayer(ref, k, model);
          continue;
        }
        if (layer.shape) shapes[k] = layer.shape;
      }
      found.set(d, shapes);
    }
    const input = model.input;
    const inputWhere = input ? `${model.source}'s input ${input.name} is ${input.shape[0]}×${input.shape[1]}` : '';
    const image = doc.values.image_dims;
    if (image && input && image.value.length === 2 && (image.value[0] !== input.shape[0] || image.value[1] !== input.shape[1])) {
      this.add(
        'config',
        image.range,
        'warning',
        'nms/image-dims',
        `image_dims is [${image.value.join(', ')}] but ${inputWhere} (height × width): boxes would be scaled for the wrong size — set image_dims to [${input.shape[0]}, ${input.shape[1]}].`,
        { title: `Set image_dims to [${input.shape[0]}, ${input.shape[1]}]`, newText: `[${input.shape[0]}, ${input.shape[1]}]` },
      );
    }
    const inputHw = input ? ([input.shape[0], input.shape[1]] as const) : image?.value.length === 2 ? ([image.value[0], image.value[1]] as const) : undefined;
    const inputName = input ? `${model.source}'s input ${input.name}` : 'image_dims';
    const classVotes: { expected: number; why: string; decoder: NmsDecoder }[] = [];
    for (const [d, shapes] of found) {
      this.pairShapes(d, shapes, family);
      this.channels(doc, d, shapes, family, model, classVotes);
      this.stride(d, shapes, inputHw, inputName);
    }
    const classes = doc.values.classes;
    if (classes && classVotes.length) {
      const wrong = classVotes.filter((v) => v.expected !== classes.value);
      const agreed = wrong.length && wrong.every((v) => v.expected === wrong[0].expected) && wrong.length === classVotes.length;
      if (agreed) {
        const v = wrong[0];
        this.add(
          'config',
          classes.range,
          'warning',
          'nms/classes',
          `classes is ${classes.value} but ${v.why}: the scores of ${plural(v.expected, 'class', 'classes')} would be read as ${classes.value} (wrong class ids, nonsense boxes) — set classes to ${v.expected}.`,
          { title: `Set classes to ${v.expected}`, newText: String(v.expected) },
        );
      } else if (wrong.length) {
        for (const v of wrong) {
          const ref = v.decoder.layers.cls_layer ?? v.decoder.layers.encoded_layer;
          this.add(
            'config',
            ref?.range ?? v.decoder.range,
            'warning',
            'nms/classes',
            `classes is ${classes.value} but ${v.why}: this decoder names a layer of another head.`,
          );
        }
      }
    }
  }

  private missingLayer(ref: Located<string>, key: LayerKey, model: NmsModel): void {
    const short = shortName(ref.value);
    const scoped = ref.value.includes('/');
    const inScope = scoped ? model.layer(short) : undefined;
    if (inScope) {
      this.add(
        'config',
        ref.range,
        'error',
        'nms/layer-not-in-hn',
        `${quoteDfc('nms-layer-missing', { layer: ref.value })} of ${model.source}: its network is ${model.networkName}, so the layer is ${inScope.fullName} — the DFC stops with this message (write ${inScope.fullName} or ${short}).`,
        { title: `Use ${inScope.fullName}`, newText: JSON.stringify(inScope.fullName) },
      );
      return;
    }
    this.add(
      'config',
      ref.range,
      'error',
      'nms/layer-not-in-hn',
      `${quoteDfc('nms-layer-missing', { layer: ref.value })} of ${model.source} — the DFC stops with this message: name the ${key.replace('_layer', '')} head of this scale as the HN calls it (the config may be another model's, or the model was parsed with other end nodes).`,
    );
  }

  private pairShapes(d: NmsDecoder, shapes: Partial<Record<LayerKey, Hwc>>, family: NmsFamily | undefined): void {
    const reg = shapes.reg_layer;
    if (!reg) return;
    for (const k of ['cls_layer', 'objectness_layer'] as const) {
      const other = shapes[k];
      const ref = d.layers[k];
      if (!other || !ref || (other[0] === reg[0] && other[1] === reg[1])) continue;
      // yolov8/yolox/ssd post-process ops check this in validate_params (HAILO_INVALID_ARGUMENT).
      const hailortChecks = family === 'yolov8' || family === 'yolox' || family === 'ssd';
      const op = family === 'yolov8' ? 'YOLOV8PostProcess' : family === 'yolox' ? 'YOLOXPostProcess' : 'SSDPostProcessOp';
      this.add(
        'config',
        ref.range,
        hailortChecks ? 'error' : 'warning',
        'nms/pair-shape',
        `${k} ${ref.value} is ${dims(other)} but reg_layer ${d.layers.reg_layer!.value} is ${dims(reg)}: one decoder's layers must come from one scale${hailortChecks ? ` — HailoRT refuses the HEF ("${op}: regression input … has different shape than classification input …")` : ''}.`,
      );
    }
  }

  private channels(
    doc: NmsConfig,
    d: NmsDecoder,
    shapes: Partial<Record<LayerKey, Hwc>>,
    family: NmsFamily | undefined,
    model: NmsModel,
    classVotes: { expected: number; why: string; decoder: NmsDecoder }[],
  ): void {
    const src = (k: LayerKey) =>
      `${k} ${d.layers[k]!.value} of ${model.source} has ${plural(shapes[k]![2], 'channel')}${model.layer(d.layers[k]!.value)?.shapeFromOnnx ? ' (the output of its ONNX node; the HN gives no shape)' : ''}`;
    const cls = shapes.cls_layer;
    const reg = shapes.reg_layer;
    const anchors = d.h?.value.length ?? d.w?.value.length;
    if (family === 'yolov8' || family === 'yolox' || family === 'yolov6' || family === 'centernet') {
      if (cls) classVotes.push({ expected: cls[2], why: `${src('cls_layer')} (one per class)`, decoder: d });
    } else if (family === 'ssd' && cls && anchors && cls[2] % anchors === 0) {
      classVotes.push({ expected: cls[2] / anchors, why: `${src('cls_layer')} = ${anchors} anchors × ${cls[2] / anchors} classes`, decoder: d });
    } else if ((family === 'yolov5' || family === 'yolov5_seg') && shapes.encoded_layer && anchors) {
      const c = shapes.encoded_layer[2];
      const extra = 5 + (doc.protoNumber ?? 0);
      if (c % anchors === 0 && c / anchors > extra) {
        const k = c / anchors - extra;
        classVotes.push({
          expected: k,
          why: `${src('encoded_layer')} = ${anchors} anchors × (${extra === 5 ? '5' : `5 + ${doc.protoNumber}`} + ${k} classes)`,
          decoder: d,
        });
      }
    }
    const rl = doc.values.regression_length;
    if (family === 'yolov8' && reg && d.layers.reg_layer) {
      if (reg[2] % 4 !== 0) {
        this.add(
          'config',
          d.layers.reg_layer.range,
          'error',
          'nms/reg-channels',
          `${src('reg_layer')}, not a multiple of 4 (4 sides × regression_length): HailoRT refuses the HEF ("YOLOV8PostProcess: regression input ${d.layers.reg_layer.value} is not a multiple of 4") — this is not the box regression head.`,
        );
      } else if (rl && reg[2] !== 4 * rl.value && !this.has('nms/regression-length')) {
        const want = reg[2] / 4;
        this.add(
          'config',
          rl.range,
          'warning',
          'nms/regression-length',
          `regression_length is ${rl.value} but ${src('reg_layer')} = 4 × ${want}: boxes would be decoded from the wrong bins — set regression_length to ${want}.`,
          { title: `Set regression_length to ${want}`, newText: String(want) },
        );
      }
    }
    if (family === 'yolox' && reg && reg[2] !== 4 && d.layers.reg_layer) {
      this.add(
        'config',
        d.layers.reg_layer.range,
        'warning',
        'nms/reg-channels',
        `${src('reg_layer')}; YOLOX's box head has 4 (x, y, w, h): this is another head.`,
      );
    }
    const obj = shapes.objectness_layer;
    if (family === 'yolox' && obj && obj[2] !== 1 && d.layers.objectness_layer) {
      this.add(
        'config',
        d.layers.objectness_layer.range,
        'warning',
        'nms/objectness-channels',
        `${src('objectness_layer')}; YOLOX's objectness head has 1: this is another head.`,
      );
    }
    if (family === 'ssd' && reg && anchors && reg[2] !== 4 * anchors && d.layers.reg_layer) {
      this.add(
        'config',
        d.layers.reg_layer.range,
        'warning',
        'nms/reg-channels',
        `${src('reg_layer')} but this decoder has ${anchors} anchors (4 each = ${4 * anchors}): the anchors or the layer belong to another scale.`,
      );
    }
  }

  private stride(d: NmsDecoder, shapes: Partial<Record<LayerKey, Hwc>>, inputHw: readonly [number, number] | undefined, inputName: string): void {
    if (!d.stride || !inputHw) return;
    const key = (['reg_layer', 'encoded_layer', 'cls_layer', 'combined_layer'] as const).find((k) => shapes[k]);
    if (!key) return;
    const s = shapes[key]!;
    const sh = inputHw[0] / s[0];
    const sw = inputHw[1] / s[1];
    if (sh === d.stride.value && sw === d.stride.value) return;
    const fix = sh === sw && Number.isInteger(sh) ? { title: `Set stride to ${sh}`, newText: String(sh) } : undefined;
    this.add(
      'config',
      d.stride.range,
      'warning',
      'nms/stride',
      `stride is ${d.stride.value} but ${key} ${d.layers[key]!.value} is ${s[0]}×${s[1]} for ${inputName} ${inputHw[0]}×${inputHw[1]}${fix ? ` (stride ${sh})` : ''}: box centres would be placed on the wrong grid${fix ? ` — set stride to ${sh}` : ''}.`,
      fix,
    );
  }

  // ---- the HEF -------------------------------------------------------------------------------------

  private hefChecks(hef: NmsHefFacts, doc: NmsConfig | undefined, call: NmsScriptCall | undefined, family: NmsFamily | undefined): void {
    if (hef.kind === 'none') {
      if (call) {
        const outs = hef.outputs
          .slice(0, 6)
          .map((o) => `${shortName(o.name)} ${dims(o.shape)}`)
          .join(', ');
        this.add(
          'script',
          call.nameRange,
          'warning',
          'nms/hef-no-nms',
          `${hef.source} beside this script has no NMS: its outputs are the raw heads (${outs}${hef.outputs.length > 6 ? ', …' : ''}), so an app expecting NMS boxes reads the wrong buffer sizes (Hailo-Application-Code-Examples#245) — it was compiled without this nms_postprocess: compile again from this script.`,
        );
      }
      return;
    }
    if (call?.metaArch && family && hef.kind === 'op' && hef.opType && FAMILY_OP[family] && FAMILY_OP[family] !== hef.opType) {
      this.add(
        'script',
        call.metaArch.range,
        'warning',
        'nms/hef-kind',
        `meta_arch ${call.metaArch.value} but ${hef.source} beside this script holds a ${hef.opType} NMS op: the HEF was compiled from another script — compile again.`,
      );
    }
    if (call?.engine) {
      const e = call.engine.value;
      if ((e === 'cpu' && hef.kind === 'on-chip') || (e === 'nn_core' && hef.kind === 'op')) {
        this.add(
          'script',
          call.engine.range,
          'warning',
          'nms/hef-engine',
          `engine=${e} but ${hef.source} beside this script runs NMS ${hef.kind === 'op' ? 'on the host (a net-flow NMS op, engine=cpu)' : 'on the NN core (HAILO_NMS_ON_CHIP outputs, engine=nn_core)'}: the HEF was compiled from another script — compile again.`,
        );
      }
    }
    if (call) this.hefOutput(hef, call);
    if (!doc) return;
    const v = doc.values;
    if (v.background_removal && hef.kind === 'op' && hef.backgroundRemoval !== undefined && v.background_removal.value !== hef.backgroundRemoval) {
      this.hefDiffers(hef, 'background_removal', v.background_removal.range, String(v.background_removal.value), String(hef.backgroundRemoval));
    }
    const hefClasses =
      hef.kind === 'op' ? hef.classes : hef.outputClasses !== undefined ? hef.outputClasses + (v.background_removal?.value ? 1 : 0) : undefined;
    const cmp: [string, Located<number> | undefined, number | undefined, number][] = [
      ['classes', v.classes, hefClasses, 0],
      ['max_proposals_per_class', v.max_proposals_per_class, hef.maxProposalsPerClass, 0],
      ['nms_scores_th', v.nms_scores_th, hef.scoreTh, 1e-6],
      ['nms_iou_th', v.nms_iou_th, hef.iouTh, 1e-6],
      ['regression_length', v.regression_length, hef.regressionLength, 0],
    ];
    for (const [key, mine, theirs, tol] of cmp) {
      if (!mine || theirs === undefined || Math.abs(mine.value - theirs) <= tol) continue;
      this.hefDiffers(hef, key, mine.range, fmt(mine.value), fmt(theirs));
    }
    if (v.image_dims && hef.imageDims && (v.image_dims.value[0] !== hef.imageDims[0] || v.image_dims.value[1] !== hef.imageDims[1])) {
      this.hefDiffers(hef, 'image_dims', v.image_dims.range, `[${v.image_dims.value.join(', ')}]`, `[${hef.imageDims.join(', ')}]`);
    }
    if (hef.decoders?.length) {
      const hefByLayer = new Map<string, { stride?: number; layers: string[] }>();
      for (const hd of hef.decoders) for (const l of hd.layers) hefByLayer.set(shortName(l), hd);
      let hefNames: string | undefined; // the HEF's decoders as text, built once (not once per config decoder)
      for (const d of doc.decoders) {
        const main = d.layers.reg_layer ?? d.layers.encoded_layer;
        if (!main || main.value === '') continue;
        const hd = hefByLayer.get(shortName(main.value));
        if (!hd) {
          const names = (hefNames ??= hef.decoders.map((x) => x.layers.map(shortName).join('+')).join(', '));
          this.add(
            'config',
            main.range,
            'warning',
            'nms/hef-differs',
            `${main.value} is not an input of the NMS op in ${hef.source} (its decoders read ${names}): the HEF was compiled from another config — compile again, or use the config it was built from.`,
          );
          continue;
        }
        if (d.stride && hd.stride !== undefined && hd.stride !== d.stride.value)
          this.hefDiffers(hef, `stride of ${shortName(main.value)}`, d.stride.range, String(d.stride.value), String(hd.stride));
        const cls = d.layers.cls_layer;
        if (cls && cls.value !== '' && hd.layers.length > 1 && !hd.layers.map(shortName).includes(shortName(cls.value))) {
          this.add(
            'config',
            cls.range,
            'warning',
            'nms/hef-differs',
            `${hef.source}'s NMS op pairs ${shortName(main.value)} with ${hd.layers
              .filter((l) => shortName(l) !== shortName(main.value))
              .map(shortName)
              .join(', ')}, not ${cls.value}: the HEF was compiled from another config — compile again.`,
          );
        }
      }
    }
  }

  /** The HEF's output against what the script asks for: NMS boxes, or decoded boxes only (bbox_decoding_only). */
  private hefOutput(hef: NmsHefFacts, call: NmsScriptCall): void {
    if (hef.kind !== 'op') return;
    const asked = call.inline.get('bbox_decoding_only');
    const out = hef.output ? ` (${shortName(hef.output.name)} is ${hef.output.type} ${hef.output.order})` : '';
    if (asked?.value === true && !hef.bboxOnly) {
      this.add(
        'script',
        asked.range,
        'warning',
        'nms/hef-output',
        `bbox_decoding_only=True asks for decoded boxes without NMS, but ${hef.source} beside this script runs NMS${out}: it was compiled without it — compile again from this script.`,
      );
    } else if (asked?.value !== true && hef.bboxOnly) {
      this.add(
        'script',
        call.nameRange,
        'warning',
        'nms/hef-output',
        `${hef.source} beside this script was compiled with bbox_decoding_only: its output${out} holds decoded boxes, not NMS results, so an app reading NMS by class reads the wrong layout — compile again from this script.`,
      );
    }
  }

  private hefDiffers(hef: NmsHefFacts, key: string, range: Range, mine: string, theirs: string): void {
    this.add(
      'config',
      range,
      'warning',
      'nms/hef-differs',
      `${key} is ${mine} here but ${theirs} in ${hef.source} (compiled from another version of this config): compile again, or set ${theirs} if the HEF is right.`,
      /^\d/.test(theirs) && !key.includes(' ') ? { title: `Set ${key} to ${theirs} (the HEF's value)`, newText: theirs } : undefined,
    );
  }

  // ---- the model's own metadata ------------------------------------------------------------------

  /**
   * Ultralytics writes the model's class names and export size into the ONNX (exporter.py
   * metadata_props `names`, `imgsz`): the config's (or the script's inline) `classes` and the
   * config's `image_dims` must agree with them. Only when no HN head already said so (the same
   * count would be reported twice).
   */
  private ultralyticsChecks(meta: UltralyticsMetadata, doc: NmsConfig | undefined, call: NmsScriptCall | undefined): void {
    const inline = call?.inline.get('classes');
    const classes = doc?.values.classes ?? (inline && typeof inline.value === 'number' ? (inline as Located<number>) : undefined);
    const names = meta.names?.length;
    if (classes && names && classes.value !== names && !this.has('nms/classes')) {
      const bg = doc?.values.background_removal?.value ? 1 : 0;
      if (classes.value - bg !== names) {
        this.add(
          doc?.values.classes ? 'config' : 'script',
          classes.range,
          'warning',
          'nms/classes',
          `classes is ${classes.value} but ${meta.source} names ${plural(names, 'class', 'classes')} (Ultralytics' \`names\`, the classes it was trained on): the scores of ${plural(names, 'class', 'classes')} would be read as ${classes.value} — set classes to ${names + bg}.`,
          { title: `Set classes to ${names + bg}`, newText: String(names + bg) },
        );
      }
    }
    const image = doc?.values.image_dims;
    const size = meta.imgsz;
    if (size && image && image.value.length === 2 && (image.value[0] !== size[0] || image.value[1] !== size[1]) && !this.has('nms/image-dims')) {
      this.add(
        'config',
        image.range,
        'warning',
        'nms/image-dims',
        `image_dims is [${image.value.join(', ')}] but ${meta.source} says the model was exported at imgsz [${size.join(', ')}] (height × width): boxes would be scaled for the wrong size — set image_dims to [${size.join(', ')}].`,
        { title: `Set image_dims to [${size.join(', ')}]`, newText: `[${size.join(', ')}]` },
      );
    }
  }

  // ---- the labels file -----------------------------------------------------------------------------

  /**
   * A hailo-apps labels JSON names the app: its detection post-process takes the output tensor whose
   * name matches "nms_postprocess" and decodes it as HAILO_NMS_BY_CLASS FLOAT32
   * (`decode<float32_t, hailo_bbox_float32_t>`); any other output shows no boxes or wrong ones.
   */
  private appOutput(name: string, labels: LabelsFile, hef: NmsHefFacts): void {
    const out = hef.output;
    let problem: string | undefined;
    if (hef.kind === 'none') {
      const outs = hef.outputs.slice(0, 4).map((o) => `${shortName(o.name)} ${dims(o.shape)}`);
      problem = `${hef.source} has no NMS output (its outputs are the raw heads: ${outs.join(', ')}${hef.outputs.length > 4 ? ', …' : ''}), so the app finds no tensor to decode and shows no boxes — compile with nms_postprocess`;
    } else if (out && !/nms_postprocess/.test(out.name)) {
      problem = `${hef.source}'s NMS output is named ${out.name}, which the app's search for "nms_postprocess" does not find: it shows no boxes — use a post-process that names this output`;
    } else if (out && (out.order !== 'HAILO_NMS_BY_CLASS' || out.type !== 'FLOAT32')) {
      problem = `${hef.source}'s NMS output ${shortName(out.name)} is ${out.type} ${out.order}${out.order === 'NHWC' ? ' (decoded boxes: compiled with bbox_decoding_only)' : ''}, so the boxes are read from the wrong layout — compile it with HAILO_NMS_BY_CLASS output, or decode this layout in the app`;
    }
    if (!problem) return;
    this.add(
      'labels',
      labels.range,
      'warning',
      'nms/app-output',
      `${name} is a hailo-apps labels JSON: its detection post-process (${HAILO_APPS_FILTER}) decodes the output named *nms_postprocess* as HAILO_NMS_BY_CLASS FLOAT32, but ${problem}.`,
    );
  }

  private labelsChecks(name: string, labels: LabelsFile, doc: NmsConfig | undefined, call: NmsScriptCall | undefined, hef: NmsHefFacts | undefined): void {
    if (labels.kind === 'hailo-apps' && hef) this.appOutput(name, labels, hef);
    // Ultralytics' metadata.yaml says the size the model was exported at (its `imgsz`).
    const image = doc?.values.image_dims;
    const size = labels.imageSize;
    if (size && image && image.value.length === 2 && (image.value[0] !== size[0] || image.value[1] !== size[1])) {
      this.add(
        'config',
        image.range,
        'warning',
        'nms/image-dims',
        `image_dims is [${image.value.join(', ')}] but ${name} says the model was exported at imgsz [${size.join(', ')}] (height × width): boxes would be scaled for the wrong size — set image_dims to [${size.join(', ')}].`,
        { title: `Set image_dims to [${size.join(', ')}]`, newText: `[${size.join(', ')}]` },
      );
    }
    let expected: number | undefined;
    let from = '';
    if (hef && hef.kind !== 'none' && hef.outputClasses !== undefined) {
      expected = hef.outputClasses;
      from = `${hef.source}'s NMS output has ${expected} classes`;
    } else {
      const inline = call?.inline.get('classes');
      const classes = typeof inline?.value === 'number' ? inline.value : doc?.values.classes?.value;
      if (classes !== undefined) {
        const bg = doc?.values.background_removal?.value ? 1 : 0;
        expected = classes - bg;
        from = `${typeof inline?.value === 'number' ? 'the script' : this.configName} says classes ${classes}${bg ? ' with background_removal (one fewer in the output)' : ''}`;
      }
    }
    if (expected === undefined) return;
    const rule =
      labels.kind === 'hailo-apps'
        ? ` (a hailo-apps labels JSON lists "unlabeled" first: class i of the NMS output is shown as labels[i + 1], so ${expected} classes need ${expected + 1} entries)`
        : labels.offset
          ? ` (the first entry, "${labels.names[0]}", names no class)`
          : '';
    if (labels.classes !== expected) {
      const consequence =
        labels.classes < expected
          ? `class ids above ${labels.classes - 1} get no name (hailo-rpi5-examples#173)`
          : `${labels.classes - expected} names are never shown and the ids do not line up with this model`;
      // HAILO_NMS_BY_CLASS frames: per class a float count and max-boxes × 5 floats (hailort.h).
      const out = hef?.output;
      const frames =
        out?.order === 'HAILO_NMS_BY_CLASS' && out.nms
          ? `; ${hef!.source}'s NMS frames are ${out.frameSize} bytes (${out.nms.classes} × (1 + 5 × ${out.nms.maxBboxesPerClass}) × 4), an app sized for ${plural(labels.classes, 'class', 'classes')} expects ${labels.classes * (1 + 5 * out.nms.maxBboxesPerClass) * 4} (Hailo-Application-Code-Examples#245)`
          : '';
      this.add(
        'labels',
        labels.range,
        'warning',
        'nms/labels-count',
        `${name} names ${plural(labels.classes, 'class', 'classes')}${rule} but ${from}: ${consequence}${frames} — give one name per class of this model.`,
      );
    }
    if (labels.kind === 'hailo-apps' && labels.names.length > 256) {
      this.add(
        'labels',
        labels.range,
        'warning',
        'nms/labels-uint8',
        `${name} has ${labels.names.length} entries but hailo-apps keys labels by an 8-bit id (yolo_hailortpp.cpp std::map<uint8_t, std::string>): ids from 256 on wrap around and show another class's name.`,
      );
    }
  }
}

// ---- the app ----------------------------------------------------------------------------------------

/** What hailo-apps' detection post-process reads (hailo_apps/postprocess/cpp/yolo_hailortpp.cpp `filter`). */
const HAILO_APPS_FILTER = 'hailo-apps yolo_hailortpp.cpp filter';

export function checkNms(input: NmsCheckInput): NmsFinding[] {
  return new Checker(input).run();
}

// The compile recipe the model zoo would write for a recognised detector head: the parser's start
// and end nodes, the `.alls` (normalization, output activations, nms_postprocess), the NMS config
// and a labels file — every value with where it came from — and the project's own checks run on
// the result before anyone writes it (core/nms/checks, core/alls/rules). Pure.
//
// The NMS config names HN layers (`conv41`), which exist only once the DFC has parsed the model;
// their numbering is the parser's and is not derivable from the ONNX (docs/research/hn-har-format.md#layer-names:
// counters do not follow the topology). So the config is written when a HAR parsed from this ONNX
// gives the names (its layers' original_names are the ONNX head convs); without one the script
// asks for the DFC's own config (`nms_postprocess(meta_arch=…)`: "NMS structure of yolox … was
// detected, a generated config file will be saved inside the har" — the DFC's log,
// docs/research/alls-reference.md#commands) with the class count inline, as the model zoo's `--classes` does.
import { analyze } from '../alls/analysis';
import { checkDocument } from '../alls/rules';
import type { ModelLayerIndex } from '../common/modelLayers';
import { checkNms, type NmsFinding } from '../nms/checks';
import { parseNmsConfig } from '../nms/config';
import { parseLabels } from '../nms/labels';
import { nmsModelFromIndex } from '../nms/model';
import { nmsCalls } from '../nms/script';
import type { DetectorHead, HeadFamily } from './head';
import type { UltralyticsMetadata } from '../nms/ultralytics';
import { maxOf, pushAll } from '../common/arrays';

export interface RecipeInput {
  head: DetectorHead;
  /** The ONNX file's base name without extension (`yolov8n`): the written files are named after it. */
  base: string;
  onnxName: string;
  hwArch: string;
  /** A HAR parsed from this ONNX: the HN layer names of the head. */
  hn?: ModelLayerIndex;
  /** Ultralytics' metadata (the ONNX's metadata_props, else a metadata.yaml beside it). */
  ultralytics?: UltralyticsMetadata;
}

export interface RecipeFile {
  name: string;
  text: string;
}

export interface Recipe {
  family: HeadFamily;
  metaArch: string | null;
  startNodes: string[];
  endNodes: string[];
  classes: number;
  regressionLength: number | null;
  strides: number[];
  imageDims: [number, number];
  /** YOLOv5: [w, h] anchor lists per scale. */
  anchors?: { w: number[]; h: number[] }[];
  /** ONNX end node → HN layer, when a HAR gave them. */
  hnLayers?: Record<string, string>;
  labels?: string[];
  files: RecipeFile[];
  sources: Record<string, string>;
  notes: string[];
}

export type RecipeResult = { ok: true; recipe: Recipe } | { ok: false; reason: string; harMismatch?: boolean };

/** The model zoo's NMS settings per decoder (its configs in ../shared/corpus/nms-zoo). */
const ZOO_NMS: Record<'yolov8' | 'yolov5' | 'yolox', { score: number; iou: number; maxProposals: number; file: string }> = {
  yolov8: { score: 0.2, iou: 0.7, maxProposals: 100, file: 'yolov8n_nms_config.json' },
  yolov5: { score: 0.2, iou: 0.6, maxProposals: 80, file: 'yolov5s_nms_config.json' },
  yolox: { score: 0.2, iou: 0.65, maxProposals: 100, file: 'nms_config_yolox_s_leaky.json' },
};

/** YOLOv5's default anchors by stride (yolov5/models/yolov5s.yaml; the zoo's yolov5s_nms_config.json). */
const YOLOV5_ANCHORS: Record<number, { w: number[]; h: number[] }> = {
  8: { w: [10, 16, 33], h: [13, 30, 23] },
  16: { w: [30, 62, 59], h: [61, 45, 119] },
  32: { w: [116, 156, 373], h: [90, 198, 326] },
};

const FAMILY_NAME: Record<HeadFamily, string> = {
  yolov8: 'YOLOv8',
  yolo11: 'YOLO11',
  yolov5u: 'YOLOv5u',
  yolov10: 'YOLOv10',
  yolo26: 'YOLO26',
  yolov5: 'YOLOv5',
  yolox: 'YOLOX',
};

const ULTRALYTICS: HeadFamily[] = ['yolov8', 'yolo11', 'yolov5u', 'yolov10', 'yolo26', 'yolov5'];

/** A comment line per source sentence (the .alls has only full-line comments: docs/research/alls-reference.md#grammar). */
const comment = (s: string) => `# ${s.replace(/[\r\n]+/g, ' ')}`;

export function buildRecipe(input: RecipeInput): RecipeResult {
  const { head, base } = input;
  const sources: Record<string, string> = { ...head.sources };
  const notes: string[] = [];
  // Per scale as the model zoo lists them: box, then objectness (YOLOX), then class.
  const endNodes = head.scales.flatMap((s) => [s.reg.node, ...(s.obj ? [s.obj.node] : []), ...(s.cls ? [s.cls.node] : [])]);
  sources.startNodes = `the graph input ${head.input.name}`;
  const strides = head.scales.map((s) => s.stride);

  // ---- the HN's names of the head, from a HAR parsed from this ONNX
  let hnLayers: Record<string, string> | undefined;
  if (input.hn) {
    hnLayers = {};
    const byOriginal = new Map<string, string>();
    for (const l of input.hn.layers.values()) {
      if (l.type === 'output_layer' || l.type === 'input_layer') continue;
      for (const o of l.originalNames) if (!byOriginal.has(o) || l.type === 'conv') byOriginal.set(o, l.fullName);
    }
    const missing = endNodes.filter((n) => !byOriginal.has(n));
    if (missing.length) {
      return {
        ok: false,
        harMismatch: true,
        reason: `${input.hn.source} was not parsed from this model's head: no HN layer comes from ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''} — parse ${input.onnxName} with these end nodes first, or leave out the HAR`,
      };
    }
    for (const n of endNodes) hnLayers[n] = byOriginal.get(n)!;
    sources.layerNames = `the HN layers of ${input.hn.source} whose original_names are the head convs`;
  }

  // ---- labels: Ultralytics' names, when they are one per class
  let labels: string[] | undefined;
  const u = input.ultralytics;
  if (u?.names) {
    if (u.names.length === head.classes && u.names.every((n) => n !== '')) {
      labels = u.names;
      sources.labels = `the class names in ${u.source} (${u.names.length})`;
    } else notes.push(`${u.source} names ${u.names.length} classes but the head has ${head.classes}: no labels file written`);
  }
  if (u?.imgsz && (u.imgsz[0] !== head.input.dims[0] || u.imgsz[1] !== head.input.dims[1])) {
    notes.push(`${u.source} says imgsz [${u.imgsz.join(', ')}] but the graph input is ${head.input.dims.join('×')}: the graph's size is used`);
  }
  if (u?.stride && u.stride !== maxOf(strides)) notes.push(`${u.source} says stride ${u.stride} but the head's largest stride is ${maxOf(strides)}`);

  // ---- anchors (YOLOv5)
  let anchors: Recipe['anchors'];
  if (head.metaArch === 'yolov5') {
    const missing = strides.filter((s) => !YOLOV5_ANCHORS[s]);
    if (missing.length || head.anchorsPerScale !== 3) {
      return {
        ok: false,
        reason: `a YOLOv5 head with ${head.anchorsPerScale} anchors per scale at strides ${strides.join('/')}: the anchors are not in the graph's head convs and only YOLOv5's default three per stride 8/16/32 are known — write the NMS config by hand from the model's yaml`,
      };
    }
    anchors = strides.map((s) => YOLOV5_ANCHORS[s]);
    sources.anchors = `YOLOv5's default anchors (models/yolov5s.yaml; the model zoo's yolov5s_nms_config.json): the exported graph keeps its anchors in the decode, not in the head — replace them if training changed them (AutoAnchor prints "new anchors")`;
  }

  // ---- the NMS config (with the HN's names)
  const files: RecipeFile[] = [];
  const configName = `${base}_nms_config.json`;
  let config: Record<string, unknown> | undefined;
  if (head.metaArch && hnLayers) {
    const zoo = ZOO_NMS[head.metaArch];
    sources.thresholds = `the model zoo's ${zoo.file} (nms_scores_th ${zoo.score}, nms_iou_th ${zoo.iou}, max_proposals_per_class ${zoo.maxProposals})`;
    const short = (n: string) => n.slice(n.lastIndexOf('/') + 1);
    const scoped = (n: string) => (n.includes('/') ? n.slice(0, n.lastIndexOf('/') + 1) : '');
    const decoders = head.scales.map((s, i) => {
      const reg = hnLayers![s.reg.node];
      if (head.metaArch === 'yolov5')
        return { name: `${scoped(reg)}bbox_decoder${short(reg).replace(/^\D+/, '')}`, ...anchors![i], stride: s.stride, encoded_layer: reg };
      if (head.metaArch === 'yolox')
        return {
          name: `bbox_decoder_${s.stride}`,
          stride: s.stride,
          reg_layer: reg,
          objectness_layer: hnLayers![s.obj!.node],
          cls_layer: hnLayers![s.cls!.node],
        };
      return { name: `${scoped(reg)}bbox_decoder${short(reg).replace(/^\D+/, '')}`, stride: s.stride, reg_layer: reg, cls_layer: hnLayers![s.cls!.node] };
    });
    config = {
      nms_scores_th: zoo.score,
      nms_iou_th: zoo.iou,
      ...(head.metaArch === 'yolox' ? { number_of_detection_heads: decoders.length } : {}),
      image_dims: head.input.dims,
      max_proposals_per_class: zoo.maxProposals,
      ...(head.metaArch !== 'yolox' ? { background_removal: false } : {}),
      classes: head.classes,
      ...(head.metaArch === 'yolov8' ? { regression_length: head.regressionLength } : {}),
      bbox_decoders: decoders,
    };
    files.push({ name: configName, text: JSON.stringify(config, null, 4) + '\n' });
  } else if (head.metaArch) {
    notes.push(
      `the NMS config names HN layers, which exist once the DFC has parsed the model: the script asks the DFC for its own (nms_postprocess(meta_arch=${head.metaArch}, …) with classes=${head.classes}); for the config file, parse with these end nodes and run recipe again with --har`,
    );
  }

  // ---- the .alls
  const alls: string[] = [
    comment(
      `Compile recipe for ${input.onnxName} (${FAMILY_NAME[head.family]}, ${head.classes} classes, ${head.input.dims.join('×')}), written by hailo-tools recipe.`,
    ),
    comment(`Parse with start node ${head.input.name} and end nodes ${endNodes.join(', ')}`),
    comment(`  (${sources.endNodes}).`),
  ];
  if (ULTRALYTICS.includes(head.family)) {
    alls.push(
      comment("Ultralytics models take RGB in [0, 1] (the image divided by 255); the model zoo's yolov8n.alls and yolov5s.alls scale the same way."),
      'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])',
    );
    sources.normalization = "Ultralytics' preprocessing (img / 255) — the model zoo's yolov8n.alls / yolov5s.alls line";
  } else if (head.family === 'yolox') {
    alls.push(
      comment("YOLOX takes BGR in 0–255 (no normalization); the chip converts the app's RGB (the model zoo's yolox_s_leaky.alls)."),
      'input_conversion = input_conversion(bgr_to_rgb)',
    );
    sources.normalization = "YOLOX's preprocessing (BGR, 0–255) — the model zoo's yolox_s_leaky.alls line";
  }
  if (head.metaArch === 'yolov8' && hnLayers) {
    alls.push(comment("The class convs' sigmoid lies after the end nodes: put it on the chip (the model zoo's yolov8n.alls)."));
    for (const s of head.scales) alls.push(`change_output_activation(${shortName(hnLayers[s.cls!.node])}, sigmoid)`);
    sources.outputActivations = "the model zoo's yolov8n.alls: change_output_activation(<class conv>, sigmoid) per scale";
  } else if (head.metaArch === 'yolov5') {
    alls.push(comment("YOLOv5's decode starts with a sigmoid on every output (the model zoo's yolov5s.alls)."), 'change_output_activation(sigmoid)');
    sources.outputActivations = "the model zoo's yolov5s.alls: change_output_activation(sigmoid)";
  } else if (head.family === 'yolo26') {
    alls.push(comment('YOLO26 is NMS-free: no nms_postprocess; the host decodes the head outputs (one-to-one head, top-k instead of NMS).'));
  }
  if (head.metaArch) {
    const meta = head.metaArch === 'yolov8' ? 'meta_arch=yolov8' : head.metaArch;
    if (config) {
      alls.push(comment(`NMS on the host with ${configName} (classes, strides, layers: see its sources in the recipe JSON).`));
      alls.push(`nms_postprocess("${configName}", ${meta}, engine=cpu)`);
    } else {
      alls.push(comment(`NMS on the host; the DFC generates the config from the head it detects, with ${head.classes} classes (${sources.classes}).`));
      if (head.metaArch === 'yolov8')
        alls.push(
          comment(
            'The DFC puts the class heads\' sigmoid on the chip itself when it adds this NMS (its log: "The activation function of layer …/convN was replaced by a Sigmoid").',
          ),
        );
      const rl = head.regressionLength !== undefined && head.regressionLength !== 16 ? `, regression_length=${head.regressionLength}` : '';
      alls.push(`nms_postprocess(meta_arch=${head.metaArch}, engine=cpu, classes=${head.classes}${rl})`);
    }
  }
  files.unshift({ name: `${base}.alls`, text: alls.join('\n') + '\n' });

  // ---- labels file (hailo-apps' labels JSON: "unlabeled" first)
  const labelsName = `${base}_labels.json`;
  if (labels)
    files.push({ name: labelsName, text: JSON.stringify({ detection_threshold: 0.5, max_boxes: 200, labels: ['unlabeled', ...labels] }, null, 2) + '\n' });

  // ---- the project's checks, before anything is written
  const findings = checkRecipe(files, `${base}.alls`, configName, labelsName, input);
  if (findings.length) {
    return {
      ok: false,
      reason: `the recipe fails the project's own checks (please report it): ${findings
        .slice(0, 3)
        .map((f) => `${f.code} ${f.message}`)
        .join(' | ')}`,
    };
  }

  const recipe: Recipe = {
    family: head.family,
    metaArch: head.metaArch,
    startNodes: [head.input.name],
    endNodes,
    classes: head.classes,
    regressionLength: head.regressionLength ?? null,
    strides,
    imageDims: head.input.dims,
    ...(anchors ? { anchors } : {}),
    ...(hnLayers ? { hnLayers } : {}),
    ...(labels ? { labels } : {}),
    files,
    sources,
    notes,
  };
  return { ok: true, recipe };
}

const shortName = (n: string) => n.slice(n.lastIndexOf('/') + 1);

/** Errors and warnings of the .alls rules and the NMS cross-file checks on the recipe's files. */
export function checkRecipe(
  files: RecipeFile[],
  allsName: string,
  configName: string,
  labelsName: string,
  input: RecipeInput,
): { code: string; message: string }[] {
  const text = (n: string) => files.find((f) => f.name === n)?.text;
  const doc = analyze(text(allsName)!);
  const bad = (s: string) => s === 'error' || s === 'warning';
  const out: { code: string; message: string }[] = checkDocument(doc, {
    settings: { hwArch: input.hwArch },
    fileExists: (raw) => raw === configName && text(configName) !== undefined,
    ...(input.hn ? { model: input.hn } : {}),
  })
    .filter((d) => bad(d.severity))
    .map((d) => ({ code: String(d.code ?? ''), message: `${allsName}: ${d.message}` }));
  const call = nmsCalls(doc)[0];
  const configText = text(configName);
  const labelsText = text(labelsName);
  const labels = labelsText ? parseLabels(labelsText, labelsName) : undefined;
  const nms: NmsFinding[] = checkNms({
    ...(call ? { script: { name: allsName, call } } : {}),
    ...(configText ? { config: { name: configName, doc: parseNmsConfig(configText) } } : {}),
    ...(input.hn ? { model: nmsModelFromIndex(input.hn) } : {}),
    ...(labels ? { labels: { name: labelsName, file: labels } } : {}),
  });
  pushAll(
    out,
    nms.filter((f) => bad(f.severity)).map((f) => ({ code: f.code ?? '', message: `${f.file}: ${f.message}` })),
  );
  return out;
}

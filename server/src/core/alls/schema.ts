// The `.alls` command schema: every command, sub-command, keyword and enum of the reference
// (docs/research/alls-reference.md#commands), each with a one-line doc. Sets are
// corpus-derived unless marked otherwise (docs/research/alls-reference.md#not-known: full keyword lists are corpus-derived,
// not authoritative), so only the DFC 5.3.0 precision_mode enum and the enabled/disabled/allowed
// policies are closed. Meanings marked GUESS are not documented anywhere we could read.
import { quoteDfc } from '../common/dfcMessages';
import type { ArgumentSet, ArchNote, CommandSpec, EnumSpec, EnumValue, Evidence, ParamSpec, Signature, SubcommandSpec, ValueSpec } from './schemaTypes';
import { kindBits } from './schemaTypes';

// ---- small builders ------------------------------------------------------------------------

type Extra = Partial<Omit<ParamSpec, 'name' | 'doc' | 'value'>>;

function p(name: string, value: ValueSpec, doc: string, extra: Extra = {}): ParamSpec {
  return { name, value, doc, ...extra };
}

/** Keyword table without a prototype: `kwargs[name]` is safe for any `name` (e.g. `constructor`). */
function kw(...params: ParamSpec[]): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = Object.create(null);
  for (const x of params) out[x.name] = x;
  return out;
}

/** A lookup table without a prototype: `items[word]` is safe for any word (`hasOwnProperty`, …). */
function table<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

function sig(...params: ParamSpec[]): Signature {
  return { params };
}

function enumOf(name: string, closed: boolean, source: string, values: [string, string, Evidence?][], arch: Record<string, ArchNote> = {}): EnumSpec {
  const specs = values.map(([n, doc, evidence]) => {
    const v: EnumValue = { name: n, doc };
    if (evidence) v.evidence = evidence;
    if (arch[n]) v.arch = arch[n];
    return v;
  });
  const byName = new Map<string, EnumValue>();
  for (const v of specs) if (!byName.has(v.name)) byName.set(v.name, v);
  return {
    name,
    closed,
    source,
    names: new Set(values.map(([n]) => n)),
    byName,
    values: specs,
  };
}

const ONLY_15L: ArchNote = { seenOn: ['hailo15l'] };
const ONLY_15: ArchNote = { seenOn: ['hailo15', 'hailo15l'] };
const ONLY_8: ArchNote = { seenOn: ['hailo8'] };

// ---- value shapes ---------------------------------------------------------------------------

const INT: ValueSpec = { kinds: ['int'] };
const NUM: ValueSpec = { kinds: ['number'] };
const BOOL: ValueSpec = { kinds: ['bool'] };
const STR: ValueSpec = { kinds: ['string'] };
const NAME: ValueSpec = { kinds: ['name'] };
const LAYER: ValueSpec = { kinds: ['layer'] };
const LAYER_LIST: ValueSpec = { kinds: ['layerList'] };
const LAYER_OR_LIST: ValueSpec = { kinds: ['layer', 'layerList'] };
const LAYERS_ANY: ValueSpec = { kinds: ['layer', 'glob', 'layerList'] };
const LAYERS_GLOB_OR_LIST: ValueSpec = { kinds: ['glob', 'layerList'] };
const NUM_LIST: ValueSpec = { kinds: ['numberList'] };
const INT_LIST: ValueSpec = { kinds: ['intList'] };
const PAIR: ValueSpec = { kinds: ['numberList'], length: 2 };
const POS_INT: ValueSpec = { kinds: ['int'], min: 1, rangeSeverity: 'error', rangeNote: 'a count' };
const NON_NEG_INT: ValueSpec = { kinds: ['int'], min: 0, rangeSeverity: 'error', rangeNote: 'a count' };
/** `max_*_utilization`: not confined to (0, 1] — the corpus has 0.0 ×60, 1.125, 1.2 (reference R10). */
const UTIL: ValueSpec = {
  kinds: ['number'],
  min: 0,
  max: 1.25,
  rangeSeverity: 'warning',
  rangeNote: "Hailo's scripts use 0.0–1.2; 0.0 in compiler-written ones",
};
const RATIO: ValueSpec = { kinds: ['number'], min: 0, max: 1, rangeSeverity: 'warning', rangeNote: 'a ratio' };

// ---- enums ----------------------------------------------------------------------------------

function precisionDoc(mode: string): string {
  if (mode === 'native') return 'no quantization (float); not deployable — the DFC does not compile it';
  const m = /^a(\d+)_w(\d+)(?:_a(\d+))?(_exp|_non_zero)?$/.exec(mode);
  if (!m) return mode;
  const [, a, w, out, suffix] = m;
  let s = `${a}-bit activations, ${w}-bit weights`;
  if (out) s += `, ${out}-bit output`;
  if (suffix === '_exp') s += ' (exponent variant; meaning GUESS)';
  if (suffix === '_non_zero') s += ' (non-zero variant; meaning GUESS)';
  return s;
}

const PRECISION_MODES = [
  'a8_w8',
  'a8_w4',
  'a16_w16',
  'a16_w8',
  'a16_w4',
  'a8_w4_exp',
  'a16_w16_non_zero',
  'native',
  'a8_w8_a8',
  'a8_w8_a16',
  'a8_w4_a8',
  'a8_w4_a16',
  'a16_w16_a8',
  'a16_w16_a16',
  'a16_w8_a8',
  'a16_w8_a16',
  'a16_w4_a16',
  'a16_w4_a8',
];

export const PRECISION_MODE = enumOf(
  'PrecisionMode',
  true,
  'the DFC 5.3.0 PrecisionMode enum',
  PRECISION_MODES.map((m) => [m, precisionDoc(m)] as [string, string]),
  { a16_w8: ONLY_15L, a16_w8_a16: ONLY_15L },
);

const POLICY = enumOf('policy', true, "every use in Hailo's scripts", [
  ['enabled', 'turn the feature on'],
  ['disabled', 'turn the feature off'],
]);
const POLICY_V: ValueSpec = { kinds: ['enum'], enum: POLICY };

const TRISTATE = enumOf('policy', true, "Hailo's enabled/disabled/allowed policy words", [
  ['enabled', 'force on'],
  ['disabled', 'force off'],
  ['allowed', 'let the compiler decide'],
]);
/** Enabled/disabled/allowed words only. */
const TRI: ValueSpec = { kinds: ['enum'], enum: TRISTATE };
/** Where Hailo's scripts use both spellings (`=enabled` and `=True`). */
const TRI_OR_BOOL: ValueSpec = { kinds: ['enum', 'bool'], enum: TRISTATE };
const ON_OFF: ValueSpec = { kinds: ['enum'], enum: POLICY };

const ACTIVATION = enumOf('activation', false, "values seen in Hailo's scripts (plus `gelu` from a forum user)", [
  ['sigmoid', 'logistic sigmoid'],
  ['tanh', 'hyperbolic tangent'],
  ['linear', 'identity (no activation)'],
  ['gelu', 'GELU (forum user; unverified)', 'third-party'],
]);

const NMS_META_ARCH = enumOf('meta_arch', false, "values seen in Hailo's scripts", [
  ['yolov5', 'YOLOv5-style anchors and decoding'],
  ['yolov6', 'YOLOv6 decoding'],
  ['yolov8', 'YOLOv8 (anchor-free) decoding; also used for YOLOv11'],
  ['yolox', 'YOLOX decoding'],
  ['ssd', 'SSD box decoding'],
  ['yolo', 'generic YOLO decoding (3 scripts)'],
]);

const NMS_ENGINE = enumOf('engine', false, "values seen in Hailo's scripts (plus `auto` from third-party code)", [
  ['cpu', 'run NMS on the host CPU (inside HailoRT)'],
  ['nn_core', 'run NMS on the Hailo NN core'],
  ['auto', 'let the compiler choose (third-party code; unverified)', 'third-party'],
]);

const INPUT_CONVERSION = enumOf('input_conversion type', false, "types seen in Hailo's scripts and model-zoo code", [
  ['bgr_to_rgb', 'swap BGR input to RGB on chip'],
  ['yuv_to_rgb', 'convert YUV input to RGB on chip'],
  ['nv12_to_hailo_yuv', 'reshape NV12 input to Hailo YUV layout'],
  ['yuy2_to_hailo_yuv', 'reshape YUY2 input to Hailo YUV layout'],
  ['nv12_to_rgb', 'NV12 to RGB (hybrid: 2 layers, so 2 targets)'],
  ['yuy2_to_rgb', 'YUY2 to RGB (hybrid: 2 layers, so 2 targets; model-zoo code)', 'hailo'],
  ['rgbx_to_rgb', 'drop the 4th channel of RGBX input (model-zoo CLI flag)', 'hailo'],
  ['tf_rgbx_to_hailo_rgb', 'RGBX (TF layout) to Hailo RGB'],
  ['i420_to_rgb', 'I420 to RGB (forum answer by a community member; unverified)', 'third-party'],
]);

const DEFUSE_TYPE = enumOf('defuse_type', false, 'values seen in compiler-written scripts', [
  ['DOUBLE_PRECISION_CONV', 'split a conv into LSB/MSB halves (4 targets)'],
  ['EW_MULT_ON_MAC', 'run an element-wise multiply on the MAC array'],
  ['INPUT_FEATURES', 'split along input features'],
  ['SPATIAL', 'split spatially (`_sd*` pieces)'],
  ['SUPER_DW', 'super depthwise split'],
  ['DYNAMIC_WEIGHTS', 'split a layer with dynamic weights (matmul)'],
  ['COMPUTE_LANES', 'split across compute lanes'],
  ['NMS', 'split an NMS layer'],
  ['DECONV', 'split a deconvolution'],
  ['SUPER_CONV', 'super conv split'],
  ['SUPER_DECONV', 'super deconv split'],
  ['CONST_INPUT', 'split a constant input'],
  ['RESIZE_TRANSPOSE', 'split a resize via transpose'],
  ['SPATIAL_RESHAPE', 'split a spatial reshape'],
]);

const SPLIT_MODE = enumOf('split mode', false, 'values seen in compiler-written scripts', [
  ['SPLIT_WIDTH', 'split along the width'],
  ['SPLIT_FEATURES', 'split along the features'],
]);

const ROW_MODE = enumOf('row mode', false, 'values seen in compiler-written scripts', [
  ['FULL_ROW', 'buffer whole rows'],
  ['PARTIAL_ROW', 'buffer partial rows'],
]);

const BIAS_MODE = enumOf('bias_mode', false, "values seen in Hailo's scripts", [
  ['double_scale_initialization', 'bias with a double-scale initialization'],
  ['single_scale_decomposition', 'bias decomposed with a single scale'],
]);

// Clipping modes: one vocabulary for the three sibling slots — activation_clipping(mode=),
// weights_clipping(mode=) and quantization_param(activation_clipping_mode=) — so a mode accepted
// for one is never called unknown for another (issue 10: `weights_clipping, mode=percentile`,
// written by several independent scripts, was warned while activation_clipping took it). Weights
// add the MSE modes the DFC guide lists for them (via the RidgeRun wiki, quoted by a third party:
// `mode=disabled|manual|percentile|mmse|mmse_if4b`, default `mmse_if4b`).
const CLIPPING_MODES: [string, string, Evidence?][] = [
  ['percentile', 'clipping_values are percentiles [lo, hi] of the collected statistics'],
  ['percentile_force', 'percentiles, forced (meaning GUESS)'],
  ['manual', 'clipping_values are absolute [lo, hi]'],
  ['disabled', 'no clipping'],
];
const CLIPPING_SOURCE = "values seen in Hailo's scripts, and the DFC guide's list as the RidgeRun wiki gives it";

const QP_CLIP_MODE = enumOf('activation_clipping_mode', false, CLIPPING_SOURCE, CLIPPING_MODES);

const CLIP_MODE = enumOf('clipping mode', false, CLIPPING_SOURCE, CLIPPING_MODES);

const WEIGHTS_CLIP_MODE = enumOf('weights clipping mode', false, `${CLIPPING_SOURCE} (plus the MSE modes for weights)`, [
  ...CLIPPING_MODES,
  ['mmse', 'minimum-MSE clipping (DFC guide via RidgeRun; third-party scripts)', 'third-party'],
  ['mmse_if4b', 'minimum-MSE clipping for 4-bit weights only — the default (DFC guide via RidgeRun)', 'third-party'],
]);

const LOSS_TYPE = enumOf('loss type', false, "values seen in Hailo's scripts", [
  ['l2', 'L2 distance to the float output'],
  ['l2rel', 'relative L2 distance'],
  ['ce', 'cross-entropy'],
  ['l2rel_channelwise_we', 'channel-wise relative L2 (meaning GUESS)'],
  ['l2rel_channelwise_weighted', 'channel-wise weighted relative L2 (model zoo v1.4–v2.5 scripts; meaning GUESS)'],
  ['L2REL', 'upper-case spelling of l2rel (seen in 4 scripts)'],
]);

const CORRECTION_TYPE = enumOf('correction_type', false, "values seen in Hailo's scripts", [
  ['zp_comp_block', 'zero-point compensation block'],
  ['zp_comp_block_3', 'zero-point compensation block, variant 3'],
]);

const BIT_DECOMP = enumOf('bit_decomposition_mode', false, "values seen in Hailo's scripts", [
  ['uniform_precision', 'decompose with one precision throughout'],
  ['split_precision', 'decompose with split precisions'],
]);

const CS_MODE = enumOf('context switch mode', false, "values seen in Hailo's scripts", [
  ['enabled', 'force multi-context'],
  ['disabled', 'single context only'],
  ['allowed', 'let the compiler decide'],
  ['manual', 'contexts given by the script (compiler-written)'],
  ['automatic', 'contexts chosen automatically'],
]);

const BUFFER_FORMAT = enumOf('layer_output_buffers_format', false, 'values seen in compiler-written scripts', [
  ['consecutive', 'consecutive buffers'],
  ['row_per_cut', 'one row per cut'],
  ['automatic', 'chosen by the compiler'],
  ['offset', 'offset buffers'],
]);

const HW_LAYER_TYPE = enumOf('hw layer type', false, 'values seen in compiler-written scripts', [
  ['lcu', 'LCU (control unit)'],
  ['ppu', 'PPU'],
]);

const RES_ALLOC_STRATEGY = enumOf('resources_allocation_strategy', false, 'values seen in compiler-written scripts', [
  ['manual_scs_selection', 'sub-clusters chosen by the script'],
  ['min_l3_mem_match_fps', 'minimal L3 memory that still meets the FPS'],
]);

const FORMAT_CONVERSION_TYPE = enumOf('format conversion', false, 'values seen in compiler-written scripts', [
  ['spatial_reshape', 'spatial reshape'],
  ['transpose_matmul', 'transpose for a matmul'],
  ['tf_rgb_to_hailo_rgb', 'TF RGB layout to Hailo RGB'],
  ['hailo_rgb_to_tf_rgb', 'Hailo RGB layout to TF RGB'],
  ['reshape_1xw0_to_hxw', 'reshape 1×W to H×W'],
  ['hailo_rgb_to_f8cr', 'Hailo RGB to F8CR layout'],
  ['f8cr_to_hailo_rgb', 'F8CR layout to Hailo RGB'],
  ['transpose_width_features', 'swap width and features'],
  ['reshape_height_features', 'reshape height into features'],
  ['hailo_rgb_to_ppu', 'Hailo RGB to PPU layout'],
  ['ppu_to_hailo_rgb', 'PPU layout to Hailo RGB'],
  ['hailo_rgb_to_lcu', 'Hailo RGB to LCU layout'],
]);

function single(name: string, values: [string, string, Evidence?][], source = "the only value seen in Hailo's scripts"): ValueSpec {
  return { kinds: ['enum'], enum: enumOf(name, false, source, values) };
}

// ---- sub-commands ---------------------------------------------------------------------------

function sub(name: string, doc: string, kwargs: Record<string, ParamSpec>, evidence: Evidence = 'corpus', since?: string, arch?: ArchNote): SubcommandSpec {
  const s: SubcommandSpec = { name, doc, kwargs, evidence };
  if (since) s.since = since;
  if (arch) s.arch = arch;
  return s;
}

const policyKw = p('policy', POLICY_V, 'turn this step on or off');
const layersKw = p('layers', LAYERS_ANY, 'layers this applies to: a name, a `{glob}` or a `[list]`');

const MO_CONFIG: Record<string, SubcommandSpec> = table({
  calibration: sub(
    'calibration',
    'calibration set used for statistics collection',
    kw(
      p('batch_size', POS_INT, 'calibration batch size'),
      p('calibset_size', POS_INT, 'number of calibration images (default 64; more only affects statistics collection — HACE inspector)'),
      p('use_acceleras', ON_OFF, 'use the Acceleras backend (meaning GUESS)'),
    ),
    'corpus',
    'v2.0 (DFC 3.16)',
  ),
  globals: sub(
    'globals',
    'global optimization settings',
    kw(
      p('multiproc_policy', TRI, 'multiprocessing during optimization (`allowed` from third-party code)'),
      p('output_encoding_vector', ON_OFF, 'encode outputs with a per-channel vector (meaning GUESS)'),
      p('output_16bit', ON_OFF, '16-bit outputs'),
    ),
    'corpus',
    'v2.10 (DFC 3.26)',
  ),
  checker_cfg: sub(
    'checker_cfg',
    'layer-by-layer quantization checker after optimization',
    kw(
      policyKw,
      p('batch_size', POS_INT, 'checker batch size'),
      p('dataset_size', POS_INT, 'images the checker uses'),
      p(
        'analyze_mode',
        single('analyze_mode', [
          ['simple', 'basic analysis'],
          ['advanced', 'detailed analysis (third-party code)', 'third-party'],
        ]),
        'how deep the checker analyses',
      ),
      p('batch_norm_checker', BOOL, 'also check batch-norm statistics'),
    ),
    'corpus',
    'v2.7 (DFC 3.23)',
  ),
  negative_exponent: sub(
    'negative_exponent',
    'negative exponent handling for layers',
    kw(
      p('layers', LAYERS_GLOB_OR_LIST, "layers this applies to (always `{*}` in Hailo's scripts)"),
      p('rank', INT, "exponent rank (always 0 in Hailo's scripts)"),
    ),
    'corpus',
    'v2.11 (DFC 3.27)',
  ),
  precision_config: sub(
    'precision_config',
    'precision configuration (hailo15l scripts only)',
    kw(p('use_precision_8', ON_OFF, 'allow 8-bit precision (meaning GUESS)')),
    'corpus',
    'v5.x',
    ONLY_15L,
  ),
  compression_params: sub(
    'compression_params',
    "share of weights put in 4-bit / 16-bit (emitted by Hailo's HACE tool)",
    kw(
      p('auto_4bit_weights_ratio', RATIO, 'ratio of weights quantized to 4 bits'),
      p('auto_16bit_weights_ratio', RATIO, 'ratio of weights kept in 16 bits (third-party code)', { evidence: 'third-party' }),
    ),
    'hailo',
  ),
});

const PRE_QUANT: Record<string, SubcommandSpec> = table({
  activation_clipping: sub(
    'activation_clipping',
    'clip activation ranges before quantization',
    kw(
      layersKw,
      p('mode', { kinds: ['enum'], enum: CLIP_MODE }, 'how clipping_values are read'),
      p('clipping_values', PAIR, '[lo, hi]: percentiles for percentile modes, absolute values for manual'),
      p('recollect_stats', BOOL, 'collect statistics again after clipping'),
    ),
    'corpus',
    'v1.4 (DFC 3.14)',
  ),
  weights_clipping: sub(
    'weights_clipping',
    'clip weight ranges before quantization',
    kw(
      layersKw,
      p('mode', { kinds: ['enum'], enum: WEIGHTS_CLIP_MODE }, 'how weights are clipped'),
      p('clipping_values', PAIR, '[lo, hi] absolute weight range'),
    ),
    'corpus',
    'v2.8',
  ),
  equalization: sub(
    'equalization',
    'equalize channel ranges across consecutive layers',
    kw(
      policyKw,
      p('mode', single('equalization mode', [['kernel_equalization', 'equalize kernels']]), 'equalization method'),
      layersKw,
      p('equalization_target', single('equalization_target', [['activation', 'equalize activations']]), 'what is equalized'),
    ),
    'corpus',
    'v1.2',
  ),
  ew_add_fusing: sub(
    'ew_add_fusing',
    'fuse element-wise adds into neighbouring layers',
    kw(
      policyKw,
      p(
        'infusible_ew_add_type',
        single('infusible_ew_add_type', [['conv', 'implement a non-fusible add as a conv']]),
        'how to implement adds that cannot be fused',
      ),
    ),
    'corpus',
    'v2.7',
  ),
  matmul_correction: sub(
    'matmul_correction',
    'zero-point correction for matmul layers',
    kw(layersKw, p('correction_type', { kinds: ['enum'], enum: CORRECTION_TYPE }, 'correction block type')),
    'corpus',
    'v2.12',
  ),
  matmul_equalization: sub(
    'matmul_equalization',
    'equalize matmul input ranges',
    kw(layersKw, policyKw, p('matmul_bias', ON_OFF, 'add a bias during matmul equalization')),
    'corpus',
    'v2.13',
  ),
  layer_norm_decomposition: sub(
    'layer_norm_decomposition',
    'how LayerNormalization is decomposed for the hardware',
    kw(
      p('equalization', ON_OFF, 'equalize the decomposed layers'),
      p('bit_decomposition_mode', { kinds: ['enum'], enum: BIT_DECOMP }, 'precision of the decomposed pieces'),
      p('eq_consumer', BOOL, 'equalize the consumer layer'),
    ),
    'corpus',
    'v2.14 (DFC 3.30)',
  ),
  layer_decomposition: sub(
    'layer_decomposition',
    'decompose layers into higher-precision pieces',
    kw(layersKw, policyKw, p('remove_low_low', ON_OFF, 'drop the low×low partial product (meaning GUESS)')),
    'corpus',
    'v2.14 (DFC 3.30)',
  ),
  decompose_conv_factor: sub('decompose_conv_factor', 'decompose conv layers by a factor', kw(policyKw), 'corpus', 'v5.1.0'),
  global_avgpool_reduction: sub(
    'global_avgpool_reduction',
    'reduce a global average pool in steps',
    kw(
      p('layers', LAYER_OR_LIST, 'avgpool layer(s): a name or a list'),
      p('division_factors', { kinds: ['intList'], length: 2 }, 'two reduction factors, e.g. [128, 1]'),
    ),
    'corpus',
    'v2.9',
  ),
  se_optimization: sub(
    'se_optimization',
    'optimize squeeze-and-excitation blocks',
    kw(
      p('method', single('se method', [['tse', 'tiled SE']]), 'optimization method'),
      p('mode', single('se mode', [['sequential', 'sequential tiles']]), 'tiling mode'),
      p('count', POS_INT, 'number of SE blocks (GUESS)'),
      p('tile_height', POS_INT, 'tile height'),
    ),
    'corpus',
    'v2.13',
  ),
  dead_layers_removal: sub('dead_layers_removal', 'remove layers whose output is unused (third-party code only)', kw(policyKw), 'third-party'),
  zero_static_channels: sub('zero_static_channels', 'zero channels that never change (one forum user script)', kw(policyKw), 'third-party'),
});

const POST_QUANT: Record<string, SubcommandSpec> = table({
  finetune: sub(
    'finetune',
    'quantization-aware fine-tuning (QAFT) against the float model',
    kw(
      policyKw,
      p('dataset_size', POS_INT, 'images used for fine-tuning'),
      p('epochs', POS_INT, 'training epochs'),
      p('batch_size', POS_INT, 'training batch size'),
      p('learning_rate', { kinds: ['number'], min: 0, rangeSeverity: 'error', rangeNote: 'a learning rate' }, 'learning rate'),
      p('loss_layer_names', LAYER_LIST, 'layers whose outputs the loss compares'),
      p('loss_types', { kinds: ['enumList'], enum: LOSS_TYPE }, 'one loss per loss layer'),
      p('loss_factors', NUM_LIST, 'one weight per loss layer'),
      p('meta_arch', single('finetune meta_arch', [['yolo', 'YOLO-specific loss handling']]), 'architecture-specific loss'),
      p('def_loss_type', { kinds: ['enum'], enum: LOSS_TYPE }, 'default loss type'),
      p('train_scales', BOOL, 'also train quantization scales'),
      p('warmup_epochs', NON_NEG_INT, 'warm-up epochs'),
      p('use_acceleras', ON_OFF, 'use the Acceleras backend (meaning GUESS)'),
      p('val_images', POS_INT, 'validation images (forum user)', { evidence: 'third-party' }),
      p('val_batch_size', POS_INT, 'validation batch size (forum user)', { evidence: 'third-party' }),
      p('force_pruning', BOOL, 'force pruning (forum user)', { evidence: 'third-party' }),
    ),
    'corpus',
    'v1.3 (DFC 3.12)',
  ),
  bias_correction: sub(
    'bias_correction',
    'correct the bias shift quantization introduces',
    kw(policyKw, p('batch_size', POS_INT, 'batch size (third-party code)', { evidence: 'third-party' })),
    'corpus',
    'v1.2',
  ),
  adaround: sub(
    'adaround',
    'AdaRound: learn weight rounding',
    kw(
      policyKw,
      p('batch_size', POS_INT, 'batch size'),
      p('epochs', POS_INT, 'training epochs'),
      p('mode', single('adaround mode', [['train_all', 'train all layers together']]), 'training mode'),
      p('dataset_size', POS_INT, 'images used (third-party code)', { evidence: 'third-party' }),
      p('shuffle', BOOL, 'shuffle the data (third-party code)', { evidence: 'third-party' }),
      p('cache_compression', ON_OFF, 'compress the activation cache (third-party code)', { evidence: 'third-party' }),
      p('train_bias', BOOL, 'also train biases (third-party code)', { evidence: 'third-party' }),
    ),
    'corpus',
    'v2.12',
  ),
  mix_precision_search: sub(
    'mix_precision_search',
    'search per-layer precisions (third-party code only)',
    kw(
      policyKw,
      p('batch_size', POS_INT, 'batch size'),
      p('dataset_size', POS_INT, 'images used'),
      p('snr_cap', NUM, 'SNR cap in dB'),
      p('optimizer', single('optimizer', [['linear', 'linear search']], 'third-party code'), 'search optimizer'),
      p('comprecision_metric', single('comprecision_metric', [['bops', 'bit operations']], 'third-party code'), 'cost metric'),
    ),
    'third-party',
  ),
});

// ---- commands -------------------------------------------------------------------------------

/**
 * No command's keyword list is known complete: the DFC guide's model-script chapter is not public
 * (only the table of contents of the v3.30.0 guide and the RidgeRun wiki's partial summary), and
 * no public traceback quotes the DFC refusing an unknown keyword. Where that changes, a command
 * gets `argumentSet: { kind: 'documented', evidence: '<the quote and its source>' }` and unknown
 * keywords / missing required arguments become errors quoting it (rules.ts, docs/alls-rules.md).
 */
export const CORPUS_ARGUMENTS: ArgumentSet = {
  kind: 'corpus',
  evidence: "the keywords and positional forms Hailo's 1,345 model-zoo script versions use, plus marked third-party ones; no complete list is public",
};

/**
 * nms_postprocess's keywords are known well enough to call any other one an error: the DFC answers
 * an unknown keyword with `No argument named …` (a DFC 3.33.0 deployment guide; a user's failing
 * `nms_config=` / `nms_config_file_path=`), and the set is what Hailo writes — the model zoo's
 * scripts and its `core/main_utils.py` (which adds `classes=` or `config_path=`) — plus the keys of
 * Hailo's NMS config JSONs, which the DFC takes as "config arguments".
 */
export const NMS_ARGUMENTS: ArgumentSet = {
  kind: 'documented',
  evidence:
    'the DFC answers any other keyword with "No argument named …" (DFC 3.33.0 deployment guide: "No argument named nms_score_threshold"; a user\'s failing nms_config= and nms_config_file_path=); the keywords are the model zoo\'s (its scripts and core/main_utils.py) and its NMS config JSONs\' keys',
  refusal: quoteDfc('no-argument-named', { keyword: '' }).trim(),
};

/** Keywords of nms_postprocess that carry the NMS config's values: with a config path the DFC refuses them. */
export const NMS_CONFIG_ARGUMENTS = new Set([
  'nms_scores_th',
  'nms_iou_th',
  'image_dims',
  'max_proposals_per_class',
  'classes',
  'regression_length',
  'background_removal',
  'background_removal_index',
  'number_of_detection_heads',
]);

function cmd(spec: Omit<CommandSpec, 'evidence' | 'argumentSet'> & { evidence?: Evidence; argumentSet?: ArgumentSet }): CommandSpec {
  return { evidence: 'corpus', argumentSet: CORPUS_ARGUMENTS, ...spec };
}

/** The argument set that governs a statement's keywords: its feature's, else its command's. */
export function argumentSetOf(spec: CommandSpec, sub?: SubcommandSpec): ArgumentSet {
  return sub?.argumentSet ?? spec.argumentSet;
}

const inputLayer = (optional = false) => p('input_layer', LAYER, 'the input layer it applies to', optional ? { optional } : {});

const COMMAND_LIST: CommandSpec[] = [
  // -- model modification (full-precision stage) --
  cmd({
    name: 'normalization',
    doc: 'on-chip input normalization `(x - mean) / std`, mean/std per channel on the 0–255 scale',
    stage: 'modification',
    since: 'v2.1 (DFC 3.17)',
    targets: 'required',
    targetEvidence: 'confirmed',
    signatures: [sig(p('mean', NUM_LIST, 'per-channel mean, 0–255 scale'), p('std', NUM_LIST, 'per-channel std, 0–255 scale'), inputLayer(true))],
    kwargs: kw(),
  }),
  cmd({
    name: 'input_conversion',
    doc: 'on-chip colour/format conversion of an input (hybrid types create 2 layers)',
    stage: 'modification',
    since: 'v2.5 (DFC 3.20.1)',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [
      sig(p('type', { kinds: ['enum'], enum: INPUT_CONVERSION }, 'conversion type')),
      sig(inputLayer(), p('type', { kinds: ['enum'], enum: INPUT_CONVERSION }, 'conversion type')),
    ],
    kwargs: kw(
      p(
        'emulator_support',
        BOOL,
        'also apply the conversion in the emulator (whether the calibration set is then given in the converted format is disputed between two informal sources)',
      ),
    ),
  }),
  cmd({
    name: 'yuv_to_rgb',
    doc: 'legacy YUV→RGB conversion; later written `input_conversion(yuv_to_rgb)`',
    stage: 'modification',
    since: 'v2.1',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(inputLayer(true))],
    kwargs: kw(),
    replacedBy: 'input_conversion(yuv_to_rgb)',
    zoo: { releases: 'v2.1–v2.9.1', scripts: 44 },
  }),
  cmd({
    name: 'resize',
    doc: 'on-chip input resize to `resize_shapes=[H, W]`',
    stage: 'modification',
    since: 'v2.10 (DFC 3.26)',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(inputLayer(true))],
    kwargs: kw(
      p('resize_shapes', { kinds: ['intList'], length: 2, min: 1, rangeSeverity: 'error', rangeNote: 'a size in pixels' }, '[H, W] of the resized input'),
    ),
  }),
  cmd({
    name: 'resize_input',
    doc: 'legacy input resize `resize_input([H, W], input_layer)`; replaced by `resize(...)` in v2.10 (DFC 3.26)',
    stage: 'modification',
    since: 'v2.1',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('shape', { kinds: ['intList'], length: 2, min: 1, rangeSeverity: 'error', rangeNote: 'a size in pixels' }, '[H, W]'), inputLayer())],
    kwargs: kw(),
    replacedBy: 'resize(input_layer, resize_shapes=[H, W])',
    zoo: { releases: 'v2.1–v2.9.1', scripts: 34 },
  }),
  cmd({
    name: 'transpose',
    doc: 'transpose the whole model (H↔W)',
    stage: 'modification',
    since: 'v2.1',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(),
  }),
  cmd({
    name: 'nms_postprocess',
    doc: 'add NMS post-processing (on the host CPU via HailoRT, or on the NN core); a relative config path resolves against the .alls folder',
    stage: 'modification',
    since: 'v2.3 (DFC 3.19)',
    targets: 'none',
    argumentSet: NMS_ARGUMENTS,
    signatures: [
      sig(
        p('config_path', STR, 'NMS config JSON (relative to the .alls folder)', { optional: true }),
        p('meta_arch', { kinds: ['enum'], enum: NMS_META_ARCH }, 'detector family', { optional: true }),
      ),
    ],
    kwargs: kw(
      p('meta_arch', { kinds: ['enum'], enum: NMS_META_ARCH }, 'detector family whose outputs are decoded'),
      p('engine', { kinds: ['enum'], enum: NMS_ENGINE }, 'where NMS runs'),
      p('bbox_decoding_only', BOOL, 'decode boxes without NMS'),
      p('classes', POS_INT, 'number of classes (model-zoo code)', { evidence: 'hailo' }),
      p('config_path', STR, 'NMS config JSON (model-zoo code)', { evidence: 'hailo' }),
      p(
        'nms_scores_th',
        { kinds: ['number'], min: 0, max: 1, rangeSeverity: 'warning', rangeNote: 'a score threshold' },
        'score threshold (third-party code)',
        { evidence: 'third-party' },
      ),
      p('nms_iou_th', { kinds: ['number'], min: 0, max: 1, rangeSeverity: 'warning', rangeNote: 'an IoU threshold' }, 'IoU threshold (third-party code)', {
        evidence: 'third-party',
      }),
      p('max_proposals_per_class', POS_INT, 'boxes kept per class (third-party code)', { evidence: 'third-party' }),
      p('image_dims', { kinds: ['intList'], length: 2 }, 'input image [H, W] (third-party code)', { evidence: 'third-party' }),
      // The other top-level keys of Hailo's NMS config JSONs: the DFC takes a config's values as keywords.
      p('regression_length', POS_INT, "box regression bins per side (a key of Hailo's NMS configs)", { evidence: 'hailo' }),
      p('background_removal', BOOL, "drop the background class (a key of Hailo's NMS configs)", { evidence: 'hailo' }),
      p('background_removal_index', NON_NEG_INT, "index of the background class (a key of the DFC's default NMS config)", { evidence: 'hailo' }),
      p('number_of_detection_heads', POS_INT, "detection heads (a key of Hailo's NMS configs)", { evidence: 'hailo' }),
    ),
  }),
  cmd({
    name: 'change_output_activation',
    doc: 'replace the activation of an output layer (1-argument form: all outputs — GUESS from usage)',
    stage: 'modification',
    since: 'v2.4 (DFC 3.20)',
    targets: 'none',
    signatures: [
      sig(p('activation', { kinds: ['enum'], enum: ACTIVATION }, 'new activation')),
      sig(p('layer', LAYER, 'output layer'), p('activation', { kinds: ['enum'], enum: ACTIVATION }, 'new activation')),
    ],
    kwargs: kw(),
  }),
  cmd({
    name: 'logits_layer',
    doc: "add a logits op (softmax over an axis) executed on the host; always `logits_layer(layer, softmax, -1, cpu)` in Hailo's scripts",
    stage: 'modification',
    since: 'v2.9 (DFC 3.25)',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [
      sig(
        p('layer', LAYER, 'layer whose output feeds the op'),
        p('op', single('logits op', [['softmax', 'softmax']]), 'operation (GUESS from values)'),
        p('axis', INT, 'axis (GUESS from values)'),
        p('device', single('logits device', [['cpu', 'host CPU']]), 'where it runs (GUESS from values)'),
      ),
    ],
    kwargs: kw(),
  }),
  cmd({
    name: 'set_seed',
    doc: 'random seed (GUESS: for the optimization stage)',
    stage: 'modification',
    since: 'v2.9',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(p('seed', INT, 'seed value')),
  }),
  cmd({
    name: 'remove_node',
    doc: "remove an HN node (always a `format_conversionN` in Hailo's scripts)",
    stage: 'modification',
    since: 'v2.13 (DFC 3.29)',
    targets: 'none',
    signatures: [sig(p('layer', LAYER, 'node to remove'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'convert_to_dense',
    doc: 'convert a layer to dense (GUESS; one script, hailo15h)',
    stage: 'modification',
    since: 'v5.0.0',
    targets: 'none',
    signatures: [sig(p('layer', LAYER, 'layer to convert'))],
    kwargs: kw(),
    arch: ONLY_15,
  }),

  // -- optimization --
  cmd({
    name: 'model_optimization_flavor',
    doc: 'overall optimization effort and weight compression',
    stage: 'optimization',
    since: 'v2.3',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p(
        'optimization_level',
        { kinds: ['int'], min: 0, max: 4, rangeSeverity: 'error', rangeNote: "Hailo's HACE inspector proposes raising it only while below 4" },
        'optimization effort 0–4 (default 2). 0 only calibrates (no bias correction, fine-tuning or compression) — and is the level the DFC drops its *default* to, silently, when the calibration set has fewer than 1024 images or the container has no GPU; a level written here runs as asked (2–4 then train on the CPU)',
      ),
      p(
        'compression_level',
        { kinds: ['int'], min: 0, max: 5, rangeSeverity: 'warning', rangeNote: "0–3 seen in Hailo's scripts, 4 in third-party code, 5 unverified" },
        'share of 4-bit weights, 0–5 (upper bound unverified)',
      ),
      p('batch_size', POS_INT, 'batch size (third-party and tutorial-derived code)', { evidence: 'third-party' }),
    ),
  }),
  cmd({
    name: 'model_optimization_config',
    doc: 'configure one optimization component (first argument: the component)',
    stage: 'optimization',
    since: 'v2.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(),
    subcommands: { enumName: 'MOConfigCommand', items: MO_CONFIG },
  }),
  cmd({
    name: 'quantization_param',
    doc: 'per-layer quantization settings (first argument: a layer, `{glob}` or `[list]`)',
    stage: 'optimization',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig(p('layers', LAYERS_ANY, 'layers: a name, a `{glob}` or a `[list]`'))],
    kwargs: kw(
      p('precision_mode', { kinds: ['enum'], enum: PRECISION_MODE }, 'activation/weight bit widths, `a<act>_w<weights>[_a<output>]`'),
      p('bias_mode', { kinds: ['enum'], enum: BIAS_MODE }, 'how the bias is represented'),
      p('activation_clipping_mode', { kinds: ['enum'], enum: QP_CLIP_MODE }, 'how activation_clipping_values are read'),
      p('activation_clipping_values', PAIR, '[lo, hi] activation clipping'),
      p('activation_fit', ON_OFF, 'fit the activation function (meaning GUESS)'),
      p('force_range_in', PAIR, 'force the input range [lo, hi]'),
      p('force_range_index', NON_NEG_INT, 'which input force_range_in applies to'),
      p('force_range_out', PAIR, 'force the output range [lo, hi] (forum answer; also re-quantizes kernels)', { evidence: 'third-party' }),
      p('max_elementwise_feed_repeat', POS_INT, 'element-wise feed repeat limit'),
      p('null_channels_cutoff_factor', NUM, 'cut-off factor for null channels'),
      p('use_16bit_bias', BOOL, '16-bit bias'),
      p('weight_group_size', POS_INT, 'weights per quantization group (hailo15l scripts only)', { arch: ONLY_15L, since: 'v5.2.0' }),
    ),
  }),
  cmd({
    name: 'pre_quantization_optimization',
    doc: 'an optimization step applied before quantization (first argument: the feature)',
    stage: 'optimization',
    since: 'v1.2',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(),
    subcommands: { enumName: 'PreQuantizationFeature', items: PRE_QUANT },
  }),
  cmd({
    name: 'post_quantization_optimization',
    doc: 'an optimization step applied after quantization (first argument: the feature)',
    stage: 'optimization',
    since: 'v1.2',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(),
    subcommands: { enumName: 'PostQuantizationFeature', items: POST_QUANT },
  }),

  // -- compilation (global) --
  cmd({
    name: 'performance_param',
    doc: 'compilation performance goals',
    stage: 'compilation',
    since: 'v2.4',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('fps', { kinds: ['number', 'none'], min: 0, rangeSeverity: 'error', rangeNote: 'frames per second' }, 'target frames per second (`None` = no target)'),
      p(
        'compiler_optimization_level',
        {
          kinds: ['int', 'enum'],
          enum: enumOf('compiler_optimization_level', false, "values seen in Hailo's scripts", [['max', 'maximum performance, longest compilation']]),
          min: 0,
          rangeSeverity: 'error',
          rangeNote: 'a level',
        },
        'hardware optimization effort: 0, 1, 2 or `max` (independent of optimization_level)',
      ),
      p(
        'optimization_level',
        { kinds: ['int', 'enum'], enum: enumOf('optimization_level', false, "values seen in Hailo's scripts", [['max', 'maximum']]) },
        'legacy spelling of compiler_optimization_level',
        { replacedBy: 'compiler_optimization_level', zoo: { releases: 'v2.8–v5.2.0', scripts: 26 } },
      ),
      p('optimize_for_batch', POS_INT, 'batch size to optimize for'),
      p('optimize_for_power', BOOL, 'optimize for power instead of speed'),
    ),
  }),
  cmd({
    name: 'resources_param',
    doc: 'resource utilization limits for the allocator (memory, compute, control/LCU, …)',
    stage: 'compilation',
    since: 'v1.1',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('max_utilization', UTIL, 'overall utilization limit (0.0 in compiler-written scripts)'),
      p('max_compute_utilization', UTIL, 'compute utilization limit'),
      p('max_control_utilization', UTIL, 'control (LCU) utilization limit'),
      p('max_memory_utilization', UTIL, 'weights-memory utilization limit'),
      p('max_input_aligner_utilization', UTIL, 'input-aligner utilization limit'),
      p('max_apu_utilization', UTIL, 'APU utilization limit'),
      p('max_compute_16bit_utilization', UTIL, '16-bit compute utilization limit'),
      p(
        'strategy',
        single(
          'resources strategy',
          [
            ['greedy', 'greedy allocation'],
            ['legacy', 'legacy allocation'],
          ],
          "values seen in Hailo's scripts",
        ),
        'allocation strategy',
      ),
    ),
  }),
  cmd({
    name: 'allocator_param',
    doc: 'allocator (place-and-route) settings; repeated statements accumulate',
    stage: 'compilation',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('agent', single('agent', [['melg', 'the melg agent']]), 'allocation agent'),
      p('auto_split_const_inputs', BOOL, 'split constant inputs automatically'),
      p('automatic_ddr', TRI_OR_BOOL, 'place DDR portals automatically'),
      p('automatic_ddr_l3_cuts_threshold', NON_NEG_INT, 'L3 cuts before a DDR portal is used'),
      p('automatic_l4_portals', TRI_OR_BOOL, 'place L4 portals automatically'),
      p('automatic_l4_portals_l3_cuts_threshold', NON_NEG_INT, 'L3 cuts before an L4 portal is used'),
      p('automatic_reshapes', TRI_OR_BOOL, 'insert reshapes automatically'),
      p('automatic_resize_reshapes', TRI, 'insert resize reshapes automatically'),
      p('builder_exit_point', single('builder_exit_point', [['post-compilation', 'stop after compilation']]), 'where the builder stops'),
      p('calculate_power', BOOL, 'estimate power'),
      p('clk_freq', NUM, 'clock frequency in Hz'),
      p('cluster_timeout', POS_INT, 'per-cluster timeout in seconds'),
      p('defuse_by_validator', BOOL, 'let the validator defuse layers'),
      p('disable_row_per_cut', BOOL, 'disable row-per-cut buffers'),
      p('enable_auto_spatial_collapse', BOOL, 'collapse spatial dimensions automatically'),
      p('enable_auto_spatial_reshapes', BOOL, 'insert spatial reshapes automatically'),
      p('enable_automatic_features_chunks', BOOL, 'chunk features automatically'),
      p('enable_automatic_join', BOOL, 'insert joins automatically (hailo15 scripts)', { arch: ONLY_15 }),
      p('enable_automatic_offdevice_outputs', BOOL, 'move outputs off-device automatically'),
      p(
        'enable_automatic_wgq',
        single('enable_automatic_wgq', [['fast', 'fast weight-group quantization']]),
        'automatic weight-group quantization (hailo15l scripts)',
        { arch: ONLY_15L },
      ),
      p(
        'enable_axis_upsize',
        {
          kinds: ['bool', 'enum'],
          enum: enumOf('enable_axis_upsize', false, "values seen in Hailo's scripts", [['bottleneck_fps', 'upsize only for the bottleneck FPS']]),
        },
        'upsize axes',
      ),
      p('enable_collapser', BOOL, 'enable the collapser'),
      p('enable_defuse_with_slack', BOOL, 'defuse with slack'),
      p(
        'enable_fixer',
        {
          kinds: ['bool', 'enum'],
          enum: enumOf('enable_fixer', false, "values seen in Hailo's scripts", [
            ['disabled', 'off'],
            ['max_adjcents', 'fix up to the maximum of adjacents (sic)'],
          ]),
        },
        'enable the fixer',
      ),
      p('enable_hw_padding', BOOL, 'hardware padding'),
      p('enable_input_phases', BOOL, 'input phases'),
      p('enable_lanes', BOOL, 'compute lanes'),
      p('enable_lcu_ecc', BOOL, 'LCU ECC'),
      p('enable_loose_mode', BOOL, 'loose mode'),
      p('enable_macros', BOOL, 'macros'),
      p('enable_muxer', BOOL, 'output muxer'),
      p('enable_partial_row_buffers', TRI_OR_BOOL, 'partial-row buffers'),
      p('enable_post_split_average_buffers', TRI_OR_BOOL, 'average buffers after splits'),
      p('enable_single_buffer_for_feasibility', BOOL, 'single buffer for feasibility'),
      p('enable_swapper', BOOL, 'swapper'),
      p('enable_unikorn', BOOL, 'unikorn (meaning GUESS)'),
      p('force_map_on_mirror', BOOL, 'force mapping on mirror'),
      p('fps_ratio_impact', NUM, 'FPS ratio impact'),
      p('input_layer_max_successors', POS_INT, 'maximum successors of an input layer'),
      p('max_auto_defuse', NON_NEG_INT, 'maximum automatic defuse'),
      p('max_auto_merge_depth', NON_NEG_INT, 'maximum automatic merge depth'),
      p('max_cluster_util', UTIL, 'maximum cluster utilization'),
      p('max_lcu_usage', NON_NEG_INT, 'maximum LCU usage'),
      p('max_lcu_utilization', UTIL, 'maximum LCU utilization'),
      p('merge_max_layer_utilization', NUM, 'merge: maximum layer utilization'),
      p('merge_max_memory_utilization', NUM, 'merge: maximum memory utilization'),
      p('merge_min_layer_utilization', NUM, 'merge: minimum layer utilization'),
      p('muxer_slack', NON_NEG_INT, 'muxer slack'),
      p('network_fps', NUM, 'network FPS target'),
      p('num_of_workers', POS_INT, 'worker processes'),
      p('optimize_buffers', BOOL, 'optimize buffers'),
      p('optimize_one_to_many_shmifos', BOOL, 'optimize one-to-many SHMIFOs'),
      p('optimize_pipeline_stoppage', BOOL, 'optimize pipeline stoppage'),
      p('ppu_reshape_slack', NON_NEG_INT, 'PPU reshape slack'),
      p('run_format_fixer', BOOL, 'run the format fixer (hailo15 scripts)', { arch: ONLY_15 }),
      p('seed', INT, 'allocator random seed'),
      p('spatial_defuse_legacy', BOOL, 'legacy spatial defuse'),
      p('split_aware_optimize_buffers', BOOL, 'split-aware buffer optimization'),
      p('splitter_timeout', POS_INT, 'splitter timeout in seconds'),
      p('strategy', single('allocator strategy', [['blind_search', 'blind search']]), 'allocation strategy'),
      p(
        'timeout',
        { kinds: ['int', 'duration'], min: 1, rangeSeverity: 'error', rangeNote: 'a timeout' },
        'allocation timeout: seconds or a duration like `30m`, `2h`',
      ),
      p('validate', BOOL, 'validate the allocation'),
      p('width_splitter_defuse', ON_OFF, 'defuse with the width splitter'),
    ),
  }),
  cmd({
    name: 'context_switch_param',
    doc: 'multi-context (context switch) settings',
    stage: 'compilation',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('mode', { kinds: ['enum'], enum: CS_MODE }, 'whether the network is split into contexts'),
      p('max_utilization', UTIL, 'per-context utilization limit'),
      p('max_compute_utilization', UTIL, 'per-context compute limit'),
      p('max_control_utilization', UTIL, 'per-context control limit'),
      p('max_memory_utilization', UTIL, 'per-context memory limit'),
      p('goal_network_compute_utilization', UTIL, 'network-wide compute goal'),
      p('goal_network_control_utilization', UTIL, 'network-wide control goal'),
      p('goal_network_memory_utilization', UTIL, 'network-wide memory goal'),
      p('goal_network_weights_utilization', UTIL, 'network-wide weights goal'),
      p('toposort_mode', single('toposort_mode', [['pushdown', 'push layers down the topological order']]), 'topological sort mode'),
      p('slotter_chances', POS_INT, 'slotter attempts'),
      p('berkitizer_bucket_size', POS_INT, 'bucket size'),
      p('berkitizer_min_size', POS_INT, 'minimum bucket size'),
      p('auto_partition_to_buckets', BOOL, 'partition into buckets automatically'),
      p('share_buckets_partition', BOOL, 'share the bucket partition'),
      p('allow_auto_merge_in_multicontext', BOOL, 'auto-merge in multi-context (hailo15 scripts)', { arch: ONLY_15 }),
    ),
  }),
  cmd({
    name: 'buffer_calc_param',
    doc: 'buffer calculation settings (hailo8-era scripts)',
    stage: 'compilation',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('buffer_calc_fps', NUM, 'FPS the buffers are sized for'),
      p('optimize_buffers', BOOL, 'optimize buffers'),
      p('split_aware_optimize_buffers', BOOL, 'split-aware buffer optimization'),
      p('save_latency_timeline', BOOL, 'save the latency timeline'),
    ),
    arch: ONLY_8,
  }),
  cmd({
    name: 'optimize_buffers',
    doc: 'optimize buffers (hailo8-era scripts)',
    stage: 'compilation',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(),
    arch: ONLY_8,
  }),
  cmd({
    name: 'platform_param',
    doc: 'platform settings',
    stage: 'compilation',
    since: 'v2.2',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(p('hef_version', POS_INT, "HEF format version (2 or 5 in Hailo's scripts)")),
  }),
  cmd({
    name: 'hef_param',
    doc: 'settings of the produced HEF',
    stage: 'compilation',
    since: 'v1.1',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(
      p('share_config', TRI, 'share configuration between contexts'),
      p('cfg_channel_count', POS_INT, 'configuration channels (hailo15 scripts)', { arch: ONLY_15 }),
      p('dma_engine_count', POS_INT, 'DMA engines (hailo15 scripts)', { arch: ONLY_15 }),
      p('enable_ko', TRI, 'KO (meaning GUESS; hailo15 scripts)', { arch: ONLY_15 }),
      p('enable_lcu_from_sequencer', TRI, 'LCU from sequencer (hailo15 scripts)', { arch: ONLY_15 }),
      p('enable_csm_crc', TRI, 'CSM CRC (hailo15 scripts)', { arch: ONLY_15 }),
      p('enable_self_reset_optimization', TRI, 'self-reset optimization'),
      p('params_compression', BOOL, 'compress parameters'),
      p('params_load_time_compression', BOOL, 'compress parameters at load time'),
      p('should_prioritize_sequencer_over_l3', BOOL, 'prefer the sequencer over L3'),
      p('should_run_full_validation', BOOL, 'run full validation'),
      p('should_run_abstract_validation', BOOL, 'run abstract validation'),
      p('should_use_sequencer_interleave', BOOL, 'sequencer interleave'),
      p('should_use_sequencer_l2_interleave', BOOL, 'sequencer L2 interleave'),
      p('strict_runtime_versioning', BOOL, 'strict runtime versioning (hailo15 scripts)', { arch: ONLY_15 }),
    ),
  }),
  cmd({
    name: 'spatial_reshape_flow_params',
    doc: 'spatial reshape flow settings (hailo15 scripts)',
    stage: 'compilation',
    since: 'v5.2.0',
    targets: 'none',
    signatures: [sig()],
    kwargs: kw(p('buffer_size_factor', { kinds: ['number'], min: 0, rangeSeverity: 'error', rangeNote: 'a factor' }, 'buffer size factor')),
    arch: ONLY_15,
  }),

  // -- allocation (per layer; mostly compiler-written allocator scripts) --
  cmd({
    name: 'compilation_param',
    doc: 'per-layer compilation settings (first argument: a layer, `{glob}` or `[list]`); `ctx.compilation_param(...)` sets a context',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'none',
    signatures: [sig(p('layers', LAYERS_ANY, 'layers: a name, a `{glob}` or a `[list]`'))],
    kwargs: kw(
      p('balance_output_multisplit', TRI_OR_BOOL, 'balance output multi-split'),
      p('buffer_in_l4', BOOL, 'keep the buffer in L4'),
      p('compress_l3_weights', TRI, 'compress weights in L3'),
      p('defuse_num_layers', NON_NEG_INT, 'defuse into this many layers'),
      p('defuse_spatial_w', BOOL, 'defuse spatially along the width'),
      p('enable_ew_add_optimization', TRI, 'element-wise add optimization'),
      p('enable_nested_defuse', BOOL, 'nested defuse'),
      p('fps', { kinds: ['number'], min: 0, rangeSeverity: 'error', rangeNote: 'frames per second' }, 'FPS target'),
      p('hw_layer_type_list', { kinds: ['enumList'], enum: HW_LAYER_TYPE }, 'hardware unit types'),
      p('layer_output_buffers_format', { kinds: ['enum'], enum: BUFFER_FORMAT }, 'output buffer format'),
      p('mixed_mem', TRI_OR_BOOL, 'mixed memory'),
      p('no_contexts', TRI_OR_BOOL, 'keep out of contexts'),
      p('number_of_apus', NON_NEG_INT, 'APUs'),
      p('number_of_input_aligners', NON_NEG_INT, 'input aligners'),
      p('number_of_lanes', NON_NEG_INT, 'lanes'),
      p('number_of_subclusters', NON_NEG_INT, 'sub-clusters'),
      p('parallel_activation', TRI, 'parallel activation'),
      p('resize_bilinear_streaming', TRI_OR_BOOL, 'streaming bilinear resize'),
      p('resources_allocation_strategy', { kinds: ['enum'], enum: RES_ALLOC_STRATEGY }, 'resource allocation strategy'),
      p('use_16x4_sc', TRI, '16×4 sub-clusters'),
    ),
  }),
  cmd({
    name: 'defuse',
    doc: 'split a logical layer into physical layers: `d0, …, dc = defuse(layer, n [, defuse_type=…])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [
      sig(p('layer', LAYER, 'layer to split'), p('count', { kinds: ['int'], min: 1, rangeSeverity: 'error', rangeNote: 'a piece count' }, 'number of pieces')),
    ],
    kwargs: kw(
      p('defuse_type', { kinds: ['enum'], enum: DEFUSE_TYPE }, 'how the layer is split (default: feature defuse)'),
      p('axis', single('axis', [['FEATURES', 'the features axis']]), 'split axis'),
      p('splitter', BOOL, 'add a splitter'),
      p('transpose', BOOL, 'add a transpose target'),
    ),
  }),
  cmd({
    name: 'defuse_block',
    doc: 'defuse a block of layers: `{} = defuse_block(layer, …, defuse_count=4)`',
    stage: 'allocation',
    since: 'v2.13',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('layers', LAYER, 'layers of the block', { variadic: true }))],
    kwargs: kw(p('defuse_count', POS_INT, 'number of pieces')),
  }),
  cmd({
    name: 'concat',
    doc: 'concatenate layers into one: `T = concat([layers], layer)`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('inputs', LAYER_LIST, 'layers to concatenate'), p('output', LAYER, 'consumer layer'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'shortcut',
    doc: 'a shortcut from one layer to others: `T = shortcut(layer, [layers])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('source', LAYER, 'producer'), p('destinations', LAYER_OR_LIST, 'consumer(s)'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'feature_splitter',
    doc: 'split features of a layer to several layers (hailo8-era scripts)',
    stage: 'allocation',
    since: 'v1.2',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('source', LAYER, 'producer'), p('destinations', LAYER_LIST, 'consumers'))],
    kwargs: kw(),
    arch: ONLY_8,
  }),
  cmd({
    name: 'shape_splitter',
    doc: 'split a layer by shape: `T = shape_splitter(SPLIT_WIDTH|SPLIT_FEATURES, layer, [layers])`',
    stage: 'allocation',
    since: 'v2.13',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [
      sig(p('mode', { kinds: ['enum'], enum: SPLIT_MODE }, 'split axis'), p('source', LAYER, 'producer'), p('destinations', LAYER_LIST, 'consumers')),
    ],
    kwargs: kw(),
  }),
  cmd({
    name: 'format_conversion',
    doc: 'insert a data-format conversion between layers: `T = format_conversion(src, dst, type[, ints…])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [
      sig(
        p('source', LAYER, 'producer'),
        p('destination', { kinds: ['layer', 'enum'], enum: FORMAT_CONVERSION_TYPE }, 'consumer (or the conversion type)'),
        p('args', { kinds: ['any'], enum: FORMAT_CONVERSION_TYPE }, 'conversion type, then sizes', { optional: true, variadic: true }),
      ),
    ],
    kwargs: kw(
      p('collapse', BOOL, 'collapse dimensions'),
      p('input_windows', { kinds: ['intList'], length: 3 }, 'input windows [a, b, c]'),
      p('output_windows', { kinds: ['intList'], length: 3 }, 'output windows [a, b, c]'),
    ),
  }),
  cmd({
    name: 'transpose_concat',
    doc: 'transpose around a concat: `A, B, C = transpose_concat(concat1)`',
    stage: 'allocation',
    since: 'v2.13',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('layer', LAYER, 'concat layer'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'portal',
    doc: 'a portal between two layers (hailo8-era scripts)',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('source', LAYER, 'producer'), p('destination', LAYER, 'consumer'))],
    kwargs: kw(p('buffer_in_l4', BOOL, 'keep the buffer in L4')),
    arch: ONLY_8,
  }),
  cmd({
    name: 'l4_portal',
    doc: 'an L4 portal between layers (hailo8-era scripts)',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('source', LAYER, 'producer'), p('destinations', LAYER_OR_LIST, 'consumer(s)'))],
    kwargs: kw(),
    arch: ONLY_8,
  }),
  cmd({
    name: 'ddr',
    doc: 'a DDR portal between two layers',
    stage: 'allocation',
    since: 'v1.1',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('source', LAYER, 'producer'), p('destination', LAYER, 'consumer'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'merge',
    doc: 'merge two layers into one physical layer',
    stage: 'allocation',
    since: 'v1.2',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('first', LAYER, 'first layer'), p('second', LAYER, 'second layer'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'output_mux',
    doc: 'multiplex outputs into one (hailo8-era scripts)',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('outputs', LAYER_LIST, 'output layers'))],
    kwargs: kw(),
    arch: ONLY_8,
  }),
  cmd({
    name: 'mux_demux',
    doc: 'a mux/demux pair: `M, D = mux_demux([layers], [layers])`',
    stage: 'allocation',
    since: 'v5.2.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('inputs', LAYER_LIST, 'muxed layers'), p('outputs', LAYER_LIST, 'demuxed layers'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'join',
    doc: 'join layers: `join(layer, [layers] [, join_type=SHMIFO])` (hailo15 scripts)',
    stage: 'allocation',
    since: 'v5.2.0',
    targets: 'none',
    signatures: [sig(p('layer', LAYER, 'joined layer'), p('layers', LAYER_LIST, 'layers joined to it'))],
    kwargs: kw(p('join_type', single('join_type', [['SHMIFO', 'through a SHMIFO']]), 'join mechanism')),
    arch: ONLY_15,
  }),
  cmd({
    name: 'output_layer',
    doc: 'an output layer feeding an off-device layer (hailo15 scripts)',
    stage: 'allocation',
    since: 'v5.2.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('layer', LAYER, 'producer'))],
    kwargs: kw(p('offdevice_layer', NAME, 'off-device consumer, e.g. `yolov8_nms_postprocess`')),
    arch: ONLY_15,
  }),
  cmd({
    name: 'buffers',
    doc: 'buffer between two layers: `buffers(src, dst, n [, m] [, FULL_ROW|PARTIAL_ROW])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'none',
    signatures: [
      sig(
        p('source', LAYER, 'producer'),
        p('destination', LAYER, 'consumer'),
        p('count', NON_NEG_INT, 'buffer count'),
        p('second', { kinds: ['int', 'enum'], enum: ROW_MODE }, 'second count or row mode', { optional: true }),
        p('row_mode', { kinds: ['enum'], enum: ROW_MODE }, 'row mode', { optional: true }),
      ),
    ],
    kwargs: kw(),
  }),
  cmd({
    name: 'context',
    doc: 'a context (partition of the network): `context_0 = context([layers])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('layers', LAYER_LIST, 'layers in the context'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'place',
    doc: 'place layers on a cluster of a context: `ctx.place(cluster, [layers])`',
    stage: 'allocation',
    since: 'v1.0',
    targets: 'none',
    methodOnly: true,
    bareForm: { releases: 'v1.0–v5.0.0', scripts: 67 },
    signatures: [
      sig(
        p('cluster', NON_NEG_INT, "cluster index (0–7 hailo8, 0–4 hailo15h/m, 0–2 hailo15l in Hailo's scripts)"),
        p('layers', LAYER_LIST, 'layers placed there'),
      ),
    ],
    kwargs: kw(),
  }),
  cmd({
    name: 'bucket',
    doc: 'a bucket of layers: `b0 = bucket([layers])`',
    stage: 'allocation',
    since: 'v5.1.0',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('layers', LAYER_LIST, 'layers in the bucket'))],
    kwargs: kw(),
  }),
  cmd({
    name: 'network_group',
    doc: 'a network group: `net = network_group([net])`',
    stage: 'allocation',
    since: 'v2.13',
    targets: 'required',
    targetEvidence: 'usage',
    signatures: [sig(p('networks', LAYER_LIST, 'networks in the group'))],
    kwargs: kw(),
  }),
];

/**
 * Every spec of one kind gets the same properties in the same order (an absent one undefined), and
 * every value spec its kind bits up front. The checker's hot functions (valueFits, chooseSignature,
 * checkValue, …) then meet one hidden class per kind instead of up to eight, which grew further as
 * kindBits filled `bits` in lazily: V8 deoptimized them on "wrong map" again and again during the
 * first (cold) check of a large script, the one `hailo-tools check` pays for. Shared specs stay
 * shared (one rebuilt object each), keyword tables keep their null prototype.
 */
function uniformShapes(commands: CommandSpec[]): CommandSpec[] {
  const params = new Set<ParamSpec>();
  const subs = new Set<SubcommandSpec>();
  for (const c of commands) {
    for (const s of c.signatures) for (const x of s.params) params.add(x);
    for (const x of Object.values(c.kwargs)) params.add(x);
    for (const sub of Object.values(c.subcommands?.items ?? {})) {
      subs.add(sub);
      for (const x of Object.values(sub.kwargs)) params.add(x);
    }
  }
  const values = new Set([...params].map((x) => x.value));
  for (const v of values) kindBits(v);
  const keysOf = (objects: Iterable<object>) => {
    const keys = new Set<string>();
    for (const o of objects) for (const k of Object.keys(o)) keys.add(k);
    return [...keys];
  };
  const rebuilt = <T extends object>(objects: Iterable<T>): Map<T, T> => {
    const keys = keysOf(objects);
    const out = new Map<T, T>();
    for (const o of objects) {
      const copy: Record<string, unknown> = {};
      for (const k of keys) copy[k] = (o as Record<string, unknown>)[k];
      out.set(o, copy as T);
    }
    return out;
  };
  const newValues = rebuilt(values);
  const newParams = rebuilt(params);
  for (const x of newParams.values()) x.value = newValues.get(x.value)!;
  // A table shared by several specs is rewritten once (its entries are then already the new ones).
  const retable = <T extends object>(table: Record<string, T>, map: Map<T, T>) => {
    for (const k of Object.keys(table)) table[k] = map.get(table[k]) ?? table[k];
  };
  const newSubs = rebuilt(subs);
  for (const sub of newSubs.values()) retable(sub.kwargs, newParams);
  const newCommands = rebuilt(commands);
  for (const c of newCommands.values()) {
    c.signatures = c.signatures.map((s) => ({ params: s.params.map((x) => newParams.get(x)!) }));
    retable(c.kwargs, newParams);
    if (c.subcommands) retable(c.subcommands.items, newSubs);
  }
  return commands.map((c) => newCommands.get(c)!);
}

export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(uniformShapes(COMMAND_LIST).map((c) => [c.name, c]));

/** `ctx.method(...)` forms: a context's `place` and `compilation_param(fps=…)`. */
export const METHODS: ReadonlyMap<string, CommandSpec> = new Map([
  ['place', COMMANDS.get('place')!],
  [
    'compilation_param',
    { ...COMMANDS.get('compilation_param')!, signatures: [sig()], doc: 'compilation settings of a context, e.g. `context_0.compilation_param(fps=330.0)`' },
  ],
]);

/** Commands that never take assignment targets are not `targets: 'required'`; see rules R5. */
export function commandNames(): string[] {
  return COMMAND_LIST.filter((c) => !c.methodOnly).map((c) => c.name);
}

export const ALL_ENUMS: EnumSpec[] = [
  PRECISION_MODE,
  POLICY,
  TRISTATE,
  ACTIVATION,
  NMS_META_ARCH,
  NMS_ENGINE,
  INPUT_CONVERSION,
  DEFUSE_TYPE,
  SPLIT_MODE,
  ROW_MODE,
  BIAS_MODE,
  QP_CLIP_MODE,
  CLIP_MODE,
  WEIGHTS_CLIP_MODE,
  LOSS_TYPE,
  CORRECTION_TYPE,
  BIT_DECOMP,
  CS_MODE,
  BUFFER_FORMAT,
  HW_LAYER_TYPE,
  RES_ALLOC_STRATEGY,
  FORMAT_CONVERSION_TYPE,
];

let words: string[] | undefined;

/** Every word the schema knows (commands, sub-commands, keywords, enum values, booleans). */
export function schemaWords(): string[] {
  if (words) return words;
  const w = new Set<string>(['True', 'False', 'true', 'false', 'None', 'null']);
  const addParams = (ps: Iterable<ParamSpec>) => {
    for (const prm of ps) {
      w.add(prm.name);
      for (const v of prm.value.enum?.values ?? []) w.add(v.name);
    }
  };
  for (const c of COMMANDS.values()) {
    w.add(c.name);
    addParams(Object.values(c.kwargs));
    for (const sg of c.signatures) addParams(sg.params);
    for (const sub of Object.values(c.subcommands?.items ?? {})) {
      w.add(sub.name);
      addParams(Object.values(sub.kwargs));
    }
  }
  words = [...w];
  return words;
}

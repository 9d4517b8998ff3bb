// From the decoded protobuf body to the facts HailoRT would report: arch and compatible devices,
// SDK version, extensions, network groups, networks, streams, vstreams (with post-process ops
// hiding the streams they consume), sorted output order. Follows HailoRT's rules as recorded in
// docs/research/hef-format.md#protobuf-schema; where HailoRT would refuse the file, a `compat` problem says why.
import { limit, limitMessage } from '../common/limits';
import { has, type Msg } from './protoDecode';
import {
  asHef,
  type NmsKindField,
  type ProtoHeader,
  type ProtoLayerInfo,
  type ProtoLayerMux,
  type ProtoNetworkGroup,
  type ProtoNmsInfo,
  type ProtoNumericInfo,
  type ProtoOp,
} from './protoTypes';
import { n, type HefProblem } from './problems';
import { toNum } from './schema';
import {
  COMPATIBLE_DEVICES,
  DEVICE_ORDER_BY_COMPILER_FORMAT,
  EXT,
  HOST_ORDER_BY_DEVICE_ORDER,
  FORMAT_ORDERS,
  MULTI_LAYOUT_ARCHS,
  PAD_FORMAT_TYPES,
  PLANES_ORDERS,
  SUPPORTED_EXTENSIONS,
  TYPE_BYTES,
  extensionName,
  hwArchName,
} from './tables';
import type { HefExtension, HefHeaderInfo, NetworkGroupInfo, NmsShape, PostProcessOp, StreamInfo, VStreamInfo, VStreamQuant } from './model';

const MAX_NAME = 127; // HAILO_MAX_STREAM_NAME_SIZE (128) minus the terminating NUL
const BBOX_PARAMS = 5;

export interface Features {
  netFlow: boolean;
  multiNetwork: boolean;
  multiContext: boolean;
  scaleByFeature: boolean;
  periphInHailort: boolean;
}

/** `status`: what HailoRT answers at Hef::create for this fault (hef.cpp), when it refuses the file. */
function compat(
  problems: HefProblem[],
  message: string,
  severity: HefProblem['severity'] = 'error',
  code = 'hef/unsupported',
  status?: number,
  releases: Pick<HefProblem, 'since' | 'before' | 'crash'> = {},
): void {
  problems.push({ code, severity, area: 'compat', message, ...(status !== undefined ? { status } : {}), ...releases });
}

export function headerInfo(hef: Msg): HefHeaderInfo | undefined {
  const h: ProtoHeader | undefined = asHef(hef).header;
  if (!has(hef, 'header') || !h) return undefined;
  const id = Number(h.hw_arch ?? 0);
  const sdkString = String(h.sdk_version_str ?? '');
  let sdkVersion: string | undefined;
  let compilerVersion: string | undefined;
  const v = h.sdk_version;
  if (has(h, 'sdk_version') && v) {
    sdkVersion = `${v.sdk_version_major ?? 0}.${v.sdk_version_minor ?? 0}.${v.sdk_version_revision ?? 0}`;
    // HailoRT prints "HEF Compiler Version" from this message only, and not when it reads 0.0.0.
    if (sdkVersion !== '0.0.0') compilerVersion = sdkVersion;
  } else {
    const m = /(\d+)\.(\d+)\.(\d+)/.exec(sdkString);
    if (m) sdkVersion = `${+m[1]}.${+m[2]}.${+m[3]}`;
  }
  if (sdkVersion === '0.0.0') sdkVersion = undefined;
  return {
    hwArch: { id, name: hwArchName(id), compatibleDevices: COMPATIBLE_DEVICES[id] ?? [] },
    sdkVersion,
    ...(compilerVersion ? { compilerVersion } : {}),
    sdkVersionString: sdkString,
    timestamp: toNum(h.timestamp),
    protoVersion: toNum(h.version),
  };
}

export function extensionsOf(hef: Msg): HefExtension[] {
  const list = (opt: boolean) =>
    ((opt ? asHef(hef).optional_extensions : asHef(hef).extensions) ?? []).map((e) => {
      const id = Number(e.type_index ?? 0);
      return { id, name: extensionName(id), label: String(e.name ?? ''), optional: opt, supported: opt || SUPPORTED_EXTENSIONS.has(id) };
    });
  return [...list(false), ...list(true)];
}

/** Feature switches as HailoRT computes them (`check_hef_extension`). */
export function featuresOf(hef: Msg, protoVersion: number, exts: HefExtension[], extensionsRead = true, problems?: HefProblem[]): Features {
  const inc = asHef(hef).included_features ?? {};
  if (!extensionsRead) {
    // Body cut off before the extension list (it follows the network groups): judge from the
    // structure, and say so.
    const groups = asHef(hef).network_groups ?? [];
    const netFlow = groups.some((g) => (g.ops ?? []).some((o) => has(o, 'core_op')));
    const multiNetwork = groups.some((g) => (g.networks_names ?? []).length > 1);
    problems?.push({
      code: 'hef/partial',
      severity: 'info',
      area: 'proto',
      message: `The extension list was not read (the body is cut off); ${netFlow ? 'net-flow post-processing assumed from the ops present' : 'no net-flow ops present'}, per-feature scales not applied.`,
    });
    return { netFlow, multiNetwork, multiContext: groups.some((g) => (g.contexts ?? []).length > 1), scaleByFeature: false, periphInHailort: true };
  }
  const req = (id: number) => exts.some((e) => !e.optional && e.id === id);
  const opt = (id: number) => exts.some((e) => e.optional && e.id === id);
  if (protoVersion > 0) {
    return {
      netFlow: req(EXT.HAILO_NET_FLOW),
      multiNetwork: opt(EXT.MULTI_NETWORK_VARIABLE_BATCH_SIZE),
      multiContext: req(EXT.IS_MULTI_CONTEXTS),
      scaleByFeature: req(EXT.OUTPUT_SCALE_PER_FEATURE),
      periphInHailort: req(EXT.PERIPH_CALCULATION_IN_HAILORT),
    };
  }
  // Proto format version 0: only the deprecated included_features count.
  return { netFlow: false, multiNetwork: false, multiContext: !!inc.is_multi_context, scaleByFeature: false, periphInHailort: false };
}

/** The extension rules HailoRT applies after parsing (`validate_hef_extensions`). */
export function extensionProblems(exts: HefExtension[], features: Features, problems: HefProblem[]): void {
  const unsupported = exts.filter((e) => !e.supported);
  if (unsupported.length) {
    compat(
      problems,
      `Failed opening non-compatible HEF with the following unsupported extensions: ${unsupported.map((e) => e.label || e.name).join(', ')} (type ${unsupported.map((e) => e.id).join(', ')}).`,
      'error',
      'hef/unsupported-extension',
      92,
    );
  }
  if (!features.periphInHailort) {
    compat(
      problems,
      'Hef has periph_calculation_in_hailort feature disabled - this HEF is outdated and no longer supported (extension 26 PERIPH_CALCULATION_IN_HAILORT is missing; HailoRT ≥ 4.21 refuses it).',
      'error',
      'hef/outdated',
      92,
      { since: '4.21.0' }, // hef.cpp: the check appears in v4.21.0 (absent from v4.20.1)
    );
  }
}

/** The network-group facts for every group in the body. */
export function networkGroupsOf(hef: Msg, archId: number, features: Features, problems: HefProblem[]): NetworkGroupInfo[] {
  let groups = asHef(hef).network_groups ?? [];
  if (groups.length > limit('hefNetworkGroups')) {
    problems.push({
      code: 'hef/limit',
      severity: 'error',
      area: 'proto',
      message: limitMessage('hefNetworkGroups', 'The HEF', `${n(groups.length)} network groups`),
    });
    groups = groups.slice(0, limit('hefNetworkGroups'));
  }
  return groups.map((ng, i) => {
    try {
      return networkGroupOf(ng, i, archId, features, problems);
    } catch (err) {
      // A decoded-but-inconsistent group must not take the rest of the report down.
      compat(problems, `network_groups[${i}] could not be interpreted: ${(err as Error)?.message ?? err}`, 'error', 'hef/structure');
      return emptyGroup(`network_groups[${i}]`, i);
    }
  });
}

function emptyGroup(name: string, index: number): NetworkGroupInfo {
  return {
    name,
    index,
    contexts: 0,
    multiContext: false,
    networks: [],
    inputs: [],
    outputs: [],
    streams: [],
    ops: [],
    sortedOutputNames: [],
    sortedOutputSource: 'none',
    transposedNet: false,
  };
}

function networkGroupOf(ng: ProtoNetworkGroup, index: number, archId: number, features: Features, problems: HefProblem[]): NetworkGroupInfo {
  const multiLayout = MULTI_LAYOUT_ARCHS.has(archId);
  const partial0 = ng.partial_network_groups?.[0]?.network_group;
  const name = String((partial0 ?? ng).network_group_metadata?.network_group_name ?? '') || String(ng.network_group_name ?? '') || `network_group_${index}`;

  // Which message holds the contexts ("core op").
  let core: ProtoNetworkGroup = ng;
  let coreSource = 'network group';
  if (features.netFlow) {
    const op = (ng.ops ?? []).find((o) => has(o, 'core_op'));
    if (op?.core_op) {
      core = op.core_op;
      coreSource = `op '${op.name}'`;
      const partialCore = core.partial_core_ops?.[0]?.core_op;
      if (multiLayout && partialCore) core = partialCore;
    } else {
      compat(
        problems,
        `Network group '${name}': HAILO_NET_FLOW is on but no op holds a core op; streams read from the group itself.`,
        'warning',
        'hef/structure',
      );
    }
  } else if (multiLayout && partial0) {
    core = partial0;
    coreSource = 'partial_network_groups[0]';
  }
  void coreSource;

  const meta = core.network_group_metadata ?? ng.network_group_metadata ?? {};
  const transposedNet = !!meta.transposed_net;
  let netNames = (core.networks_names ?? []).filter((s) => typeof s === 'string');
  if (netNames.length > limit('hefStreamsPerGroup')) {
    problems.push({
      code: 'hef/limit',
      severity: 'error',
      area: 'proto',
      message: limitMessage('hefStreamsPerGroup', `Network group '${name}'`, `${n(netNames.length)} networks`),
    });
    netNames = netNames.slice(0, limit('hefStreamsPerGroup'));
  }
  const networks = features.multiNetwork && netNames.length ? netNames.map((p) => `${name}/${p}`) : [`${name}/${name}`];

  const info: NetworkGroupInfo = {
    ...emptyGroup(name, has(meta, 'network_group_index') ? Number(meta.network_group_index) : index),
    contexts: (core.contexts ?? []).length,
    // hailo_network_group_info_t.is_multi_context: more than one context (get_network_groups_infos), not the extension.
    multiContext: (core.contexts ?? []).length > 1,
    networks,
    transposedNet,
  };
  if (has(meta, 'bottleneck_fps')) info.bottleneckFps = Number(meta.bottleneck_fps);
  if (has(meta, 'latency')) info.latencyMs = Number(meta.latency) * 1000;
  if (has(meta, 'computational_ops')) info.computationalOps = toNum(meta.computational_ops);

  // Boundary edge layers → streams and their vstreams.
  const inputs: VStreamInfo[] = [];
  const outputs: VStreamInfo[] = [];
  const fused = core.fused_layers_metadata ?? {};
  const seenFused = new Set<string>();
  // fused layers by name, the first of a name as HailoRT's search finds it: the file sets how many
  // there are (no limit), so one map, not a scan per edge layer (issue 29)
  let fusedByName: Map<string, NonNullable<typeof fused.fused_layers>[number]> | undefined;
  const contexts = core.contexts ?? [];
  const maxStreams = limit('hefStreamsPerGroup');
  let edgeLayers = 0;
  contexts.forEach((ctx, ctxIndex) => {
    for (const el of ctx.metadata?.edge_layers ?? []) {
      if (++edgeLayers > maxStreams) continue; // counted for the message below, not read
      if (Number(el.context_switch_info?.edge_connection_type ?? 0) !== 0) continue; // not BOUNDARY
      const direction = Number(el.direction ?? 0) === 0 ? 'input' : 'output';
      const netIdx = Number(el.network_index ?? 0);
      const network = networks[netIdx] ?? networks[0];
      const kind = Number(el.edge_layer_type ?? 0);
      const padIndex = has(el, 'pad_index') ? Number(el.pad_index) : undefined;
      const target = direction === 'input' ? inputs : outputs;
      if (kind === 0 && has(el, 'layer_info') && el.layer_info) {
        const s = streamOf(el.layer_info, 'INFO', direction, network, ctxIndex, transposedNet, padIndex, problems);
        info.streams.push(s);
        const nmsInfo = el.layer_info.edge_layer_base?.additional_info?.nms_info;
        if (fused.network_has_fused_layers && s.deviceOrder === 'HAILO_NMS_ON_CHIP' && nmsInfo?.is_defused) {
          const original = String(nmsInfo.defuse_info?.original_name ?? '');
          if (!fusedByName) {
            fusedByName = new Map();
            for (const f of fused.fused_layers ?? []) {
              const key = f.layer_info?.name;
              if (typeof key === 'string' && !fusedByName.has(key)) fusedByName.set(key, f);
            }
          }
          const fl = fusedByName.get(original);
          if (!fl) {
            compat(problems, `Could not find the fused layer ${original} (defused NMS stream '${s.name}').`, 'error', 'hef/structure', 61);
            continue;
          }
          if (seenFused.has(original)) continue;
          seenFused.add(original);
          const fs = streamOf(fl.layer_info, 'INFO', direction, network, ctxIndex, false, undefined, problems, fl.nms_info);
          target.push(vstreamOf(fs, features, problems, { stream: s.name }));
        } else {
          target.push(vstreamOf(s, features, problems));
        }
      } else if (kind === 1 && has(el, 'layer_mux') && el.layer_mux) {
        const mux = el.layer_mux;
        const s = streamOf(mux, 'MUX', direction, network, ctxIndex, transposedNet, padIndex, problems);
        const carried: VStreamInfo[] = [];
        collectMux(mux, direction, network, ctxIndex, transposedNet, features, problems, carried, 0);
        s.carries = carried.map((v) => v.name);
        info.streams.push(s);
        for (const v of carried) target.push({ ...v, from: { stream: s.name } });
      } else if (kind === 2 && has(el, 'layer_planes') && el.layer_planes) {
        const pl = el.layer_planes;
        const order = PLANES_ORDERS[Number(pl.planes_format ?? 0)] ?? `UNKNOWN(${pl.planes_format})`;
        const planeNames: string[] = [];
        let first: (typeof info.streams)[number] | undefined; // the first plane's stream (a scan of all streams per layer was quadratic)
        for (const plane of pl.planes ?? []) {
          if (has(plane, 'layer_info') && plane.layer_info) {
            const ps = streamOf(plane.layer_info, 'PLANES', direction, network, ctxIndex, transposedNet, padIndex, problems);
            info.streams.push(ps);
            planeNames.push(ps.name);
            first ??= ps;
          }
        }
        const shape: [number, number, number] = [Number(pl.height ?? 0), Number(pl.width ?? 0), Number(pl.features ?? 0)];
        const q = first?.numeric ?? { zp: 0, scale: 0, limvalsMin: 0, limvalsMax: 0 };
        target.push({
          name: String(pl.name ?? ''),
          network,
          direction,
          shape,
          order,
          type: 'UINT8',
          transposed: false,
          quant: { zp: q.zp, scale: q.scale, limvalsMin: q.limvalsMin, limvalsMax: q.limvalsMax },
          frameSize: planesFrameSize(order, shape),
          from: { stream: planeNames.join(', ') },
        });
      } else {
        compat(
          problems,
          `Network group '${name}', context ${ctxIndex}: boundary edge layer of type ${kind} without its layer message.`,
          'warning',
          'hef/structure',
        );
      }
    }
  });

  if (edgeLayers > maxStreams) {
    problems.push({
      code: 'hef/limit',
      severity: 'error',
      area: 'proto',
      message: limitMessage('hefStreamsPerGroup', `Network group '${name}'`, `${n(edgeLayers)} edge layers`),
    });
  }

  // Boundary names must be unique across contexts (`validate_unique_boundary_names`).
  const seen = new Set<string>();
  for (const s of info.streams) {
    if (seen.has(s.name)) compat(problems, `Network group '${name}': boundary layer name '${s.name}' appears more than once.`, 'error', 'hef/structure', 26);
    seen.add(s.name);
  }

  // Post-process ops (net-flow) hide the streams they consume and add their own outputs.
  if (features.netFlow) {
    const padSrc = new Map<number, number>();
    for (const e of ng.pad_edges ?? []) padSrc.set(Number(e.dst ?? 0), Number(e.src ?? 0));
    const byPad = new Map<number, StreamInfo>();
    for (const s of info.streams) if (s.direction === 'output' && s.padIndex !== undefined) byPad.set(s.padIndex, s);
    const ops = ng.ops ?? [];
    if (ops.length > maxStreams) {
      problems.push({
        code: 'hef/limit',
        severity: 'error',
        area: 'proto',
        message: limitMessage('hefStreamsPerGroup', `Network group '${name}'`, `${n(ops.length)} post-process ops`),
      });
    }
    for (const op of ops.slice(0, maxStreams)) {
      if (has(op, 'core_op')) continue;
      const pp = postProcessOf(op, padSrc, byPad, name, problems);
      info.ops.push(pp);
      const hidden = new Set(pp.inputs.map((i) => i.stream).filter((s): s is string => !!s));
      for (const s of info.streams) if (hidden.has(s.name)) s.hiddenBy = pp.name;
      for (let i = outputs.length - 1; i >= 0; i--) {
        const from = outputs[i].from;
        if ('stream' in from && hidden.has(from.stream)) outputs.splice(i, 1);
      }
      const v = opVStream(op, pp, byPad, padSrc, networks[0]);
      if (v) outputs.push(v);
    }
  }

  // Sorted output order (HailoRT picks the first list that applies).
  let sorted: string[] = [];
  if (fused.network_has_fused_layers && fused.updated_sorted_output_names?.length) {
    sorted = fused.updated_sorted_output_names;
    info.sortedOutputSource = 'fused_layers_metadata';
  } else if (!features.netFlow && partial0?.sorted_outputs_order?.length) {
    sorted = partial0.sorted_outputs_order;
    info.sortedOutputSource = 'partial_network_group';
  } else if (ng.sorted_outputs_order?.length) {
    sorted = ng.sorted_outputs_order;
    info.sortedOutputSource = 'network_group';
  } else if (core.sorted_outputs_order?.length) {
    sorted = core.sorted_outputs_order;
    info.sortedOutputSource = 'network_group';
  } else {
    const last = contexts[contexts.length - 1];
    const list = last?.metadata?.sorted_outputs_order ?? [];
    if (list.length) {
      sorted = list;
      info.sortedOutputSource = 'last_context';
    }
  }
  info.sortedOutputNames = [...sorted];
  const rank = new Map(sorted.map((s, i) => [s, i] as const));
  // HailoRT sorts with a comparator that fails on an unknown name; one output is never compared.
  const missing = outputs.filter((o) => !rank.has(o.name));
  if (missing.length && outputs.length > 1) {
    compat(
      problems,
      `Network group '${name}': output${missing.length > 1 ? 's' : ''} ${missing.map((o) => `'${o.name}'`).join(', ')} missing from the sorted output names (HailoRT fails with HAILO_INTERNAL_FAILURE).`,
      'error',
      'hef/structure',
      8,
    );
  }
  outputs.sort((a, b) => (rank.get(a.name) ?? Infinity) - (rank.get(b.name) ?? Infinity));
  info.inputs = inputs;
  info.outputs = outputs;
  return info;
}

/** A float32 field as the shortest decimal that reads back as the same float32 (0.02, not 0.0199999995…). */
export function f32(v: unknown): number {
  const x = Number(v ?? 0);
  if (!Number.isFinite(x) || x === 0 || Number.isInteger(x)) return x;
  // "p digits read back" is monotonic in p, and 9 always suffice for a float32: bisect.
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.fround(Number(x.toPrecision(mid))) === x) hi = mid;
    else lo = mid + 1;
  }
  const y = Number(x.toPrecision(lo));
  return Math.fround(y) === x ? y : x;
}

function numericOf(ni: ProtoNumericInfo | undefined): StreamInfo['numeric'] {
  return {
    zp: f32(ni?.qp_zp),
    scale: f32(ni?.qp_scale),
    limvalsMin: f32(ni?.limvals_min),
    limvalsMax: f32(ni?.limvals_max),
    zps: (ni?.qp_zps ?? []).map(Number),
    scales: (ni?.qp_scales ?? []).map(Number),
  };
}

function streamOf(
  li: ProtoLayerInfo | undefined,
  edgeType: StreamInfo['edgeType'],
  direction: 'input' | 'output',
  network: string,
  context: number,
  transposedNet: boolean,
  padIndex: number | undefined,
  problems: HefProblem[],
  fusedNms?: ProtoNmsInfo,
): StreamInfo {
  const b = li?.edge_layer_base ?? {};
  const name = String(li?.name ?? '');
  if (name.length > MAX_NAME)
    compat(problems, `The edge layer '${name.slice(0, 40)}…' has a too long name (${name.length} > ${MAX_NAME} characters).`, 'error', 'hef/unsupported', 8);
  const code = Number(b.format ?? 0);
  let deviceOrder = DEVICE_ORDER_BY_COMPILER_FORMAT[code];
  if (!deviceOrder) {
    compat(problems, `Stream '${name}': unknown compiler format code ${code} (HailoRT fails with HAILO_INTERNAL_FAILURE).`, 'error', 'hef/structure', 8);
    deviceOrder = `UNKNOWN(${code})`;
  }
  const dataBytes = Number(b.data_bytes ?? 0);
  if (b.host_argmax)
    compat(
      problems,
      `Stream '${name}' uses the legacy host argmax; HailoRT refuses it from 4.19 on (HAILO_HEF_NOT_SUPPORTED, 26 before 4.21): re-compile with a recent DFC.`,
      'error',
      'hef/unsupported',
      92,
      { since: '4.19.0' },
    );
  const transposed = (transposedNet || !!li?.transposed) && deviceOrder !== 'NC';
  let shape: [number, number, number];
  const nms = fusedNms ?? b.additional_info?.nms_info;
  if (deviceOrder === 'HAILO_NMS_ON_CHIP') {
    shape = [toNum(nms?.number_of_classes), BBOX_PARAMS, toNum(nms?.max_output_size) * (toNum(nms?.input_division_factor) || 1)];
  } else {
    shape = [Number(b.height ?? 0), Number(b.width ?? 0), Number(b.features ?? 0)];
    if (transposed) shape = [shape[1], shape[0], shape[2]];
  }
  return {
    name,
    network,
    direction,
    edgeType,
    deviceOrder,
    formatCode: code,
    shape,
    hwShape: [Number(b.padded_height ?? 0), Number(b.padded_width ?? 0), Number(b.padded_features ?? 0)],
    dataBytes,
    context,
    sysIndex: Number(b.sys_index ?? 0),
    padIndex,
    transposed,
    numeric: numericOf(li?.numeric_info),
    hnOutputLayerName: String(li?.hn_output_layer_name ?? ''),
    originalNames: (li?.original_names ?? []).map(String),
  };
}

function formatTypeOf(dataBytes: number): string | undefined {
  return dataBytes === 1 ? 'UINT8' : dataBytes === 2 ? 'UINT16' : undefined;
}

function vstreamOf(s: StreamInfo, features: Features, problems: HefProblem[], from: VStreamInfo['from'] = { stream: s.name }): VStreamInfo {
  let order = HOST_ORDER_BY_DEVICE_ORDER[s.deviceOrder] ?? s.deviceOrder;
  let type = formatTypeOf(s.dataBytes);
  if (!type) {
    compat(
      problems,
      `Stream '${s.name}': data_bytes ${s.dataBytes} is neither 1 (UINT8) nor 2 (UINT16); HailoRT cannot give it a format type.`,
      'error',
      'hef/structure',
      2,
    );
    type = `INVALID(${s.dataBytes})`;
  }
  let nmsShape: NmsShape | undefined;
  let shape = s.shape;
  if (s.deviceOrder === 'HAILO_NMS_ON_CHIP') {
    order = 'HAILO_NMS_BY_CLASS';
    type = 'FLOAT32';
    const classes = s.shape[0];
    const perClass = s.shape[2];
    nmsShape = { numberOfClasses: classes, maxBboxesPerClass: perClass, maxBboxesTotal: perClass * classes };
  }
  const quant: VStreamQuant = { zp: s.numeric.zp, scale: s.numeric.scale, limvalsMin: s.numeric.limvalsMin, limvalsMax: s.numeric.limvalsMax };
  if (features.scaleByFeature) {
    const count = s.deviceOrder === 'HAILO_NMS_ON_CHIP' ? 1 : s.shape[2];
    const zpsOk = s.numeric.zps.length === 0 || s.numeric.zps.length === count;
    const scalesOk = s.numeric.scales.length === 0 || s.numeric.scales.length === count;
    const zp = s.numeric.zps.length ? s.numeric.zps : new Array<number>(Math.min(count, 1 << 16)).fill(s.numeric.zp);
    const scale = s.numeric.scales.length ? s.numeric.scales : new Array<number>(Math.min(count, 1 << 16)).fill(s.numeric.scale);
    if (s.direction === 'output') {
      const invalid = `Invalid quantization infos vector in HEF! Output '${s.name}' has ${s.numeric.zps.length} zero points and ${s.numeric.scales.length} scales for ${count} features`;
      if (!zpsOk || !scalesOk) compat(problems, `${invalid}.`, 'error', 'hef/structure', 26);
      // fill_layer_info before 5.0.0 wants both lists exactly one per feature; 5.0.0 takes an empty list as "the single value".
      else if (s.numeric.zps.length !== count || s.numeric.scales.length !== count)
        compat(
          problems,
          `${invalid}: HailoRT before 5.0 needs one of each per feature (5.0 on uses the single value for an empty list).`,
          'error',
          'hef/structure',
          26,
          {
            before: '5.0.0',
          },
        );
      quant.perFeature = { zp, scale };
      // HailoRT reports INVALID_QUANT_INFO (all zero) when it works per feature.
      quant.zp = 0;
      quant.scale = 0;
      quant.limvalsMin = 0;
      quant.limvalsMax = 0;
    } else {
      if (s.numeric.zps.length === 0 || s.numeric.scales.length === 0) {
        // fill_layer_info before 5.0.0 checks the list sizes for outputs only, then reads qp_zps()[i] /
        // qp_scales()[i] per feature for every layer: an input with an empty list is read through a null
        // pointer (SIGSEGV inside Hef::create). The real libhailort 4.23.0 dies so on two files
        // (docs/releases.md#checked-against-the-real-libraries); 5.0 on takes the single value.
        compat(
          problems,
          `Input '${s.name}' has ${s.numeric.zps.length} per-feature zero points and ${s.numeric.scales.length} scales (OUTPUT_SCALE_PER_FEATURE is on): HailoRT before 5.0 reads one per feature for inputs too and crashes (SIGSEGV in Hef::create); 5.0 on uses the single value.`,
          'error',
          'hef/structure',
          undefined,
          { before: '5.0.0', crash: true },
        );
      }
      if (new Set(zp).size > 1 || new Set(scale).size > 1) {
        compat(
          problems,
          `Different quantization infos are not allowed for input streams (H2D)! Input '${s.name}' has per-feature values that differ.`,
          'error',
          'hef/structure',
          26,
        );
      }
    }
  }
  const frameSize = nmsShape ? nmsByClassFrameSize(nmsShape) : shape[0] * shape[1] * shape[2] * (TYPE_BYTES[type] ?? 1);
  return { name: s.name, network: s.network, direction: s.direction, shape, nmsShape, order, type, transposed: s.transposed, quant, frameSize, from };
}

function collectMux(
  mux: ProtoLayerMux,
  direction: 'input' | 'output',
  network: string,
  ctx: number,
  transposedNet: boolean,
  features: Features,
  problems: HefProblem[],
  out: VStreamInfo[],
  depth: number,
): void {
  if (depth > 16) return;
  for (const p of mux.predecessors ?? []) {
    if (has(p, 'layer_info') && p.layer_info)
      out.push(vstreamOf(streamOf(p.layer_info, 'INFO', direction, network, ctx, transposedNet, undefined, problems), features, problems));
    else if (has(p, 'layer_mux') && p.layer_mux) collectMux(p.layer_mux, direction, network, ctx, transposedNet, features, problems, out, depth + 1);
  }
}

/** NMS by-class host frame: per class a float32 count and up to N boxes of 5 float32. */
export function nmsByClassFrameSize(s: NmsShape): number {
  return s.numberOfClasses * (1 + BBOX_PARAMS * s.maxBboxesPerClass) * 4;
}

function planesFrameSize(order: string, shape: [number, number, number]): number {
  const [h, w] = shape;
  return order === 'NV12' || order === 'NV21' || order === 'I420' ? Math.floor((h * w * 3) / 2) : h * w * shape[2];
}

const NMS_KINDS: [NmsKindField, string][] = [
  ['yolo_nms_op', 'yolov5'],
  ['yolox_nms_op', 'yolox'],
  ['ssd_nms_op', 'ssd'],
  ['iou_op', 'iou'],
  ['yolo_seg_op', 'yolov5_seg'],
  ['yolov8_nms_op', 'yolov8'],
];

/** The bbox-decoder pad fields create_*_config reads per NMS kind (hef.cpp, 4.18.0 … 5.2.0). */
const DECODER_PADS: Record<string, ('pad_index' | 'reg_pad_index' | 'cls_pad_index' | 'obj_pad_index')[]> = {
  yolo_nms_op: ['pad_index'],
  yolo_seg_op: ['pad_index'],
  yolov8_nms_op: ['reg_pad_index', 'cls_pad_index'],
  ssd_nms_op: ['reg_pad_index', 'cls_pad_index'],
  yolox_nms_op: ['reg_pad_index', 'cls_pad_index', 'obj_pad_index'],
};

/**
 * Decoders name the core op's output streams by their pad index (not the op's input pads):
 * create_*_config reads `pad_index_to_streams_info.at(...)` over the core outputs before anything
 * else of the op (the assert before it is compiled out), so a pad no output has throws
 * std::out_of_range, which nothing catches — the process aborts in Hef::create.
 */
function decoderPadFaults(op: ProtoOp, byPad: Map<number, StreamInfo>, group: string, problems: HefProblem[]): void {
  const nms = has(op, 'nms_op') ? op.nms_op : undefined;
  const kind = nms && Object.keys(DECODER_PADS).find((f) => has(nms, f));
  if (!nms || !kind) return;
  const decoders = (nms[kind as NmsKindField] ?? {}).bbox_decoders ?? [];
  for (const [i, d] of decoders.entries()) {
    const missing = DECODER_PADS[kind].find((f) => !byPad.has(Number(d[f] ?? 0)));
    if (!missing) continue;
    problems.push({
      code: 'hef/decoder-pad',
      severity: 'error',
      area: 'compat',
      crash: true,
      message: `Network group '${group}': bbox decoder ${i} of post-process op '${String(op.name ?? '')}' names pad ${Number(d[missing] ?? 0)} (${missing}), which no core output stream has (the core outputs' pads are ${[...byPad.keys()].join(', ') || 'none'}): libhailort looks it up with std::map::at, which throws std::out_of_range that nothing catches, so the process aborts (SIGABRT) in Hef::create (hef.cpp, the create_*_config of this NMS kind, 4.18.0 … 5.2.0). Re-compile the HEF with the Dataflow Compiler.`,
    });
    return;
  }
}

function postProcessOf(op: ProtoOp, padSrc: Map<number, number>, byPad: Map<number, StreamInfo>, group: string, problems: HefProblem[]): PostProcessOp {
  const name = String(op.name ?? '');
  decoderPadFaults(op, byPad, group, problems);
  const inputs = (op.input_pads ?? []).map((p) => {
    const padIndex = Number(p.index ?? 0);
    const src = padSrc.get(padIndex);
    const stream = src === undefined ? undefined : byPad.get(src)?.name;
    if (src === undefined)
      compat(
        problems,
        `Network group '${group}': post-process op '${name}' pad ${padIndex} is not connected to core-op (no pad edge).`,
        'error',
        'hef/structure',
        26,
      );
    else if (!stream)
      compat(problems, `Pad ${padIndex} of post-process ${name} is not connected to any core output stream (source pad ${src}).`, 'error', 'hef/structure', 26);
    return { padIndex, name: String(p.name ?? ''), stream };
  });
  const outputs = (op.output_pads ?? []).map((p) => String(p.name ?? ''));
  const params: PostProcessOp['params'] = {};
  let kind: PostProcessOp['kind'] = 'unknown';
  let nmsType: string | undefined;
  let decodersOut: PostProcessOp['decoders'];
  if (has(op, 'nms_op') && op.nms_op) {
    const nms = op.nms_op;
    kind = 'nms';
    const found = NMS_KINDS.find(([f]) => has(nms, f));
    nmsType = found?.[1] ?? 'unknown';
    params.scoreThreshold = Number(nms.nms_score_th ?? 0);
    params.iouThreshold = Number(nms.nms_iou_th ?? 0);
    params.maxProposalsPerClass = Number(nms.max_proposals_per_class ?? 0);
    params.classes = Number(nms.classes ?? 0);
    params.backgroundRemoval = !!nms.background_removal;
    if (nms.background_removal) params.backgroundRemovalIndex = Number(nms.background_removal_index ?? 0);
    if (nms.bbox_decoding_only) params.bboxDecodingOnly = true;
    if (found) {
      const k = nms[found[0]] ?? {};
      if (has(k, 'image_height')) params.imageHeight = Number(k.image_height);
      if (has(k, 'image_width')) params.imageWidth = Number(k.image_width);
      if (has(k, 'input_division_factor')) params.inputDivisionFactor = Number(k.input_division_factor);
      if (has(k, 'mask_threshold')) params.maskThreshold = Number(k.mask_threshold);
      if (has(k, 'regression_length')) params.regressionLength = Number(k.regression_length);
      const padStream = (i: number | undefined) => (i === undefined ? undefined : byPad.get(Number(i))?.name);
      const decoders = (k.bbox_decoders ?? []).map((d) => ({
        ...(has(d, 'stride') ? { stride: Number(d.stride) } : {}),
        streams: [d.pad_index, d.reg_pad_index, d.cls_pad_index, d.obj_pad_index]
          .filter((i) => i !== undefined)
          .map(padStream)
          .filter((x): x is string => !!x),
        ...(d.h?.length ? { anchors: d.h.length } : {}),
      }));
      if (decoders.length) decodersOut = decoders;
    } else {
      compat(problems, `Unsupported Net-Flow NMS-Op in '${name}' (no known NMS kind set).`, 'error', 'hef/structure', 8);
    }
  } else if (has(op, 'logits_op') && op.logits_op) {
    const t = Number(op.logits_op.logits_type ?? 0);
    kind = t === 0 ? 'argmax' : t === 1 ? 'softmax' : 'unknown';
    if (kind === 'unknown') compat(problems, `Invalid Net-Flow Logits-Op type ${t} in '${name}'.`, 'error', 'hef/structure', 8);
    if (inputs.length !== 1) compat(problems, `Logits op must have 1 input only ('${name}' has ${inputs.length}).`, 'error', 'hef/structure', 26);
    if (outputs.length !== 1) compat(problems, `Logits op must have 1 output only ('${name}' has ${outputs.length}).`, 'error', 'hef/structure', 26);
  } else {
    compat(problems, `Unsupported Net-Flow Op '${name}'.`, 'error', 'hef/structure', 8);
  }
  return { name, kind, nmsType, inputs, outputs, params, ...(decodersOut ? { decoders: decodersOut } : {}) };
}

/**
 * Decoded boxes without NMS ({1, proposals, values + classes}, hef.cpp create_yolov8/yolov5_bbox_only_op_metadata):
 * YOLOv8 counts each grid cell once (reg and cls inputs share a shape: Σ h·w ÷ 2), YOLOv5 once per anchor.
 */
function bboxOnlyProposals(pp: PostProcessOp, byPad: Map<number, StreamInfo>, padSrc: Map<number, number>): number {
  const shapeOf = (padIndex: number) => byPad.get(padSrc.get(padIndex) ?? -1)?.shape;
  if (pp.nmsType === 'yolov5') {
    let n = 0;
    for (const d of pp.decoders ?? []) {
      const s = d.streams[0] ? [...byPad.values()].find((x) => x.name === d.streams[0])?.shape : undefined;
      if (s) n += (d.anchors ?? 0) * s[0] * s[1];
    }
    return n;
  }
  const cells = pp.inputs.reduce((sum, i) => sum + (shapeOf(i.padIndex)?.[0] ?? 0) * (shapeOf(i.padIndex)?.[1] ?? 0), 0);
  return Math.floor(cells / 2);
}

/** Values before the class scores: YOLOv5 x, y, w, h, objectness (YOLOV5_BBOX_NUM_OF_VALUES); YOLOv8 the 4 of hailo_rectangle_t. */
const bboxOnlyValues = (pp: PostProcessOp) => (pp.nmsType === 'yolov5' ? 5 : 4);

/** The output vstream a post-process op adds (named after its first output pad). */
function opVStream(op: ProtoOp, pp: PostProcessOp, byPad: Map<number, StreamInfo>, padSrc: Map<number, number>, network: string): VStreamInfo | undefined {
  const pad = (op.output_pads ?? [])[0];
  if (!pad) return undefined;
  const name = String(pad.name ?? '');
  const padOrder = FORMAT_ORDERS[Number(pad.format_order ?? 0)] ?? 'AUTO';
  const padType = PAD_FORMAT_TYPES[Number(pad.format_type ?? 0)] ?? 'AUTO';
  const firstIn = pp.inputs[0];
  const input = firstIn?.stream ? byPad.get(padSrc.get(firstIn.padIndex) ?? -1) : undefined;
  const from = { op: pp.name };
  if (pp.kind === 'nms') {
    // HailoRT (4.18 … 5.2 hef.cpp create_*_op_metadata) ignores the pad's format here: it expands
    // AUTO by op type (NmsOpMetadata::expand_output_format_autos_by_op_type) — only logits ops read the pad.
    const seg = pp.nmsType === 'yolov5_seg';
    const bboxOnly = !!pp.params.bboxDecodingOnly;
    const order = seg ? 'HAILO_NMS_WITH_BYTE_MASK' : bboxOnly ? 'NHWC' : 'HAILO_NMS_BY_CLASS';
    const type = order === 'HAILO_NMS_WITH_BYTE_MASK' ? 'UINT8' : 'FLOAT32';
    const classes = Number(pp.params.classes ?? 0);
    const perClass = Number(pp.params.maxProposalsPerClass ?? 0);
    const nmsShape: NmsShape = {
      numberOfClasses: classes - (pp.params.backgroundRemoval ? 1 : 0),
      maxBboxesPerClass: perClass,
      maxBboxesTotal: classes * perClass,
    };
    const shape: [number, number, number] = bboxOnly
      ? [1, bboxOnlyProposals(pp, byPad, padSrc), bboxOnlyValues(pp) + classes]
      : [nmsShape.numberOfClasses, BBOX_PARAMS, perClass];
    return {
      name,
      network,
      direction: 'output',
      shape,
      nmsShape: bboxOnly ? undefined : nmsShape,
      order,
      type,
      transposed: false,
      quant: { zp: 0, scale: 1, limvalsMin: 0, limvalsMax: 0 },
      frameSize: bboxOnly ? shape[0] * shape[1] * shape[2] * (TYPE_BYTES[type] ?? 4) : nmsByClassFrameSize(nmsShape),
      from,
    };
  }
  if (pp.kind === 'argmax' || pp.kind === 'softmax') {
    const inShape = input?.shape ?? [0, 0, 0];
    const inOrder = input ? (HOST_ORDER_BY_DEVICE_ORDER[input.deviceOrder] ?? input.deviceOrder) : 'NHWC';
    const inType = input ? (formatTypeOf(input.dataBytes) ?? 'UINT8') : 'UINT8';
    let order = padOrder;
    let type = padType;
    let shape: [number, number, number];
    if (pp.kind === 'argmax') {
      shape = [inShape[0], inShape[1], 1];
      if (type === 'AUTO') type = inType;
      if (order === 'AUTO') order = input?.deviceOrder === 'NC' ? 'NC' : 'NHW';
    } else {
      shape = [...inShape] as [number, number, number];
      if (type === 'AUTO') type = 'FLOAT32';
      if (order === 'AUTO') order = inOrder;
    }
    const q = input?.numeric ?? { zp: 0, scale: 0, limvalsMin: 0, limvalsMax: 0 };
    return {
      name,
      network,
      direction: 'output',
      shape,
      order,
      type,
      transposed: false,
      quant: { zp: q.zp, scale: q.scale, limvalsMin: q.limvalsMin, limvalsMax: q.limvalsMax },
      frameSize: shape[0] * shape[1] * shape[2] * (TYPE_BYTES[type] ?? 1),
      from,
    };
  }
  return undefined;
}

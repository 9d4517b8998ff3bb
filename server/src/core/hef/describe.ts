// Human-readable report: the lines `hailortcli parse-hef` prints (same wording and shape strings),
// then what it does not print: container and integrity, resources, problems, the mtmd contract.
import { n } from './problems';
import type { HefReport, PostProcessOp, StreamInfo, VStreamInfo } from './model';
import type { MtmdResult } from './mtmd';
import { nmsByClassFrameSize } from './facts';
import { orderDisplay } from './tables';
import type { RuntimeVerdict } from './types';
import { maxOf } from '../common/arrays';
import { reportLines } from '../common/escape';

const TAB = '    ';

/** `UINT8, NHWC(224x224x3)` — as HailoRT's get_shape_str for vstreams. */
export function shapeString(v: VStreamInfo): string {
  const head = `${v.type}, ${orderDisplay(v.order)}`;
  if (v.nmsShape && (v.order === 'HAILO_NMS_BY_CLASS' || v.order === 'HAILO_NMS_BY_SCORE' || v.order === 'HAILO_NMS_WITH_BYTE_MASK')) {
    const frame = v.order === 'HAILO_NMS_BY_CLASS' ? nmsByClassFrameSize(v.nmsShape) : v.frameSize;
    const per =
      v.order === 'HAILO_NMS_BY_CLASS'
        ? `maximum bounding boxes per class: ${v.nmsShape.maxBboxesPerClass}`
        : `maximum bounding boxes total: ${v.nmsShape.maxBboxesTotal}`;
    return `${head}(number of classes: ${v.nmsShape.numberOfClasses}, ${per}, maximum frame size: ${frame})`;
  }
  if (v.order === 'NC') return `${head}(${v.shape[2]})`;
  if (v.order === 'NHW') return `${head}(${v.shape[0]}x${v.shape[1]})`;
  return `${head}(${v.shape[0]}x${v.shape[1]}x${v.shape[2]})`;
}

/** `UINT8, NHCW(224x224x3)` — as HailoRT's get_shape_str for (device) streams, on the hw shape. */
export function streamShapeString(s: StreamInfo): string {
  const type = s.dataBytes === 1 ? 'UINT8' : s.dataBytes === 2 ? 'UINT16' : 'INVALID_FORMAT_TYPE';
  const head = `${type}, ${orderDisplay(s.deviceOrder)}`;
  const [h, w, f] = s.hwShape;
  if (s.deviceOrder === 'HAILO_NMS_ON_CHIP') return `${head}(classes ${s.shape[0]}, ${s.shape[2]} boxes per class)`;
  if (s.deviceOrder === 'NC') return `${head}(${f})`;
  if (s.deviceOrder === 'NHW') return `${head}(${h}x${w})`;
  return `${head}(${h}x${w}x${f})`;
}

function opLine(op: PostProcessOp): string {
  const params = Object.entries(op.params)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const kind = op.kind === 'nms' ? `NMS (${op.nmsType})` : op.kind;
  const hidden = op.inputs.map((i) => i.stream ?? `pad ${i.padIndex} (unconnected)`).join(', ');
  return `Op ${kind}, Name: ${op.name}${params ? `, ${params}` : ''}; consumes ${hidden || 'nothing'}`;
}

export interface DescribeOptions {
  /** Also list the boundary streams (like `hailortcli parse-hef --parse-streams`). */
  streams?: boolean;
}

export function describeHef(report: HefReport, mtmd?: MtmdResult, options: DescribeOptions = {}): string {
  const lines: string[] = [];
  const c = report.container;
  lines.push(`HEF: ${report.file} (${n(report.fileSize)} bytes)`);
  if (c) {
    const parts = [`header ${c.headerSize}`, `proto ${n(c.protoSize)}`];
    if (c.paddingSize !== undefined) parts.push(`padding ${n(c.paddingSize)}`);
    if (c.ccwsSize !== undefined) parts.push(`CCWs ${n(c.ccwsSize)}`);
    if (c.additionalInfoSize !== undefined) parts.push(`additional info ${n(c.additionalInfoSize)}`);
    lines.push(`Container: version ${c.version}; ${parts.join(', ')} bytes${c.version > 0 ? `; zero point ${n(c.zeroPoint)}` : ''}`);
  }
  lines.push(`Integrity: ${report.integrity.ok ? 'OK' : 'FAILED'} (${report.integrity.check}) — ${report.integrity.detail}`);
  if (report.runtime) {
    const target = report.runtime.target;
    const what = (v: RuntimeVerdict) =>
      v.outcome === 'loads'
        ? `loads${v.tolerated.length ? ` — tolerates ${v.tolerated.join('; ')}` : ''}`
        : v.outcome === 'crashes'
          ? `CRASHES — ${v.reason}`
          : `refuses with ${v.status} ${v.statusName} — ${v.reason}`;
    const chosen = report.runtime.chosen;
    // The release asked for (hef --hailort-version) heads the list: the exit code follows it.
    if (chosen) {
      const why = report.runtime.chosenFor ?? 'chosen';
      lines.push(`HailoRT ${chosen.version} (${why}; the verdict that counts): ${what(chosen)}`);
      if (chosen.judgedBy) lines.push(`${TAB}${chosen.judgedBy}`);
    }
    lines.push('HailoRT (Hef::create on this file):');
    for (const v of report.runtime.verdicts) lines.push(`${TAB}${v.label}${v.line === target ? ' (target)' : ''}: ${what(v)}`);
  }
  if (report.header) {
    const h = report.header;
    lines.push(`HEF Compatible for: ${h.hwArch.compatibleDevices.join(', ') || `unknown (hw_arch ${h.hwArch.id})`}`);
    lines.push(`HEF arch: ${h.hwArch.name} (hw_arch ${h.hwArch.id})`);
    // As hailortcli: only from the header's ProtoHEFSdkVersion; an older HEF has just the string.
    if (h.compilerVersion) lines.push(`HEF Compiler Version: ${h.compilerVersion}`);
    else if (h.sdkVersion) lines.push(`SDK version (from the header's sdk_version_str): ${h.sdkVersion}`);
  }
  // hailortcli lists the groups from a std::map, i.e. by name (byte order), not in file order.
  const byName = [...report.networkGroups].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const g of byName) {
    lines.push(`Network group name: ${g.name}, ${g.multiContext ? `Multi Context - Number of contexts: ${g.contexts}` : 'Single Context'}`);
    for (const net of g.networks) {
      lines.push(`${TAB}Network name: ${net}`);
      if (options.streams) {
        lines.push(`${TAB}${TAB}Stream infos:`);
        const mine = g.streams.filter((x) => x.network === net);
        for (const st of [...mine.filter((x) => x.direction === 'input'), ...mine.filter((x) => x.direction === 'output')]) {
          // Exactly hailortcli's line; which op consumes the stream is said under Operation.
          lines.push(`${TAB.repeat(3)}${st.direction === 'input' ? 'Input ' : 'Output'} ${st.name} ${streamShapeString(st)}`);
        }
      }
      lines.push(`${TAB}${TAB}VStream infos:`);
      for (const v of g.inputs.filter((x) => x.network === net)) lines.push(`${TAB.repeat(3)}Input  ${v.name} ${shapeString(v)}`);
      for (const v of g.outputs.filter((x) => x.network === net)) lines.push(`${TAB.repeat(3)}Output ${v.name} ${shapeString(v)}`);
      if (g.ops.length) {
        lines.push(`${TAB.repeat(3)}Operation:`);
        for (const op of g.ops) lines.push(`${TAB.repeat(4)}${opLine(op)}`);
      }
    }
    const quantLines = [...g.inputs, ...g.outputs].map((v) => {
      const q = v.quant.perFeature
        ? `per feature (${v.quant.perFeature.scale.length}): scale ${range(v.quant.perFeature.scale)}, zp ${range(v.quant.perFeature.zp)}`
        : `scale ${v.quant.scale}, zp ${v.quant.zp}`;
      return `${TAB}${TAB}${v.name}: ${q}`;
    });
    if (quantLines.length) {
      lines.push(`${TAB}Quantisation:`);
      for (const q of quantLines) lines.push(q); // not push(...quantLines): a spread of 10⁵ arguments overflows the stack
    }
  }
  if (report.externalResources.length) {
    lines.push('External resources:');
    for (const r of report.externalResources) {
      lines.push(
        `${TAB}${r.name} ${n(r.size)} bytes at ${n(r.fileOffset)} — ${r.checksumOk === true ? 'checksum OK' : r.checksumOk === false ? 'BAD' : 'no checksum'}`,
      );
    }
  } else if (report.protoComplete) {
    lines.push('External resources: none');
  }
  if (report.extensions.length) {
    lines.push(
      `Extensions: ${report.extensions
        .filter((e) => !e.optional)
        .map((e) => `${e.id} ${e.name}${e.supported ? '' : ' (UNSUPPORTED)'}`)
        .join(', ')}`,
    );
    const opt = report.extensions.filter((e) => e.optional);
    if (opt.length) lines.push(`Optional extensions: ${opt.map((e) => `${e.id} ${e.name}`).join(', ')}`);
  }
  if (report.problems.length) {
    lines.push('Problems:');
    for (const p of report.problems) lines.push(`${TAB}${p.severity.padEnd(7)} ${p.code}${p.offset !== undefined ? ` @${n(p.offset)}` : ''}: ${p.message}`);
  }
  if (mtmd) {
    lines.push('', `mtmd contract (llama.cpp Hailo vision encoder)${mtmd.networkGroup ? `, network group ${mtmd.networkGroup}` : ''}:`);
    const w = maxOf(mtmd.rules.map((r) => r.id.length));
    for (const r of mtmd.rules) {
      const mark = r.pass === true ? 'PASS' : r.pass === false ? 'FAIL' : ' -- ';
      lines.push(
        `${TAB}${mark}  ${r.id.padEnd(w)}  ${r.detail}${r.pass === false && r.llamaError ? `\n${TAB}      ${' '.repeat(w)}  llama.cpp: ${r.llamaError}` : ''}`,
      );
    }
    const failed = mtmd.rules.filter((r) => r.pass === false).length;
    const unchecked = mtmd.rules.filter((r) => r.pass === null).length;
    lines.push(mtmd.pass ? '=> meets the mtmd contract' : `=> ${failed} of ${mtmd.rules.length} rules fail${unchecked ? `, ${unchecked} not checked` : ''}`);
  }
  return reportLines(lines);
}

function range(values: number[]): string {
  if (!values.length) return '-';
  let lo = values[0];
  let hi = values[0];
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === hi ? String(lo) : `${lo}…${hi}`;
}

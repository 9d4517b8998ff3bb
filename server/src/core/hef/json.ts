// The one JSON document `hailo-tools hef --json` prints and the inspector's "Copy as JSON" copies.
// The keys of issue 3 come first, in its order; extra facts follow. Unknown values are null, so
// a damaged file still yields the full shape with what could be read.
import type { HefReport, VStreamInfo } from './model';
import type { MtmdResult } from './mtmd';

function vstreamJson(v: VStreamInfo) {
  const quant: Record<string, unknown> = { zp: v.quant.zp, scale: v.quant.scale };
  if (v.quant.limvalsMin || v.quant.limvalsMax) quant.limvals = [v.quant.limvalsMin, v.quant.limvalsMax];
  if (v.quant.perFeature) quant.perFeature = v.quant.perFeature;
  return {
    name: v.name,
    shape: v.shape,
    order: v.order,
    type: v.type,
    quant,
    network: v.network,
    ...(v.nmsShape ? { nmsShape: v.nmsShape } : {}),
    ...(v.transposed ? { transposed: true } : {}),
    frameSize: v.frameSize,
    from: v.from,
  };
}

export function hefJson(report: HefReport, mtmd?: MtmdResult): Record<string, unknown> {
  const c = report.container;
  const out: Record<string, unknown> = {
    container: c
      ? {
          version: c.version,
          headerSize: c.headerSize,
          protoSize: c.protoSize,
          integrity: {
            ok: report.integrity.ok,
            check: report.integrity.check,
            detail: report.integrity.detail,
            checks: report.integrity.checks,
          },
          fileSize: c.fileSize,
          expectedFileSize: c.expectedFileSize,
          zeroPoint: c.zeroPoint,
          sections: c.sections,
          header: Object.fromEntries(c.fields.map((f) => [f.name, f.value])),
        }
      : null,
    hwArch: report.header ? report.header.hwArch : null,
    sdkVersion: report.header?.sdkVersion ?? null,
    networkGroups: report.networkGroups.map((g) => ({
      name: g.name,
      networks: g.networks,
      inputs: g.inputs.map(vstreamJson),
      outputs: g.outputs.map(vstreamJson),
      contexts: g.contexts,
      multiContext: g.multiContext,
      sortedOutputNames: g.sortedOutputNames,
      ops: g.ops,
      streams: g.streams.map((s) => ({
        name: s.name,
        direction: s.direction,
        edgeType: s.edgeType,
        deviceOrder: s.deviceOrder,
        shape: s.shape,
        hwShape: s.hwShape,
        dataBytes: s.dataBytes,
        context: s.context,
        ...(s.padIndex !== undefined ? { padIndex: s.padIndex } : {}),
        ...(s.hiddenBy ? { hiddenBy: s.hiddenBy } : {}),
      })),
      ...(g.bottleneckFps !== undefined ? { bottleneckFps: g.bottleneckFps } : {}),
      ...(g.latencyMs !== undefined ? { latencyMs: g.latencyMs } : {}),
      ...(g.computationalOps !== undefined ? { computationalOps: g.computationalOps } : {}),
    })),
    externalResources: report.externalResources.map((r) => ({
      name: r.name,
      size: r.size,
      offset: r.offset,
      fileOffset: r.fileOffset,
      xxhash: r.xxhash,
      checksumOk: r.checksumOk ?? null,
    })),
  };
  if (mtmd) {
    out.mtmd = {
      pass: mtmd.pass,
      rules: mtmd.rules.map((r) => ({
        id: r.id,
        pass: r.pass,
        detail: r.detail,
        title: r.title,
        confidence: r.confidence,
        ...(r.llamaError ? { llamaError: r.llamaError } : {}),
      })),
      networkGroup: mtmd.networkGroup ?? null,
      derived: mtmd.derived,
      config: mtmd.config ?? null,
    };
  }
  // What each HailoRT line does at Hef::create(path), and the one the arch targets.
  out.runtime = report.runtime ?? null;
  out.sdkVersionString = report.header?.sdkVersionString ?? null;
  out.timestamp = report.header?.timestamp ? new Date(report.header.timestamp).toISOString() : null;
  out.extensions = report.extensions.map((e) => ({ id: e.id, name: e.name, optional: e.optional, supported: e.supported }));
  out.protoComplete = report.protoComplete;
  out.problems = report.problems;
  out.file = report.file;
  out.fileSize = report.fileSize;
  return out;
}

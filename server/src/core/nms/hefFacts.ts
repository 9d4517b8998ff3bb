// A HEF's NMS, reduced to what the consistency checks compare: the net-flow NMS op (engine=cpu) or
// the on-chip NMS outputs (engine=nn_core), else its raw outputs. Pure (over our HEF reader's facts).
import type { NetworkGroupInfo, VStreamInfo } from '../hef/model';
import type { NmsHefFacts, NmsOutputFacts } from './model';

function outputFacts(v: VStreamInfo): NmsOutputFacts {
  return {
    name: v.name,
    order: v.order,
    type: v.type,
    frameSize: v.frameSize,
    ...(v.nmsShape ? { nms: { classes: v.nmsShape.numberOfClasses, maxBboxesPerClass: v.nmsShape.maxBboxesPerClass } } : {}),
  };
}

/** The facts of the first network group (Hailo's detectors have one). */
export function nmsHefFacts(source: string, group: NetworkGroupInfo): NmsHefFacts {
  const op = group.ops.find((o) => o.kind === 'nms');
  const opOut = op ? group.outputs.find((v) => 'op' in v.from && v.from.op === op.name) : undefined;
  const nmsOut = opOut?.nmsShape ? opOut : group.outputs.find((v) => v.nmsShape);
  const outputs = group.outputs.filter((v) => !v.nmsShape).map((v) => ({ name: v.name, shape: v.shape }));
  if (op) {
    const p = op.params;
    const num = (k: string) => (typeof p[k] === 'number' ? p[k] : undefined);
    const h = num('imageHeight');
    const w = num('imageWidth');
    return {
      source,
      kind: 'op',
      ...(op.nmsType ? { opType: op.nmsType } : {}),
      ...(num('classes') !== undefined ? { classes: num('classes') } : {}),
      ...(nmsOut?.nmsShape ? { outputClasses: nmsOut.nmsShape.numberOfClasses } : {}),
      ...(num('maxProposalsPerClass') !== undefined ? { maxProposalsPerClass: num('maxProposalsPerClass') } : {}),
      ...(num('scoreThreshold') !== undefined ? { scoreTh: num('scoreThreshold') } : {}),
      ...(num('iouThreshold') !== undefined ? { iouTh: num('iouThreshold') } : {}),
      ...(h && w ? { imageDims: [h, w] as [number, number] } : {}),
      ...(num('regressionLength') ? { regressionLength: num('regressionLength') } : {}),
      backgroundRemoval: p.backgroundRemoval === true,
      bboxOnly: p.bboxDecodingOnly === true,
      decoders: (op.decoders ?? []).map((d) => ({ ...(d.stride !== undefined ? { stride: d.stride } : {}), layers: d.streams })),
      outputs,
      ...(opOut ? { output: outputFacts(opOut) } : {}),
    };
  }
  if (nmsOut?.nmsShape) {
    return {
      source,
      kind: 'on-chip',
      outputClasses: nmsOut.nmsShape.numberOfClasses,
      maxProposalsPerClass: nmsOut.nmsShape.maxBboxesPerClass,
      outputs,
      output: outputFacts(nmsOut),
    };
  }
  return { source, kind: 'none', outputs };
}

// A HEF's NMS, reduced to what the consistency checks compare: the net-flow NMS op (engine=cpu) or
// the on-chip NMS outputs (engine=nn_core), else its raw outputs. Pure (over our HEF reader's facts).
import type { NetworkGroupInfo } from '../hef/model';
import type { NmsHefFacts } from './model';

/** The facts of the first network group (Hailo's detectors have one). */
export function nmsHefFacts(source: string, group: NetworkGroupInfo): NmsHefFacts {
  const op = group.ops.find((o) => o.kind === 'nms');
  const nmsOut = group.outputs.find((v) => v.nmsShape);
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
    };
  }
  if (nmsOut?.nmsShape) {
    return { source, kind: 'on-chip', outputClasses: nmsOut.nmsShape.numberOfClasses, maxProposalsPerClass: nmsOut.nmsShape.maxBboxesPerClass, outputs };
  }
  return { source, kind: 'none', outputs };
}

// `hailo-tools diverge [--json] --onnx MODEL --har OPTIMIZED.har --inputs X.npy [--count N] [--alls SCRIPT]
// [--context quantized|fp_optimized|native] [--threshold R] [--save] [--docker PATH] [--docker-context NAME] [--image IMAGE]`
// — the float ONNX's and the DFC emulator's per-layer outputs on the same inputs, compared layer by
// layer through original_names, and the first layer whose error jumps. Exit 0 no divergent layer,
// 1 one found (or the run failed), 2 usage or unreadable input.
import { resolve } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { findDivergence } from '../processes/noise/divergenceRun';
import { locateOnnxRuntime, runOnnxInWorker } from '../processes/accuracy/ortProcess';
import { commandLineTrust } from '../core/common/trust';
import { terminalText, reportLines } from '../core/common/escape';
import { optionRows, parseCommand, usageError } from './args';
import { dockerSettings, driverJobEnv } from './dfcJob';
import { divergenceInputsText, saveDivergenceResults } from '../core/har/divergenceResults';

const OPTIONS = {
  inputs: { type: 'string', arg: 'FILE', help: '(N, H, W, C) inputs in the scale the device gets (e.g. the calibration set)' },
  count: { type: 'string', arg: 'N', help: 'entries to use (default 1)' },
  alls: { type: 'string', arg: 'FILE', help: 'the model script (its normalization is applied before the float model)' },
  save: { type: 'boolean', help: 'keep the results beside the HAR as <net>.diverge.json (the HAR view shows them)' },
  // In the usage line only.
  json: { type: 'boolean' },
  onnx: { type: 'string' },
  har: { type: 'string' },
  context: { type: 'string', default: 'quantized' },
  threshold: { type: 'string' },
  docker: { type: 'string' },
  'docker-context': { type: 'string' },
  image: { type: 'string' },
} as const;

const USAGE = `usage: hailo-tools diverge [--json] --onnx MODEL --har OPTIMIZED.har --inputs X.npy [--count N] [--alls SCRIPT]
                           [--context quantized|fp_optimized|native] [--threshold R] [--save]
                           [--docker PATH] [--docker-context NAME] [--image IMAGE]

Run the same inputs through the float ONNX (onnxruntime-node, every layer's tensor added as an
output) and one DFC emulator context (every layer's output kept, in the DFC container), compare
each HN layer with its ONNX tensor through original_names, and name the first layer whose relative
error jumps (above the threshold, default 0.1, and at least 3x its inputs'). Layers that cannot be
compared say why; a jump right after one says it may start there.

${helpTable(optionRows(OPTIONS))}

Exit 0 no divergent layer, 1 one found or the run failed, 2 usage or unreadable input.
`;

export async function runDiverge(args: string[], io: CliIO, deps: { driverDir?: string; ortWorker?: string } = {}): Promise<number> {
  const parsed = parseCommand('diverge', USAGE, OPTIONS, args, io, { positionals: false });
  if (typeof parsed === 'number') return parsed;
  const o = parsed.values;
  const { json, save, context } = o;
  if (!o.onnx || !o.har || !o.inputs) return usage(io, '--onnx, --har and --inputs are required');
  const count = o.count !== undefined ? Number(o.count) : 1;
  const threshold = o.threshold !== undefined ? Number(o.threshold) : undefined;
  if (!Number.isInteger(count) || count < 1 || (threshold !== undefined && !(threshold > 0)))
    return usage(io, '--count takes a positive integer, --threshold a positive number');
  if (!['quantized', 'fp_optimized', 'native'].includes(context)) return usage(io, `--context is quantized, fp_optimized or native, not '${context}'`);
  const trust = commandLineTrust('diverge');
  const ort = locateOnnxRuntime(undefined, [__dirname, process.cwd()]);
  if (!('packageDir' in ort)) {
    io.err(`hailo-tools diverge: ${ort.error}\n`);
    return EXIT_USAGE;
  }
  const settings = dockerSettings({ docker: o.docker, context: o['docker-context'], image: o.image }, 'auto');
  if ('error' in settings) return usage(io, settings.error);
  const out = await findDivergence(
    { onnx: resolve(o.onnx), har: resolve(o.har), inputs: resolve(o.inputs), count, alls: o.alls, context: context as 'quantized', threshold },
    settings,
    {
      ...driverJobEnv(trust, deps.driverDir),
      onOutput: (t) => io.err(t),
      infer: async (onnx, feeds, externalData) =>
        (await runOnnxInWorker(trust, { ortPackage: ort.packageDir, onnx, feeds, ...(externalData ? { externalData } : {}) }, { workerPath: deps.ortWorker }))
          .outputs,
    },
  );
  if (out.status !== 'ok') {
    if (json) io.out(JSON.stringify({ status: out.status, message: out.message }) + '\n');
    io.err(terminalText(`hailo-tools diverge: ${out.message}\n`));
    return out.status === 'refused' ? EXIT_USAGE : EXIT_FINDINGS;
  }
  const r = out.report!;
  const saved = save ? saveDivergenceResults(resolve(o.har), out.results!) : undefined;
  if (json) io.out(JSON.stringify({ status: 'ok', inputs: out.inputs, context, ...r, ...(saved ? { saved } : {}) }) + '\n');
  else {
    const lines = [`Measured on ${divergenceInputsText(out.results!)}:`, ''];
    for (const l of r.layers) {
      const e = l.relativeError !== undefined ? `${(l.relativeError * 100).toFixed(2).padStart(9)} %` : '        —  ';
      lines.push(`  ${e}  ${l.layer}${l.relativeError === undefined ? `  (${l.why})` : ''}${r.first?.layer === l.layer ? '  <- first divergent layer' : ''}`);
    }
    lines.push('', r.verdict);
    if (saved) lines.push(`Saved ${saved}.`);
    io.out(terminalText(reportLines(lines)));
  }
  return r.first ? EXIT_FINDINGS : EXIT_OK;
}

function usage(io: CliIO, sentence: string): number {
  return usageError(io, 'diverge', USAGE, sentence);
}

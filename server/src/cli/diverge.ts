// `hailo-tools diverge [--json] --onnx MODEL --har OPTIMIZED.har --inputs X.npy [--count N] [--alls SCRIPT]
// [--context quantized|fp_optimized|native] [--threshold R] [--save] [--docker PATH] [--context-name NAME] [--image IMAGE]`
// — the float ONNX's and the DFC emulator's per-layer outputs on the same inputs, compared layer by
// layer through original_names, and the first layer whose error jumps. Exit 0 no divergent layer,
// 1 one found (or the run failed), 2 usage or unreadable input.
import { resolve } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { findDivergence } from '../processes/noise/divergenceRun';
import { locateOnnxRuntime, runOnnxInWorker } from '../processes/accuracy/ortProcess';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import { commandLineTrust } from '../core/common/trust';
import { terminalText } from '../core/common/escape';
import { defaultDriverDir } from './compile';
import { divergenceInputsText, saveDivergenceResults } from '../core/har/divergenceResults';

const USAGE = `usage: hailo-tools diverge [--json] --onnx MODEL --har OPTIMIZED.har --inputs X.npy [--count N] [--alls SCRIPT]
                           [--context quantized|fp_optimized|native] [--threshold R] [--save]
                           [--docker PATH] [--docker-context NAME] [--image IMAGE]

Run the same inputs through the float ONNX (onnxruntime-node, every layer's tensor added as an
output) and one DFC emulator context (every layer's output kept, in the DFC container), compare
each HN layer with its ONNX tensor through original_names, and name the first layer whose relative
error jumps (above the threshold, default 0.1, and at least 3x its inputs'). Layers that cannot be
compared say why; a jump right after one says it may start there.

${helpTable([
  ['--inputs FILE', '(N, H, W, C) inputs in the scale the device gets (e.g. the calibration set)'],
  ['--count N', 'entries to use (default 1)'],
  ['--alls FILE', 'the model script (its normalization is applied before the float model)'],
  ['--save', 'keep the results beside the HAR as <net>.diverge.json (the HAR view shows them)'],
])}

Exit 0 no divergent layer, 1 one found or the run failed, 2 usage or unreadable input.
`;

const VALUE = new Set(['--onnx', '--har', '--inputs', '--count', '--alls', '--context', '--threshold', '--docker', '--docker-context', '--image']);

export async function runDiverge(args: string[], io: CliIO, deps: { driverDir?: string; ortWorker?: string } = {}): Promise<number> {
  const o = new Map<string, string>();
  let json = false;
  let save = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--save') save = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (VALUE.has(a)) {
      const v = args[++i];
      if (v === undefined) return usage(io, `${a} needs a value`);
      o.set(a, v);
    } else return usage(io, `unexpected argument '${a}'`);
  }
  if (!o.get('--onnx') || !o.get('--har') || !o.get('--inputs')) return usage(io, '--onnx, --har and --inputs are required');
  const count = o.has('--count') ? Number(o.get('--count')) : 1;
  const threshold = o.has('--threshold') ? Number(o.get('--threshold')) : undefined;
  const context = o.get('--context') ?? 'quantized';
  if (!Number.isInteger(count) || count < 1 || (threshold !== undefined && !(threshold > 0)))
    return usage(io, '--count takes a positive integer, --threshold a positive number');
  if (!['quantized', 'fp_optimized', 'native'].includes(context)) return usage(io, `--context is quantized, fp_optimized or native, not '${context}'`);
  const trust = commandLineTrust('diverge');
  const ort = locateOnnxRuntime(undefined, [__dirname, process.cwd()]);
  if (!('packageDir' in ort)) {
    io.err(`hailo-tools diverge: ${ort.error}\n`);
    return EXIT_USAGE;
  }
  const out = await findDivergence(
    {
      onnx: resolve(o.get('--onnx')!),
      har: resolve(o.get('--har')!),
      inputs: resolve(o.get('--inputs')!),
      count,
      alls: o.get('--alls'),
      context: context as 'quantized',
      threshold,
    },
    { dockerPath: o.get('--docker') || 'docker', context: o.get('--docker-context'), image: o.get('--image'), gpus: 'auto', extraRunArgs: [] },
    {
      launch: trustedLauncher(trust, { newProcessGroup: true }),
      driverDir: deps.driverDir ?? defaultDriverDir(),
      user: hostUser(),
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
  const saved = save ? saveDivergenceResults(resolve(o.get('--har')!), out.results!) : undefined;
  if (json) io.out(JSON.stringify({ status: 'ok', inputs: out.inputs, context, ...r, ...(saved ? { saved } : {}) }) + '\n');
  else {
    const lines = [`Measured on ${divergenceInputsText(out.results!)}:`, ''];
    for (const l of r.layers) {
      const e = l.relativeError !== undefined ? `${(l.relativeError * 100).toFixed(2).padStart(9)} %` : '        —  ';
      lines.push(`  ${e}  ${l.layer}${l.relativeError === undefined ? `  (${l.why})` : ''}${r.first?.layer === l.layer ? '  <- first divergent layer' : ''}`);
    }
    lines.push('', r.verdict);
    if (saved) lines.push(`Saved ${saved}.`);
    io.out(terminalText(lines.join('\n') + '\n'));
  }
  return r.first ? EXIT_FINDINGS : EXIT_OK;
}

function usage(io: CliIO, message: string): number {
  io.err(`hailo-tools diverge: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

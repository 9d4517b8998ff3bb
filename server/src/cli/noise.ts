// `hailo-tools noise [--json] [--calib SET] [--count N] [--batch N] [--mode simple|advanced]
// [--save-har] [--docker PATH] [--context NAME] [--image IMAGE] [--memory LIMIT] [--gpus auto|all|none]
// [--hw-arch ARCH] OPTIMIZED.har` — the DFC's layer noise analysis in its container, read back as
// one SNR per layer, worst first, with the 16-bit model-script line for the layers that need it.
// The figures are saved beside the HAR (`<net>.noise.json`) for the HAR view and the `.alls` hover.
// Exit 0 no layer needs more bits, 1 some do (or the analysis failed), 2 usage, unreadable input or
// a HAR that is not optimized, 130 interrupted.
import { hookSignals } from './interrupt';
import { basename, resolve } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { analyzeNoise, calibrationBeside, type NoiseOutcome } from '../processes/noise/noiseRun';
import { calibrationText, sixteenBitLine, type AnalyzeMode } from '../core/har/noise';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import { commandLineTrust } from '../core/common/trust';
import type { Gpus } from '../core/common/settings';
import { defaultDriverDir } from './compile';
import { terminalText } from '../core/common/escape';

const USAGE = `usage: hailo-tools noise [--json] [--calib SET.npy] [--count N] [--batch N] [--mode simple|advanced]
                         [--save-har] [--docker PATH] [--context NAME] [--image IMAGE] [--memory LIMIT]
                         [--gpus auto|all|none] [--hw-arch ARCH] OPTIMIZED.har

Run the Dataflow Compiler's layer noise analysis (runner.analyze_noise, as 'hailo analyze-noise')
on an optimized HAR in the DFC docker container, then print each layer's SNR worst first, with
the calibration set's distribution beside the figures, and the model-script line that gives the
noisy layers 16 bits:  quantization_param([conv3, ...], precision_mode=a16_w16)
A layer is picked by the rule of Hailo's optimization diagnostic tool: SNR at or below 10 dB, or a
low outlier (at or below Q1 - 1.5 IQR); input/output layers, NMS and argmax are not ranked. The
figures are saved as <net>.noise.json beside the HAR (the HAR view and the .alls hover read it).

${helpTable([
  ['--calib FILE', 'calibration set (default: the *calib*.npy, else the only .npy, beside the HAR)'],
  ['--count N', 'entries to analyse (data_count; default all of the set)'],
  ['--batch N', 'batch_size'],
  ['--mode M', 'analyze_mode: simple (whole-model quantized; fast) or advanced (layer by layer)'],
  ['--save-har', 'also keep the analysed HAR as <net>_noise.har (hailo profiler shows it)'],
  ['--json', 'one JSON document (the figures, the report, the line)'],
  ['--docker PATH', 'as for hailo-tools compile'],
  ['--context NAME', 'as for hailo-tools compile'],
  ['--image IMAGE', 'as for hailo-tools compile'],
  ['--memory LIMIT', 'as for hailo-tools compile'],
  ['--gpus G', 'as for hailo-tools compile'],
  ['--hw-arch ARCH', 'as for hailo-tools compile'],
])}

Exit 0 no layer needs more bits, 1 some do or the analysis failed, 2 usage or unreadable input.
`;

const VALUE = new Set(['--calib', '--count', '--batch', '--mode', '--docker', '--context', '--image', '--memory', '--gpus', '--hw-arch']);

function usage(io: CliIO, message: string): number {
  io.err(`hailo-tools noise: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

export function noiseText(o: NoiseOutcome): string {
  const r = o.report!;
  const lines = [`noise analysis of ${o.results!.har}: ${calibrationText(r)}`, `saved: ${o.resultsPath}`];
  if (o.savedHar) lines.push(`analysed HAR: ${o.savedHar}`);
  lines.push('', '     SNR (dB)  layer');
  for (const l of r.layers) {
    lines.push(`  ${l.snrDb.toFixed(2).padStart(11)}  ${l.name}${l.unranked ? ' (not ranked)' : ''}${l.reasons.length ? `  <- ${l.reasons.join('; ')}` : ''}`);
  }
  if (!r.layers.length) lines.push('  (no figures)');
  for (const n of r.notes) lines.push(`note: ${n}`);
  lines.push('');
  lines.push(
    r.chosen.length
      ? `${r.chosen.length} layer(s) need more bits; add to the model script:\n  ${sixteenBitLine(r.chosen)}`
      : `no layer at or below ${r.thresholdDb} dB and no low outlier`,
  );
  return lines.join('\n') + '\n';
}

export async function runNoise(args: string[], io: CliIO, deps: { driverDir?: string; onInterrupt?: (stop: () => void) => () => void } = {}): Promise<number> {
  const o = new Map<string, string>();
  let json = false;
  let saveHar = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--save-har') saveHar = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (VALUE.has(a)) {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) return usage(io, `${a} needs a value`);
      o.set(a, v);
    } else if (a.startsWith('-')) return usage(io, `unknown option '${a}'`);
    else files.push(a);
  }
  if (files.length !== 1) return usage(io, 'give one optimized .har');
  const int = (k: string) => {
    const v = o.get(k);
    if (v === undefined) return undefined;
    return /^[1-9]\d*$/.test(v) ? Number(v) : NaN;
  };
  const count = int('--count');
  const batch = int('--batch');
  if (Number.isNaN(count) || Number.isNaN(batch)) return usage(io, '--count and --batch take positive integers');
  const mode = o.get('--mode');
  if (mode !== undefined && mode !== 'simple' && mode !== 'advanced') return usage(io, `--mode is simple or advanced, not '${mode}'`);
  const gpus = o.get('--gpus') ?? 'auto';
  if (gpus !== 'auto' && gpus !== 'all' && gpus !== 'none') return usage(io, `--gpus is auto, all or none, not '${gpus}'`);
  const har = resolve(files[0]);
  const calib = o.has('--calib') ? resolve(o.get('--calib')!) : calibrationBeside(har);
  if (!calib) return usage(io, `no calibration set beside ${basename(har)} (a *calib*.npy, or the only .npy): give --calib SET.npy`);

  const trust = commandLineTrust('noise');
  const controller = new AbortController();
  const unhook = (deps.onInterrupt ?? hookSignals)(() => controller.abort());
  try {
    const out = await analyzeNoise(
      { har, calibration: calib, dataCount: count, batchSize: batch, mode: mode as AnalyzeMode | undefined, saveHar, hwArch: o.get('--hw-arch') },
      {
        dockerPath: o.get('--docker') || 'docker',
        context: o.get('--context'),
        image: o.get('--image'),
        memoryLimit: o.get('--memory'),
        gpus: gpus as Gpus,
        extraRunArgs: [],
      },
      {
        launch: trustedLauncher(trust, { newProcessGroup: true }),
        driverDir: deps.driverDir ?? defaultDriverDir(),
        user: hostUser(),
        signal: controller.signal,
        onOutput: (text) => io.err(text),
      },
    );
    if (out.status === 'cancelled') {
      io.err('hailo-tools noise: interrupted; the container was removed\n');
      return 130;
    }
    if (out.status !== 'ok') {
      if (json) io.out(JSON.stringify({ status: out.status, message: out.message, container: out.container ?? null }) + '\n');
      io.err(terminalText(`hailo-tools noise: ${out.message}\n`));
      return out.status === 'refused' ? EXIT_USAGE : EXIT_FINDINGS;
    }
    const r = out.report!;
    if (json) {
      const doc = {
        status: 'ok',
        results: out.resultsPath,
        savedHar: out.savedHar ?? null,
        report: r,
        line: r.chosen.length ? sixteenBitLine(r.chosen) : null,
      };
      io.out(JSON.stringify(doc) + '\n');
    } else io.out(terminalText(noiseText(out))); // layer names come from the HAR
    return r.chosen.length ? EXIT_FINDINGS : EXIT_OK;
  } finally {
    unhook();
  }
}

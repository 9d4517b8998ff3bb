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
import { commandLineTrust } from '../core/common/trust';
import { terminalText, reportLines } from '../core/common/escape';
import { optionRows, parseCommand, usageError } from './args';
import { DOCKER_OPTIONS, dockerSettings, driverJobEnv } from './dfcJob';

const OPTIONS = {
  calib: { type: 'string', arg: 'FILE', help: 'calibration set (default: the *calib*.npy, else the only .npy, beside the HAR)' },
  count: { type: 'string', arg: 'N', help: 'entries to analyse (data_count; default all of the set)' },
  batch: { type: 'string', arg: 'N', help: 'batch_size' },
  mode: { type: 'string', arg: 'M', help: 'analyze_mode: simple (whole-model quantized; fast) or advanced (layer by layer)' },
  'save-har': { type: 'boolean', help: 'also keep the analysed HAR as <net>_noise.har (hailo profiler shows it)' },
  json: { type: 'boolean', help: 'one JSON document (the figures, the report, the line)' },
  ...DOCKER_OPTIONS,
  'hw-arch': { type: 'string', arg: 'ARCH', help: 'as for hailo-tools compile' },
} as const;

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

${helpTable(optionRows(OPTIONS))}

Exit 0 no layer needs more bits, 1 some do or the analysis failed, 2 usage or unreadable input.
`;

const usage = (io: CliIO, sentence: string) => usageError(io, 'noise', USAGE, sentence);

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
  if (r.chosen.length) lines.push(`${r.chosen.length} layer(s) need more bits; add to the model script:`, `  ${sixteenBitLine(r.chosen)}`);
  else lines.push(`no layer at or below ${r.thresholdDb} dB and no low outlier`);
  return reportLines(lines);
}

export async function runNoise(args: string[], io: CliIO, deps: { driverDir?: string; onInterrupt?: (stop: () => void) => () => void } = {}): Promise<number> {
  const parsed = parseCommand('noise', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const o = parsed.values;
  const json = o.json;
  if (parsed.positionals.length !== 1) return usage(io, 'give one optimized .har');
  const int = (v: string | undefined) => (v === undefined ? undefined : /^[1-9]\d*$/.test(v) ? Number(v) : NaN);
  const count = int(o.count);
  const batch = int(o.batch);
  if (Number.isNaN(count) || Number.isNaN(batch)) return usage(io, '--count and --batch take positive integers');
  const mode = o.mode;
  if (mode !== undefined && mode !== 'simple' && mode !== 'advanced') return usage(io, `--mode is simple or advanced, not '${mode}'`);
  const settings = dockerSettings(o, 'auto');
  if ('error' in settings) return usage(io, settings.error);
  const har = resolve(parsed.positionals[0]);
  const calib = o.calib !== undefined ? resolve(o.calib) : calibrationBeside(har);
  if (!calib) return usage(io, `no calibration set beside ${basename(har)} (a *calib*.npy, or the only .npy): give --calib SET.npy`);

  const controller = new AbortController();
  const unhook = (deps.onInterrupt ?? hookSignals)(() => controller.abort());
  try {
    const out = await analyzeNoise(
      { har, calibration: calib, dataCount: count, batchSize: batch, mode: mode as AnalyzeMode | undefined, saveHar: o['save-har'], hwArch: o['hw-arch'] },
      settings,
      {
        ...driverJobEnv(commandLineTrust('noise'), deps.driverDir, controller.signal),
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

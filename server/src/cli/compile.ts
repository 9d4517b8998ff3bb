// `hailo-tools compile [--json] [--docker PATH] [--context NAME] [--image IMAGE] [--hw-arch ARCH]
//   [--alls SCRIPT] [--calib NPY] [--out DIR] [--start-nodes a,b] [--end-nodes a,b] MODEL.onnx|.har`
// Runs parse → optimize → compile in the Dataflow Compiler's docker container (server/src/processes/compile),
// prints live stage lines on stderr and, at the end, the same report as `hailo-tools dfc-log` plus
// the outputs beside the files the log says the run saved, and the container (processes/compile/reportText.ts). Exit 0: the DFC compiled and the HEF reads back intact; 1: it did
// not (failed, killed, docker refused); 2: usage or unreadable input; 130: interrupted (Ctrl+C) —
// the container is stopped and removed first.
import { hookSignals, stopOnce } from './interrupt';
import { dirname, resolve } from 'node:path';
import { escapeTerminal, jsonForTerminal, type DfcEvent } from '../core/dfc';
import { commandLineTrust } from '../core/common/trust';
import { compileModel } from '../processes/compile/session';
import { compileReportText } from '../processes/compile/reportText';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { dockerSettings, driverJobEnv } from './dfcJob';

export const EXIT_INTERRUPTED = 130;

const OPTIONS = {
  json: { type: 'boolean', help: 'print one JSON document (the dfc-log document + outputs, container, hef)' },
  docker: { type: 'string', arg: 'PATH', help: 'the docker executable (default: docker)' },
  context: { type: 'string', arg: 'NAME', help: 'docker context (a remote docker host: files travel by docker cp)' },
  image: { type: 'string', arg: 'IMAGE', help: 'DFC image (default: the first local Hailo AI SW Suite / DFC image, else\nhailo_ai_sw_suite_2026-04:1)' },
  'hw-arch': { type: 'string', default: 'hailo10h', arg: 'ARCH', help: 'target architecture (default: hailo10h)' },
  alls: { type: 'string', arg: 'SCRIPT', help: 'model script (.alls) for optimize' },
  calib: { type: 'string', arg: 'NPY', help: 'calibration set, NHWC .npy (without one: random data, accuracy meaningless)' },
  out: { type: 'string', arg: 'DIR', help: 'output folder' },
  'start-nodes': { type: 'string', arg: 'a,b', help: 'ONNX start node names' },
  'end-nodes': { type: 'string', arg: 'a,b', help: 'ONNX end node names' },
  memory: { type: 'string', arg: 'LIMIT', help: 'container memory limit (docker --memory, e.g. 40g)' },
  gpus: { type: 'string', arg: 'MODE', help: 'auto (use an NVIDIA runtime when docker has one), all, none (default: auto)' },
  'docker-arg': { type: 'string', multiple: true, arg: 'ARG', help: "one extra 'docker run' argument (repeat for several)" },
  'hailo-config': { type: 'string', arg: 'FILE', help: 'hailo-config.json to embed in the HEF (default: the one beside the model)' },
  verbose: { type: 'boolean', help: "also copy the DFC's console to stderr" },
} as const;

const USAGE = `usage: hailo-tools compile [--json] [--docker PATH] [--context NAME] [--image IMAGE] [--hw-arch ARCH]
                           [--alls SCRIPT] [--calib NPY] [--out DIR] [--start-nodes a,b] [--end-nodes a,b]
                           [--memory LIMIT] [--gpus auto|all|none] [--docker-arg ARG]... [--hailo-config FILE]
                           [--verbose] MODEL.onnx|.har

Compiles a model with Hailo's Dataflow Compiler in its docker container: parse (ONNX) → optimize
(quantize with the calibration set) → compile. Outputs go to <out>/<net>.har, <net>_optimized.har
and <net>.hef (net = the model's base name; default out: the model's folder); a stage's output is
moved there only when the stage succeeded. The console is saved as <out>/<net>.dfc.log.
${helpTable(optionRows(OPTIONS))}
Exit: 0 compiled (HEF intact), 1 failed / killed / docker refused, 2 usage or unreadable input,
130 interrupted (the container is removed first).
`;

export interface CompileCliDeps {
  /** Where the driver script lives (default: driver/ beside dist/). */
  driverDir?: string;
  /** Interrupt source (default: SIGINT/SIGTERM of this process). */
  onInterrupt?: (stop: () => void) => () => void;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function runCompileCommand(args: string[], io: CliIO, deps: CompileCliDeps = {}): Promise<number> {
  const parsed = parseCommand('compile', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const o = parsed.values;
  const { json, verbose } = o;
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'compile', USAGE, `expected one MODEL (.onnx or .har), got ${files.length}`);
  const settings = dockerSettings(o, 'auto');
  if ('error' in settings) return usageError(io, 'compile', USAGE, settings.error);
  const controller = new AbortController();
  const stop = stopOnce(
    controller,
    (line) => io.err(line),
    'hailo-tools compile: interrupted: stopping and removing the container …\n',
    'hailo-tools compile: still stopping the container; it is removed before this exits\n',
  );
  const unhook = (deps.onInterrupt ?? hookSignals)(stop);
  const stage = (line: string) => io.err(`hailo-tools compile: ${line}\n`);
  const shown = new Map<string, number>();
  let outcome;
  try {
    outcome = await compileModel(
      {
        model: files[0],
        modelScript: o.alls,
        calibration: o.calib,
        hailoConfig: o['hailo-config'],
        hwArch: o['hw-arch'],
        startNodes: list(o['start-nodes'] ?? ''),
        endNodes: list(o['end-nodes'] ?? ''),
        outDir: o.out,
        // The folder rule: the current folder and the folders of the files named here; links that
        // lead elsewhere (a cloned hailo-config.json -> ~/.ssh/…) are refused.
        folders: [process.cwd(), ...[o.alls, o.calib, o['hailo-config']].flatMap((f) => (f ? [dirname(resolve(f))] : [])), ...(o.out ? [resolve(o.out)] : [])],
      },
      settings,
      driverJobEnv(commandLineTrust('compile'), deps.driverDir, controller.signal),
      {
        onStep: (_s, detail) => stage(detail),
        onOutput: verbose ? (t) => io.err(escapeTerminal(t).replace(/\\x0a/g, '\n').replace(/\\x0d/g, '\r')) : undefined,
        onEvent: (e) => {
          const line = eventLine(e, shown);
          if (line) stage(line);
        },
      },
    );
  } finally {
    unhook();
  }
  if (outcome.inputError) {
    if (json) io.out(jsonForTerminal({ error: outcome.inputError }, 2) + '\n');
    else io.err(`hailo-tools compile: ${escapeTerminal(outcome.inputError)}\n`);
    return EXIT_USAGE;
  }
  const report = outcome.report!;
  io.out(json ? jsonForTerminal(report, 2) + '\n' : compileReportText(report, report.log ?? files[0]));
  if (outcome.cancelled || controller.signal.aborted) return EXIT_INTERRUPTED;
  return report.outcome === 'success' && report.hef?.intact === true ? EXIT_OK : EXIT_FINDINGS;
}

/** One stderr line per stage change; progress at every quarter of a bar. */
export function eventLine(e: DfcEvent, shown: Map<string, number>): string | undefined {
  switch (e.kind) {
    case 'stageStarted':
      return `${e.stage} …`;
    case 'stageFinished':
      return `${e.stage} ${e.status === 'ok' ? 'ok' : 'FAILED'}${e.seconds !== null ? ` (${e.seconds.toFixed(2)} s)` : ''}`;
    case 'progress': {
      if (!e.total) return undefined;
      const quarter = Math.floor((4 * e.done) / e.total);
      const key = `${e.stage}/${e.label}`;
      if ((shown.get(key) ?? -1) >= quarter) return undefined;
      shown.set(key, quarter);
      return `${e.stage ?? ''}${e.stage ? ': ' : ''}${escapeTerminal(e.label)} ${e.done}/${e.total}`;
    }
    case 'diagnostic':
      return e.diagnostic.severity === 'error' ? `error: ${escapeTerminal(e.diagnostic.message)}` : undefined;
    default:
      return undefined;
  }
}

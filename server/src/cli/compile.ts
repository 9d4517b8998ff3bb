// `hailo-tools compile [--json] [--docker PATH] [--context NAME] [--image IMAGE] [--hw-arch ARCH]
//   [--alls SCRIPT] [--calib NPY] [--out DIR] [--start-nodes a,b] [--end-nodes a,b] MODEL.onnx|.har`
// Runs parse → optimize → compile in the Dataflow Compiler's docker container (server/src/processes/compile),
// prints live stage lines on stderr and, at the end, the same report as `hailo-tools dfc-log` plus
// the outputs and the container. Exit 0: the DFC compiled and the HEF reads back intact; 1: it did
// not (failed, killed, docker refused); 2: usage or unreadable input; 130: interrupted (Ctrl+C) —
// the container is stopped and removed first.
import { FileRoots } from '../core/common/confined';
import { hookSignals, stopOnce } from './interrupt';
import { dirname, join, resolve } from 'node:path';
import { escapeTerminal, jsonForTerminal, reportText, type DfcEvent } from '../core/dfc';
import { commandLineTrust } from '../core/common/trust';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import { compileModel, type CompileReport } from '../processes/compile/session';
import type { DockerSettings, Gpus } from '../processes/compile/runner';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';

export const EXIT_INTERRUPTED = 130;

const USAGE = `usage: hailo-tools compile [--json] [--docker PATH] [--context NAME] [--image IMAGE] [--hw-arch ARCH]
                           [--alls SCRIPT] [--calib NPY] [--out DIR] [--start-nodes a,b] [--end-nodes a,b]
                           [--memory LIMIT] [--gpus auto|all|none] [--docker-arg ARG]... [--hailo-config FILE]
                           [--verbose] MODEL.onnx|.har

Compiles a model with Hailo's Dataflow Compiler in its docker container: parse (ONNX) → optimize
(quantize with the calibration set) → compile. Outputs go to <out>/<net>.har, <net>_optimized.har
and <net>.hef (net = the model's base name; default out: the model's folder); a stage's output is
moved there only when the stage succeeded. The console is saved as <out>/<net>.dfc.log.
${helpTable([
  ['--json', 'print one JSON document (the dfc-log document + outputs, container, hef)'],
  ['--docker PATH', 'the docker executable (default: docker)'],
  ['--context NAME', 'docker context (a remote docker host: files travel by docker cp)'],
  ['--image IMAGE', 'DFC image (default: the first local Hailo AI SW Suite / DFC image, else\nhailo_ai_sw_suite_2026-04:1)'],
  ['--hw-arch ARCH', 'target architecture (default: hailo10h)'],
  ['--alls SCRIPT', 'model script (.alls) for optimize'],
  ['--calib NPY', 'calibration set, NHWC .npy (without one: random data, accuracy meaningless)'],
  ['--out DIR', 'output folder'],
  ['--start-nodes a,b', 'ONNX start node names'],
  ['--end-nodes a,b', 'ONNX end node names'],
  ['--memory LIMIT', 'container memory limit (docker --memory, e.g. 40g)'],
  ['--gpus MODE', 'auto (use an NVIDIA runtime when docker has one), all, none (default: auto)'],
  ['--docker-arg ARG', "one extra 'docker run' argument (repeat for several)"],
  ['--hailo-config FILE', 'hailo-config.json to embed in the HEF (default: the one beside the model)'],
  ['--verbose', "also copy the DFC's console to stderr"],
])}
Exit: 0 compiled (HEF intact), 1 failed / killed / docker refused, 2 usage or unreadable input,
130 interrupted (the container is removed first).
`;

const VALUE_OPTIONS = new Set([
  '--docker',
  '--context',
  '--image',
  '--hw-arch',
  '--alls',
  '--calib',
  '--out',
  '--start-nodes',
  '--end-nodes',
  '--memory',
  '--gpus',
  '--docker-arg',
  '--hailo-config',
]);

export interface CompileCliDeps {
  /** Where the driver script lives (default: driver/ beside dist/). */
  driverDir?: string;
  /** Interrupt source (default: SIGINT/SIGTERM of this process). */
  onInterrupt?: (stop: () => void) => () => void;
}

function usageError(io: CliIO, message: string): number {
  io.err(`hailo-tools compile: ${escapeTerminal(message)}\n\n${USAGE}`);
  return EXIT_USAGE;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function runCompileCommand(args: string[], io: CliIO, deps: CompileCliDeps = {}): Promise<number> {
  const opts = new Map<string, string>();
  const dockerArgs: string[] = [];
  let json = false;
  let verbose = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (VALUE_OPTIONS.has(a.replace(/=.*/s, ''))) {
      const name = a.replace(/=.*/s, '');
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (v === undefined) return usageError(io, `${name} needs a value`);
      if (name === '--docker-arg') dockerArgs.push(v);
      else opts.set(name, v);
    } else if (a.startsWith('-') && a !== '-') return usageError(io, `unknown option '${a}'`);
    else files.push(a);
  }
  if (files.length !== 1) return usageError(io, `expected one MODEL (.onnx or .har), got ${files.length}`);
  const gpus = (opts.get('--gpus') ?? 'auto') as Gpus;
  if (!['auto', 'all', 'none'].includes(gpus)) return usageError(io, `--gpus must be auto, all or none, not '${gpus}'`);

  const settings: DockerSettings = {
    dockerPath: opts.get('--docker') || 'docker',
    context: opts.get('--context') || undefined,
    image: opts.get('--image') || undefined,
    memoryLimit: opts.get('--memory') || undefined,
    gpus,
    extraRunArgs: dockerArgs,
  };
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
        modelScript: opts.get('--alls'),
        calibration: opts.get('--calib'),
        hailoConfig: opts.get('--hailo-config'),
        hwArch: opts.get('--hw-arch') || 'hailo10h',
        startNodes: list(opts.get('--start-nodes') ?? ''),
        endNodes: list(opts.get('--end-nodes') ?? ''),
        outDir: opts.get('--out'),
        // The folder rule: the current folder and the folders of the files named here; links that
        // lead elsewhere (a cloned hailo-config.json -> ~/.ssh/…) are refused.
        folders: [
          process.cwd(),
          ...['--alls', '--calib', '--hailo-config'].flatMap((k) => (opts.get(k) ? [dirname(resolve(opts.get(k)!))] : [])),
          ...(opts.get('--out') ? [resolve(opts.get('--out')!)] : []),
        ],
      },
      settings,
      {
        launch: trustedLauncher(commandLineTrust('compile'), { newProcessGroup: true }),
        driverDir: deps.driverDir ?? defaultDriverDir(),
        user: hostUser(),
        signal: controller.signal,
      },
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
  io.out(json ? jsonForTerminal(report, 2) + '\n' : reportText(report, report.log ?? files[0]) + tail(report));
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

function tail(r: CompileReport): string {
  const e = escapeTerminal;
  const lines = [''];
  const o = r.outputs;
  lines.push(
    `outputs: har ${o.har ? e(o.har) : '-'}`,
    `         optimized har ${o.optimizedHar ? e(o.optimizedHar) : '-'}`,
    `         hef ${o.hef ? e(o.hef) : '-'}`,
  );
  if (r.hef) {
    const config = { embedded: 'embedded', missing: 'MISSING', different: 'DIFFERS from the file', 'not-requested': 'not requested' }[r.hef.hailoConfig];
    const contract = r.hef.contract ? (r.hef.contract.pass ? 'mtmd contract passes' : `mtmd contract FAILS (${r.hef.contract.failed.length} rule(s))`) : '';
    lines.push(`hef: ${r.hef.bytes} bytes, ${r.hef.intact ? 'intact' : 'DAMAGED'}, hailo-config.json ${config}${contract ? `, ${contract}` : ''}`);
  }
  if (r.container)
    lines.push(
      `container: ${e(r.container.name)} (image ${e(r.container.image)}${r.container.context ? `, context ${e(r.container.context)}` : ''}, ${r.container.transfer === 'copy' ? 'docker cp' : 'bind mounts'}${r.container.gpus ? ', GPUs' : ''}) ${r.container.removed ? 'removed' : 'NOT removed'}`,
    );
  for (const n of r.notes) lines.push(`note: ${e(n)}`);
  return lines.join('\n') + '\n';
}

/** `driver/` of the package: dist/cli.js → ../driver (also from the sources, for tests). */
export function defaultDriverDir(): string {
  for (const d of [join(__dirname, '..', 'driver'), join(__dirname, '..', '..', '..', 'driver'), resolve('driver')]) {
    if (FileRoots.of([d]).isFile(join(d, 'hailo_compile.py'))) return d; // the package's own driver/ folder
  }
  return join(dirname(__dirname), 'driver');
}

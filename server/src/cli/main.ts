// `hailo-tools` command-line entry: dispatches to one module per sub-command.
// Every sub-command is `(args, io) => Promise<exitCode>` and uses the same pure cores as the server.
import { EXIT_USAGE, processIO, type CliIO } from './io';
import { helpTable } from './help';
import { terminalText } from '../core/common/escape';
// Only the field is bundled (esbuild tree-shakes a JSON module's unused top-level keys).
import { version } from '../../../package.json';

type SubCommand = (args: string[], io: CliIO) => Promise<number>;

/**
 * `terminal: true`: everything the command prints passes through terminalText (names from a model
 * file could otherwise carry ESC sequences to the terminal). compile and dfc-log escape each value
 * themselves (dfc/text.ts), because they pass a container's progress output (\r) through.
 */
const commands: Record<string, { summary: string; load: () => Promise<SubCommand>; terminal?: boolean }> = {
  check: { summary: 'check .alls model scripts (files or folders)', load: async () => (await import('./check')).runCheck, terminal: true },
  hef: { summary: 'read a compiled .hef and optionally check the mtmd contract', load: async () => (await import('./hef')).runHef, terminal: true },
  compile: {
    summary: 'compile a model in the DFC docker container: parse, optimize, compile',
    load: async () => (await import('./compile')).runCompileCommand,
  },
  har: {
    summary: 'show a Hailo archive: HN layers, ONNX sources, quantization, per-layer SNR',
    load: async () => (await import('./har')).runHarCommand,
    terminal: true,
  },
  noise: {
    summary: "run the DFC's layer noise analysis on an optimized HAR: SNR per layer, the 16-bit line",
    load: async () => (await import('./noise')).runNoise,
  },
  bisect: {
    summary: "find where the DFC's parser first refuses an ONNX model: the node, its message, what is known",
    load: async () => (await import('./bisect')).runBisect,
  },
  diverge: {
    summary: 'float ONNX vs the DFC emulator layer by layer: the first layer whose error jumps',
    load: async () => (await import('./diverge')).runDiverge,
  },
  sweep: {
    summary: 'compile every variant of a sweep plan across docker contexts; one table of the results',
    load: async () => (await import('./sweep')).runSweepCommand,
    terminal: true,
  },
  recipe: {
    summary: 'the compile recipe for a detector ONNX: end nodes, .alls, NMS config, labels — from its head',
    load: async () => (await import('./recipe')).runRecipe,
    terminal: true,
  },
  onnx: { summary: 'index an ONNX model: shapes, ranks, DFC pre-flight findings', load: async () => (await import('./onnx')).runOnnx, terminal: true },
  calib: {
    summary: 'inspect a calibration set (.npy/.npz) against the model and its script',
    load: async () => (await import('./calib')).runCalib,
    terminal: true,
  },
  accuracy: {
    summary: 'one table of every oracle (float ONNX, DFC emulator contexts, device) on the same inputs',
    load: async () => (await import('./accuracy')).runAccuracy,
    terminal: true,
  },
  'dfc-log': {
    summary: 'explain a Dataflow Compiler log: stages, summary, errors on their .alls line / ONNX node',
    load: async () => (await import('./dfcLog')).runDfcLog,
  },
  lsp: { summary: 'run the language server for any editor (--stdio)', load: async () => (await import('./lsp')).runLsp },
  devices: {
    summary: 'list the Hailo devices HailoRT sees (architecture, firmware, serial)',
    load: async () => (await import('./device')).runDevices,
    terminal: true,
  },
  run: { summary: 'run a .hef on the device: output statistics, checks, latency, FPS', load: async () => (await import('./device')).runRun, terminal: true },
  doctor: {
    summary: 'what Hailo pieces are installed and whether they agree (driver, libhailort, firmware, wheel, HEFs)',
    load: async () => (await import('./doctor')).runDoctorCommand,
    terminal: true,
  },
  chat: {
    summary: 'ask an LLM/VLM .hef on the device one question; the answer streams to stdout',
    load: async () => (await import('./chat')).runChat,
    terminal: true,
  },
  transcribe: {
    summary: 'transcribe a WAV recording with a speech-to-text .hef (Whisper) on the device',
    load: async () => (await import('./transcribe')).runTranscribe,
    terminal: true,
  },
};

export function usage(): string {
  return [
    'usage: hailo-tools <command> [options]',
    '       hailo-tools --version | --help',
    '',
    'commands:',
    helpTable(Object.entries(commands).map(([name, c]) => [name, c.summary])),
    '',
    'Run `hailo-tools <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

/** The package's version, as `npm ls` and the .vsix show it. */
export const VERSION: string = version;

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-V') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const cmd = commands[name];
  if (!cmd) {
    io.err(`hailo-tools: unknown command '${name}'\n\n${usage()}`);
    return EXIT_USAGE;
  }
  const out: CliIO = cmd.terminal ? { ...io, out: (t) => io.out(terminalText(t)), err: (t) => io.err(terminalText(t)) } : io;
  return (await cmd.load())(rest, out);
}

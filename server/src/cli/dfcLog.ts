// `hailo-tools dfc-log [--json] [--alls SCRIPT] [--onnx MODEL] [--exit-code N] LOG|-` — explains a Dataflow Compiler
// log from any run (the `hailo` CLI, `hailomz`, Python-API scripts; DFC 3.x and 5.x). The log is
// streamed through the reader, never held whole. Exit 0: the log shows a successful run; 1: a
// failed, killed or incomplete run; 2: usage, or the log (or --alls/--onnx) cannot be read.
import { FileRoots } from '../core/common/confined';
import { FileAccessError } from '../core/common/fileAccess';
import { StringDecoder } from 'node:string_decoder';
import { DfcLogReader, jsonForTerminal, onnxNodeIndex, reportText, escapeTerminal, type DfcExit, type DfcLogContext } from '../core/dfc';
import { readOnnxFile, OnnxReadError } from '../core/onnx/reader';
import { analyzeOnnx } from '../core/onnx/analysis';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';

const OPTIONS = {
  json: { type: 'boolean', help: 'print one JSON document' },
  alls: { type: 'string', arg: 'SCRIPT', missing: '--alls needs a file', help: 'the model script the run used (errors land on its lines)' },
  onnx: {
    type: 'string',
    arg: 'MODEL',
    missing: '--onnx needs a file',
    help: 'the ONNX model the run parsed (errors land on its nodes; tensor vs node names)',
  },
  'exit-code': {
    type: 'string',
    arg: 'N',
    missing: "--exit-code needs a process exit status 0…255, got ''",
    help: `how the run ended, when you know it (a shell's $?, docker's exit status): a log
that just stops is then read as killed (137: the OOM killer or docker's memory
limit, in the stage it stopped in) or failed (any other non-zero status)`,
  },
} as const;

const USAGE = `usage: hailo-tools dfc-log [--json] [--alls SCRIPT] [--onnx MODEL] [--exit-code N] LOG|-

Explains a Dataflow Compiler console log (hailo parser|optimize|compiler, hailomz, Python API;
DFC 3.x and 5.x): stages and their times, versions, the compile summary, and every error on the
.alls line, ONNX node or setting that caused it. '-' reads the log from stdin.
${helpTable(optionRows(OPTIONS))}
Exit: 0 the log shows a successful run, 1 a failed, killed or incomplete run, 2 unreadable input.
`;

const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;

function fail(io: CliIO, msg: string): number {
  io.err(`hailo-tools dfc-log: ${escapeTerminal(msg)}\n`);
  return EXIT_USAGE;
}

export async function runDfcLog(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('dfc-log', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, alls, onnx, 'exit-code': code } = parsed.values;
  if (code !== undefined && (!/^\d{1,3}$/.test(code) || Number(code) > 255)) return fail(io, `--exit-code needs a process exit status 0…255, got '${code}'`);
  const exit: DfcExit | undefined = code === undefined ? undefined : { code: Number(code) };
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'dfc-log', USAGE, `expected one LOG (or - for stdin), got ${files.length}`);
  const log = files[0];
  const ctx: DfcLogContext = { logPath: log === '-' ? '<stdin>' : log };
  if (alls !== undefined) {
    try {
      // A regular file only (a FIFO would block, /dev/zero never ends), at most 64 MiB.
      ctx.allsText = FileRoots.named(alls).readSync(alls, MAX_SCRIPT_BYTES).toString('utf8');
      ctx.allsPath = alls;
    } catch (err) {
      if (err instanceof FileAccessError && err.code !== 'ENOENT') return fail(io, `cannot read the model script: ${err.message}`);
      return fail(io, `${alls}: cannot read the model script (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  if (onnx !== undefined) {
    try {
      ctx.onnx = onnxNodeIndex(analyzeOnnx(readOnnxFile(onnx)), onnx);
      ctx.onnxPath = onnx;
    } catch (err) {
      const reason = err instanceof OnnxReadError ? err.message : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
      return fail(io, `${onnx}: not readable ONNX (${reason})`);
    }
  }
  const reader = new DfcLogReader(ctx);
  try {
    if (log === '-') await pump(io.stdin ?? process.stdin, reader);
    else await FileRoots.named(log).streamText(log, (text) => reader.push(text)); // regular files only: a FIFO named *.log is refused, never waited on
  } catch (err) {
    if (err instanceof FileAccessError && err.code === 'not-regular') {
      return fail(io, `${log}: cannot read the log (${/a folder/.test(err.message) ? 'is a folder, not a log file' : err.message.replace(/^'.*?' /, '')})`);
    }
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a log file'
          : code === 'EACCES'
            ? 'permission denied'
            : (code ?? (err as Error).message);
    return fail(io, `${log}: cannot read the log (${why})`);
  }
  const report = reader.end(exit);
  io.out(json ? jsonForTerminal(report) + '\n' : reportText(report, ctx.logPath!));
  return report.outcome === 'success' ? EXIT_OK : EXIT_FINDINGS;
}

/** Streams bytes into the reader; UTF-8 sequences split across reads are decoded whole. */
async function pump(stream: NodeJS.ReadableStream, reader: DfcLogReader): Promise<void> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    reader.push(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  }
  const rest = decoder.end();
  if (rest) reader.push(rest);
}

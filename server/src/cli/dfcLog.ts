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

const USAGE = `usage: hailo-tools dfc-log [--json] [--alls SCRIPT] [--onnx MODEL] [--exit-code N] LOG|-

Explains a Dataflow Compiler console log (hailo parser|optimize|compiler, hailomz, Python API;
DFC 3.x and 5.x): stages and their times, versions, the compile summary, and every error on the
.alls line, ONNX node or setting that caused it. '-' reads the log from stdin.
${helpTable([
  ['--json', 'print one JSON document'],
  ['--alls SCRIPT', 'the model script the run used (errors land on its lines)'],
  ['--onnx MODEL', 'the ONNX model the run parsed (errors land on its nodes; tensor vs node names)'],
  [
    '--exit-code N',
    `how the run ended, when you know it (a shell's $?, docker's exit status): a log
that just stops is then read as killed (137: the OOM killer or docker's memory
limit, in the stage it stopped in) or failed (any other non-zero status)`,
  ],
])}
Exit: 0 the log shows a successful run, 1 a failed, killed or incomplete run, 2 unreadable input.
`;

const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;

function fail(io: CliIO, msg: string): number {
  io.err(`hailo-tools dfc-log: ${escapeTerminal(msg)}\n`);
  return EXIT_USAGE;
}

export async function runDfcLog(args: string[], io: CliIO): Promise<number> {
  let json = false;
  let alls: string | undefined;
  let onnx: string | undefined;
  let exit: DfcExit | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (a === '--alls' || a === '--onnx' || a.startsWith('--alls=') || a.startsWith('--onnx=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (!v) return fail(io, `${a.replace(/=.*/, '')} needs a file`);
      if (a.startsWith('--alls')) alls = v;
      else onnx = v;
    } else if (a === '--exit-code' || a.startsWith('--exit-code=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (v === undefined || !/^\d{1,3}$/.test(v) || Number(v) > 255) return fail(io, `--exit-code needs a process exit status 0…255, got '${v ?? ''}'`);
      exit = { code: Number(v) };
    } else if (a.startsWith('-') && a !== '-') {
      io.err(`hailo-tools dfc-log: unknown option '${escapeTerminal(a)}'\n\n${USAGE}`);
      return EXIT_USAGE;
    } else files.push(a);
  }
  if (files.length !== 1) {
    io.err(`hailo-tools dfc-log: expected one LOG (or - for stdin), got ${files.length}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
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

// `hailo-tools onnx [--json] [--shapes] FILE` — index an ONNX model without loading its weights,
// infer shapes, and list the DFC pre-flight findings. Exit 0, or 2 when the file is not readable ONNX.
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { readOnnxFile, OnnxReadError } from '../core/onnx/reader';
import { analyzeOnnx } from '../core/onnx/analysis';
import { summarize, summaryText } from '../core/onnx/summary';

const USAGE = `usage: hailo-tools onnx [--json] [--shapes] FILE

Index an ONNX model (weights are never loaded), infer every tensor's shape, and report operator and
tensor-rank histograms and DFC pre-flight findings with their evidence.

${helpTable([
  ['--json', 'print one JSON document'],
  ['--shapes', 'include the shape of every graph input and node output'],
])}
`;

export async function runOnnx(args: string[], io: CliIO): Promise<number> {
  let json = false;
  let shapes = false;
  const files: string[] = [];
  for (const a of args) {
    if (a === '--json') json = true;
    else if (a === '--shapes') shapes = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (a.startsWith('-') && a !== '-') {
      io.err(`hailo-tools onnx: unknown option '${a}'\n\n${USAGE}`);
      return EXIT_USAGE;
    } else files.push(a);
  }
  if (files.length !== 1) {
    io.err(`hailo-tools onnx: expected one FILE, got ${files.length}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const file = files[0];
  let analysis;
  try {
    analysis = analyzeOnnx(readOnnxFile(file));
  } catch (err) {
    const reason = err instanceof OnnxReadError ? err.message : `unexpected error: ${(err as Error)?.message ?? err}`;
    io.err(`hailo-tools onnx: ${file}: not readable ONNX: ${reason}\n`);
    return EXIT_USAGE;
  }
  io.out(json ? JSON.stringify(summarize(analysis, shapes)) + '\n' : summaryText(analysis, file, shapes));
  return EXIT_OK;
}

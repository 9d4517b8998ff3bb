// `hailo-tools onnx [--json] [--shapes] FILE` — index an ONNX model without loading its weights,
// infer shapes, and list the DFC pre-flight findings. Exit 0, or 2 when the file is not readable ONNX.
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { readOnnxFile, OnnxReadError } from '../core/onnx/reader';
import { analyzeOnnx } from '../core/onnx/analysis';
import { summarize, summaryText } from '../core/onnx/summary';

const OPTIONS = {
  json: { type: 'boolean', help: 'print one JSON document' },
  shapes: { type: 'boolean', help: 'include the shape of every graph input and node output' },
} as const;

const USAGE = `usage: hailo-tools onnx [--json] [--shapes] FILE

Index an ONNX model (weights are never loaded), infer every tensor's shape, and report operator and
tensor-rank histograms and DFC pre-flight findings with their evidence.

${helpTable(optionRows(OPTIONS))}
`;

export async function runOnnx(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('onnx', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, shapes } = parsed.values;
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'onnx', USAGE, `expected one FILE, got ${files.length}`);
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

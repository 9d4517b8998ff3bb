// `hailo-tools har [--json] FILE.har` — the HN graph of a Hailo archive: layers in dataflow order
// with type, shapes, the ONNX nodes each came from, quantization params and the arrays the archive
// holds for each layer, and the per-layer SNR of a noise analysis when one was run (worst first).
// Exit 0 read, 2 usage or unreadable archive.
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { HarReadError } from '../core/har/harReader';
import { HnFormatError } from '../core/har/hn';
import { harViewText, readHarView } from '../core/har/harView';

const OPTIONS = { json: { type: 'boolean', help: "one JSON document (the HAR view's data)" } } as const;

const USAGE = `usage: hailo-tools har [--json] FILE.har

Show a Hailo archive (.har) as the DFC wrote it: network, state (parsed / optimized / quantized /
compiled), DFC version and architecture, every HN layer in dataflow order with its type, input and
output shapes (NHWC, batch -1), the ONNX nodes it came from (original_names), its quantization
params and the arrays the archive holds for it (weights described; bits, scales, zero points,
ranges and statistics with their values), and the per-layer SNR of a layer noise analysis
(hailo-tools noise, or statistics inside the archive), worst first, with the 16-bit line for the
layers that need it.

${helpTable(optionRows(OPTIONS))}

Exit 0 read, 2 usage or unreadable archive.
`;

export async function runHarCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('har', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json } = parsed.values;
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'har', USAGE, 'give one .har file');
  try {
    const doc = await readHarView(files[0]);
    io.out(json ? JSON.stringify(doc) + '\n' : harViewText(doc));
    return EXIT_OK;
  } catch (err) {
    if (err instanceof HarReadError || err instanceof HnFormatError) {
      io.err(`hailo-tools har: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

// `hailo-tools onnx` — placeholder until the onnx core lands; it refuses rather than pretends.
import { EXIT_USAGE, type CliIO } from './io';

export async function runOnnx(_args: string[], io: CliIO): Promise<number> {
  io.err('hailo-tools onnx: not available in this build yet\n');
  return EXIT_USAGE;
}

// `hailo-tools hef` — placeholder until the hef core lands; it refuses rather than pretends.
import { EXIT_USAGE, type CliIO } from './io';

export async function runHef(_args: string[], io: CliIO): Promise<number> {
  io.err('hailo-tools hef: not available in this build yet\n');
  return EXIT_USAGE;
}

// `hailo-tools check` — placeholder until the check core lands; it refuses rather than pretends.
import { EXIT_USAGE, type CliIO } from './io';

export async function runCheck(_args: string[], io: CliIO): Promise<number> {
  io.err('hailo-tools check: not available in this build yet\n');
  return EXIT_USAGE;
}

// The terminal a CLI command prints through, in memory: the CliIO of server/src/cli/io.ts with
// everything written to stdout and stderr kept as text, for tests that run a command in-process.
import type { CliIO } from '../../server/src/cli/io';

export interface CapturedIO extends CliIO {
  outText: string;
  errText: string;
}

/** A terminal that keeps what a command prints; `stdin` is what `-` reads. */
export function captureIO(stdin?: NodeJS.ReadableStream): CapturedIO {
  const io: CapturedIO = { outText: '', errText: '', out: (t: string) => void (io.outText += t), err: (t: string) => void (io.errText += t), stdin };
  return io;
}

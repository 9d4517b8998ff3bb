// Output sinks for CLI commands, injectable so tests can capture what a command prints.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Input for `-` (stdin); tests inject a stream. */
  stdin?: NodeJS.ReadableStream;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

/** Exit codes shared by every sub-command. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
/** `check --strict`: nothing worse, but a file was skipped (not read). */
export const EXIT_SKIPPED = 3;

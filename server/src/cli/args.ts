// One argument parser for every sub-command: a declarative option table run through node's
// util.parseArgs (https://nodejs.org/api/util.html#utilparseargsconfig) in strict mode, its errors
// turned into the CLI's usage error — `hailo-tools CMD: <one sentence>`, a blank line, the command's
// usage, exit 2 — and its help rows drawn from the same table, so an option cannot be accepted
// without being listed (or the reverse).
import { parseArgs } from 'node:util';
import { pushAll } from '../core/common/arrays';
import { terminalText } from '../core/common/escape';
import type { HelpRow } from './help';
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Repeatable: every value is kept, in order (else the last one wins). */
  multiple?: boolean;
  default?: string;
  /** The value's name in the help row: `--hw-arch ARCH`. */
  arg?: string;
  /** The help row's description; an option without one is accepted but not listed. */
  help?: string;
  /** The help row's name when it is not `--name ARG` (`--greedy, --sample`). */
  row?: string;
  /** The sentence for a missing (or empty) value (default: "--NAME needs a value"). */
  missing?: string;
  /** An empty value ('') is a value; otherwise it is refused as missing. */
  empty?: boolean;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S extends { multiple: true }
    ? string[]
    : S extends { default: string }
      ? string
      : string | undefined;

export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

export interface ParsedArgs<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
}

/** `-h` / `--help`, which every command takes (a table may give it a help row). */
const HELP: OptionSpec = { type: 'boolean', short: 'h' };

/** The help rows of a table, in its order: the options that have a description. */
export function optionRows(table: OptionTable): HelpRow[] {
  return Object.entries(table)
    .filter(([, s]) => s.help !== undefined)
    .map(([name, s]) => [s.row ?? `${s.short ? `-${s.short}, ` : ''}--${name}${s.arg ? ` ${s.arg}` : ''}`, s.help!]);
}

/** The usage error every command prints: one sentence naming the command, then its usage. */
export function usageError(io: CliIO, command: string, usage: string, sentence: string): number {
  io.err(`hailo-tools ${command}: ${terminalText(sentence)}\n\n${usage}`);
  return EXIT_USAGE;
}

/**
 * Parse `args` by `table`. Returns the values, or the exit code when it printed the help (0) or a
 * usage error (2). `-h`/`--help` anywhere before `--` prints the help whatever else is given.
 * A value may start with '-' (a docker argument, a negative number) unless it is one of this
 * command's own options: `--hw-arch --json` is a missing value, not an architecture named "--json".
 */
export function parseCommand<T extends OptionTable>(
  command: string,
  usage: string,
  table: T,
  args: readonly string[],
  io: CliIO,
  { positionals = true }: { positionals?: boolean } = {},
): ParsedArgs<T> | number {
  const options: Record<string, OptionSpec> = { help: HELP, ...table };
  const config = {
    options: Object.fromEntries(
      Object.entries(options).map(([name, s]) => [
        name,
        {
          type: s.type,
          ...(s.short ? { short: s.short } : {}),
          ...(s.multiple ? { multiple: true } : {}),
          ...(s.default !== undefined ? { default: s.default } : {}),
        },
      ]),
    ),
    allowPositionals: positionals,
  };
  const argv = attachDashValues(args, options);
  // Non-strict first: only to see --help and, on an error, which argument it was about.
  const { tokens } = parseArgs({ ...config, args: argv, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) {
    io.out(usage);
    return EXIT_OK;
  }
  let parsed;
  try {
    parsed = parseArgs({ ...config, args: argv, strict: true });
  } catch (err) {
    if (!(err instanceof Error) || !String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw err;
    return usageError(io, command, usage, problemOf(tokens, options, positionals) ?? err.message.split('\n')[0]);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  delete values.help;
  for (const [name, s] of Object.entries(table)) {
    if (s.type === 'boolean') values[name] ??= false;
    else if (s.multiple) values[name] ??= [];
    const v = values[name];
    if (!s.empty && (v === '' || (Array.isArray(v) && v.includes('')))) return usageError(io, command, usage, s.missing ?? `--${name} needs a value`);
  }
  return { values: values as OptionValues<T>, positionals: parsed.positionals };
}

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer U)[] | undefined ? U : never;

/** The first argument strict parsing refuses, as one sentence (parseArgs' own message is node's wording). */
function problemOf(tokens: readonly Token[], options: Record<string, OptionSpec>, positionals: boolean): string | undefined {
  for (const t of tokens) {
    if (t.kind === 'positional' && !positionals) return `unexpected argument '${t.value}'`;
    if (t.kind !== 'option') continue;
    const spec = Object.hasOwn(options, t.name) ? options[t.name] : undefined;
    if (!spec) return `unknown option '${t.rawName}'`;
    if (spec.type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    if (spec.type === 'string' && (t.value === undefined || (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-'))))
      return spec.missing ?? `${t.rawName} needs a value`;
  }
  return undefined;
}

/**
 * `--opt -VALUE` becomes `--opt=-VALUE` when -VALUE is not one of the command's options, because
 * parseArgs refuses a separate value that starts with '-' as ambiguous.
 */
function attachDashValues(args: readonly string[], options: Record<string, OptionSpec>): string[] {
  const shorts = new Set(Object.values(options).flatMap((s) => (s.short ? [s.short] : [])));
  const isOption = (a: string) =>
    a === '--' || (a.startsWith('--') ? Object.hasOwn(options, a.slice(2).split('=')[0]) : /^-[^-]/.test(a) && [...a.slice(1)].every((c) => shorts.has(c)));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      pushAll(out, args.slice(i));
      break;
    }
    const next = args[i + 1];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (
      name &&
      Object.hasOwn(options, name) &&
      options[name].type === 'string' &&
      next !== undefined &&
      next.length > 1 &&
      next.startsWith('-') &&
      !isOption(next)
    ) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

// `hailo-tools hef [--json] [--mtmd] [--streams] [--hailort-version X.Y.Z] [--text-model-width N] FILE` —
// reads a compiled HEF without HailoRT or a device. Exit 0: the HailoRT its architecture targets
// (4.21–4.23 for Hailo-8, 5.1–5.2 for Hailo-10/15), or the release --hailort-version names (any
// release: one past the rules read here is judged by the nearest, and says so), loads it
// and nothing else is wrong (and, with --mtmd, the contract passes); 1: the mtmd contract fails;
// 2: that HailoRT refuses or crashes on it, or it is damaged in a way that matters (the JSON still
// carries what could be read), or a usage error.
import { FileRoots } from '../core/common/confined';
import { dirname, join } from 'node:path';
import { checkMtmdSource, describeHef, fileSource, hefJson, loadsInTarget, readHef, releaseRefusal, HAILO_CONFIG, type MtmdResult } from '../core/hef';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';

const OPTIONS = {
  json: { type: 'boolean', help: 'print one JSON document instead of text' },
  streams: { type: 'boolean', help: 'text: also list the boundary streams (as hailortcli --parse-streams)' },
  'hailort-version': {
    type: 'string',
    arg: 'X.Y.Z',
    missing: '--hailort-version: it needs a release X.Y.Z, e.g. 4.23.0 or 5.3.2.',
    help: "judge by this HailoRT release (any; a newer one by the nearest known, said so) instead of the file's target line",
  },
  mtmd: { type: 'boolean', help: "also check the contract of llama.cpp's mtmd Hailo vision loader" },
  'text-model-width': {
    type: 'string',
    arg: 'N',
    missing: '--text-model-width needs a positive integer',
    help: "with --mtmd: the text model's n_embd_inp, checked against 4 x features",
  },
} as const;

const USAGE = `usage: hailo-tools hef [--json] [--mtmd] [--streams] [--hailort-version X.Y.Z] [--text-model-width N] FILE

Reads a compiled .hef (container, checksums, networks, vstreams, quantisation, resources).
${helpTable(optionRows(OPTIONS))}
Exit: 0 the HailoRT the HEF targets (or --hailort-version's) loads it (and the contract passes),
      1 contract fails, 2 that HailoRT refuses or crashes on it, or it is damaged.
`;

export async function runHef(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('hef', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, mtmd, streams, 'hailort-version': hailortVersion } = parsed.values;
  const width = parsed.values['text-model-width'];
  if (width !== undefined && !/^\d+$/.test(width)) {
    io.err(`hailo-tools hef: --text-model-width needs a positive integer\n`);
    return EXIT_USAGE;
  }
  const textModelWidth = width === undefined ? undefined : Number(width);
  const refusal = hailortVersion === undefined ? undefined : releaseRefusal(hailortVersion);
  if (refusal) {
    io.err(`hailo-tools hef: --hailort-version: ${refusal}\n`);
    return EXIT_USAGE;
  }
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'hef', USAGE, `expected exactly one FILE, got ${files.length}`);
  const file = files[0];
  let src;
  try {
    src = await fileSource(file);
  } catch (err) {
    const message = (err as Error).message; // "cannot open 'x': no such file", "'x' is a folder, not a regular file; not read"
    if (json) io.out(JSON.stringify({ container: null, error: message }, null, 2) + '\n');
    else io.err(`hailo-tools hef: ${message}\n`);
    return EXIT_USAGE;
  }
  try {
    const report = await readHef(src, { hailortVersion });
    let contract: MtmdResult | undefined;
    if (mtmd) {
      const beside = join(dirname(file), HAILO_CONFIG);
      contract = await checkMtmdSource(src, report, {
        textModelWidth,
        hefPath: file,
        configBesideHef: FileRoots.named(file).exists(beside) ? beside : undefined,
      });
    }
    io.out(json ? JSON.stringify(hefJson(report, contract), null, 2) + '\n' : describeHef(report, contract, { streams }));
    if (!loadsInTarget(report)) return EXIT_USAGE;
    if (contract && !contract.pass) return EXIT_FINDINGS;
    return EXIT_OK;
  } finally {
    await src.close();
  }
}

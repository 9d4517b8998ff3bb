// `hailo-tools bisect [--json] [--hw-arch ARCH] [--start-node-names A,B] [--docker PATH] [--context NAME]
// [--image IMAGE] [--memory LIMIT] [--gpus auto|all|none] MODEL.onnx` — where the DFC's parser first
// refuses the model: its own translate_onnx_model on growing prefixes of the graph in one container,
// the node whose inclusion makes it refuse, with the DFC's message and what is known about the node.
// Exit 0 the whole model parses, 1 the parser refuses (the node is printed), 2 usage or an unreadable
// model, 3 docker or the DFC failed before the search finished, 130 interrupted.
import { resolve } from 'node:path';
import { hookSignals } from './interrupt';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { bisectParser, type BisectOutcome } from '../processes/bisect/bisectRun';
import { bisectText } from '../processes/bisect/text';
import { commandLineTrust } from '../core/common/trust';
import { terminalText } from '../core/common/escape';
import { optionRows, parseCommand, usageError } from './args';
import { DOCKER_OPTIONS, dockerSettings, driverJobEnv } from './dfcJob';

export const EXIT_NOT_FINISHED = 3;

const OPTIONS = {
  json: { type: 'boolean', help: 'one JSON document: firstRefusal {node, opType, message, ...} (null when the model parses), runs' },
  'hw-arch': { type: 'string', arg: 'ARCH', help: 'ClientRunner(hw_arch=...) (default hailo10h)' },
  'start-node-names': { type: 'string', multiple: true, arg: 'A,B', help: 'start_node_names for every parse (node names; repeat or comma-separate)' },
  docker: DOCKER_OPTIONS.docker,
  context: { ...DOCKER_OPTIONS.context, help: 'as for hailo-tools compile (a local docker: the model is bind-mounted)' },
  image: DOCKER_OPTIONS.image,
  memory: DOCKER_OPTIONS.memory,
  gpus: { ...DOCKER_OPTIONS.gpus, help: 'as for hailo-tools compile (default none: the parser needs no GPU)' },
} as const;

const USAGE = `usage: hailo-tools bisect [--json] [--hw-arch ARCH] [--start-node-names A,B] [--docker PATH]
                          [--context NAME] [--image IMAGE] [--memory LIMIT] [--gpus auto|all|none] MODEL.onnx

Find where the Dataflow Compiler's parser first refuses an ONNX model. The whole model is parsed
first (ClientRunner.translate_onnx_model, in the DFC docker container); if it is refused, prefixes
of the graph in topological order are parsed, each cut with the parser's own end_node_names at the
prefix's frontier, halving the gap between the longest prefix that parses and the shortest that
is refused (at most 2*ceil(log2 N)+4 parses for N nodes, one container for all). It prints the
node whose inclusion first makes the parser refuse, its op and input shapes, the DFC's message,
what is known about it (rewrites with public evidence), and every parse with its cut and time.
Finished parses are kept in MODEL.onnx.bisect.json beside the model: a second run resumes.

${helpTable(optionRows(OPTIONS))}

Exit 0 the whole model parses, 1 the parser refuses (the node is printed), 2 usage or an unreadable
model, 3 docker or the DFC failed before the search finished, 130 interrupted.
`;

/** The --json document (fields named in docs/bisect.md). */
export function bisectJson(o: BisectOutcome): unknown {
  return {
    status: o.status,
    ...(o.message ? { message: o.message } : {}),
    model: o.model,
    sha256: o.sha256 ?? null,
    nodes: o.nodes,
    budget: o.budget,
    image: o.image ?? null,
    hwArch: o.hwArch,
    dfcVersion: o.dfcVersion,
    firstRefusal: o.firstRefusal,
    runs: o.runs,
    cache: o.cache ?? null,
    container: o.container ?? null,
    notes: o.notes,
  };
}

export async function runBisect(args: string[], io: CliIO, deps: { driverDir?: string; onInterrupt?: (stop: () => void) => () => void } = {}): Promise<number> {
  const parsed = parseCommand('bisect', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const o = parsed.values;
  const json = o.json;
  const starts = o['start-node-names'].flatMap((v) => v.split(',').filter(Boolean));
  if (parsed.positionals.length !== 1) return usageError(io, 'bisect', USAGE, 'give one .onnx model');
  const settings = dockerSettings(o, 'none');
  if ('error' in settings) return usageError(io, 'bisect', USAGE, settings.error);
  const model = resolve(parsed.positionals[0]);

  const controller = new AbortController();
  const unhook = (deps.onInterrupt ?? hookSignals)(() => controller.abort());
  try {
    const out = await bisectParser({ model, hwArch: o['hw-arch'], startNodeNames: starts }, settings, {
      ...driverJobEnv(commandLineTrust('bisect'), deps.driverDir, controller.signal),
      onOutput: (text) => io.err(terminalText(text)),
      onProgress: (p) => {
        if (p.outcome)
          io.err(terminalText(`hailo-tools bisect: parse ${p.run}/${p.budget}: ${p.prefix} of ${p.nodes} nodes ${p.outcome}${p.cached ? ' (cached)' : ''}\n`));
      },
    });
    if (out.status === 'cancelled') {
      io.err('hailo-tools bisect: interrupted; the container was removed and the finished parses are kept for the next run\n');
      return 130;
    }
    if (json) io.out(JSON.stringify(bisectJson(out)) + '\n');
    if (out.status !== 'ok') {
      io.err(terminalText(`hailo-tools bisect: ${out.message}\n`));
      return out.status === 'refused-input' ? EXIT_USAGE : EXIT_NOT_FINISHED;
    }
    if (!json) io.out(terminalText(bisectText(out))); // node names and messages come from the model and the DFC
    return out.firstRefusal ? EXIT_FINDINGS : EXIT_OK;
  } finally {
    unhook();
  }
}

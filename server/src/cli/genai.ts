// `hailo-tools genai [DIR] [--ollama URL] [--json]`: the GenAI HEFs of a folder as HailoRT would take
// them (an LLM or VLM for chat, a speech model for transcribe — our reader, before anything is
// loaded) next to what the installed hailo-ollama can pull and has pulled (its list endpoints, on
// loopback). Exit: 0 listed, 2 usage or an unreadable folder.
import { resolve } from 'node:path';
import { FileRoots } from '../core/common/confined';
import { classifyGenAiFile, classifySpeechFile } from '../core/genai';
import { DEFAULT_OLLAMA_URL, hailoOllamaModels } from '../processes/genai/ollama';
import { helpTable } from './help';
import { optionRows, parseCommand } from './args';
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';

const OPTIONS = {
  ollama: {
    type: 'string',
    default: DEFAULT_OLLAMA_URL,
    arg: 'URL',
    missing: '--ollama needs a URL',
    help: `where hailo-ollama listens (default ${DEFAULT_OLLAMA_URL}; loopback only)`,
  },
  json: { type: 'boolean', help: 'print one JSON document' },
} as const;

const USAGE = `usage: hailo-tools genai [--ollama URL] [--json] [DIR]

Lists the GenAI HEFs under DIR (default: the current folder) — an LLM or a VLM for \`chat\`, a
speech-to-text model for \`transcribe\`, by their network groups and hailo-config.json — and the
models the installed hailo-ollama can pull (GET /hailo/v1/list) and has pulled (GET /api/tags).
${helpTable(optionRows(OPTIONS))}
Exit: 0 listed, 2 usage or an unreadable folder.
`;

const MAX_HEFS = 500;

export interface GenAiHefRow {
  path: string;
  /** llm, vlm, speech, or null (not a GenAI HEF). */
  kind: 'llm' | 'vlm' | 'speech' | null;
  confidence: string;
  summary: string;
}

export async function runGenAi(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('genai', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, ollama: url } = parsed.values;
  const positional = parsed.positionals;
  if (positional.length > 1) {
    io.err(`hailo-tools genai: expected at most one folder, got ${positional.length}\n`);
    return EXIT_USAGE;
  }
  const dir = resolve(positional[0] ?? '.');
  let files: string[];
  try {
    files = FileRoots.of([dir]).walk(dir, {
      wantFile: (n) => n.toLowerCase().endsWith('.hef'),
      skipDir: (n) => n === 'node_modules' || n.startsWith('.'),
      maxFiles: MAX_HEFS,
    }).files;
  } catch (err) {
    io.err(`hailo-tools genai: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  const [hefs, ollama] = await Promise.all([Promise.all(files.sort().map(classify)), hailoOllamaModels(url)]);
  if (json) {
    io.out(JSON.stringify({ folder: dir, hefs, ollama }, null, 2) + '\n');
    return EXIT_OK;
  }
  const genai = hefs.filter((h) => h.kind);
  io.out(`GenAI HEFs under ${dir}: ${genai.length ? '' : 'none'}\n`);
  for (const h of genai) io.out(`  ${h.kind!.padEnd(6)} ${h.confidence.padEnd(8)} ${h.path}\n           ${h.summary}\n`);
  const others = hefs.length - genai.length;
  if (others) io.out(`  (${others} other HEF${others === 1 ? '' : 's'}: not LLM, VLM or speech models)\n`);
  if (ollama.reachable && !ollama.problem) {
    io.out(
      `hailo-ollama at ${ollama.url} can pull ${ollama.pullable.length} model${ollama.pullable.length === 1 ? '' : 's'}: ${ollama.pullable.join(', ') || 'none'}\n`,
    );
    io.out(`  pulled: ${ollama.installed.join(', ') || 'none'}\n`);
  } else io.out(`hailo-ollama: ${ollama.problem}\n`);
  return EXIT_OK;
}

async function classify(path: string): Promise<GenAiHefRow> {
  try {
    const { genai } = await classifyGenAiFile(path);
    if (genai.kind) return { path, kind: genai.kind, confidence: genai.confidence, summary: genai.summary };
    const { speech } = await classifySpeechFile(path);
    if (speech.speech) return { path, kind: 'speech', confidence: speech.confidence, summary: speech.summary };
    return { path, kind: null, confidence: 'unlikely', summary: genai.summary };
  } catch (err) {
    return { path, kind: null, confidence: 'unlikely', summary: `not readable: ${(err as Error).message}` };
  }
}

// The conversation as a Markdown transcript. Prompts and answers are quoted verbatim in fenced
// blocks (a fence longer than any backtick run inside), so nothing a model — or a prompt — wrote
// renders as HTML or Markdown where the file is previewed. Pure.
import type { ChatEndReason, ChatStats, GeneratorParams } from '../device/protocol';
import { maxOf } from '../common/arrays';

export interface TranscriptTurn {
  role: 'system' | 'user' | 'assistant';
  text: string;
  /** Image names (user turns of a VLM). */
  images?: string[];
  stats?: ChatStats & { hostFirstTokenMs?: number | null };
  reason?: ChatEndReason;
  error?: string;
}

export interface Transcript {
  hef: string;
  kind: 'llm' | 'vlm';
  lora?: string;
  params: GeneratorParams;
  turns: TranscriptTurn[];
  /** ISO time of the export. */
  at: string;
}

function fence(text: string): string {
  const longest = Math.max(2, maxOf([...text.matchAll(/`+/g)].map((m) => m[0].length)));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
}

/** Text for a Markdown line: characters Markdown or HTML would interpret are escaped. */
export function mdInline(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`)).replace(/\r?\n/g, ' ');
}

function stats(t: TranscriptTurn): string {
  const parts: string[] = [];
  if (t.stats) {
    parts.push(`${t.stats.tokens} tokens`);
    const first = t.stats.hostFirstTokenMs ?? t.stats.firstTokenMs;
    if (first !== null && first !== undefined) parts.push(`first token ${first.toFixed(0)} ms`);
    if (t.stats.tokensPerSecond !== null) parts.push(`${t.stats.tokensPerSecond.toFixed(1)} tokens/s`);
  }
  if (t.reason && t.reason !== 'end')
    parts.push(t.reason === 'max-tokens' ? 'stopped at max tokens' : t.reason === 'aborted' ? 'stopped by the user' : 'failed');
  if (t.error) parts.push(mdInline(t.error));
  return parts.length ? `\n\n*${parts.join(' · ')}*` : '';
}

export function transcriptMarkdown(t: Transcript): string {
  const name = t.hef.split(/[\\/]/).pop() ?? t.hef;
  const params = Object.entries(t.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const lines = [
    `# Chat with ${mdInline(name)}`,
    '',
    `- Model: ${mdInline(t.hef)} (${t.kind.toUpperCase()}${t.lora ? `, LoRA ${mdInline(t.lora)}` : ''})`,
    `- Parameters: ${params ? mdInline(params) : "the model's defaults"}`,
    `- Exported: ${t.at}`,
    '',
  ];
  for (const turn of t.turns) {
    const who = turn.role === 'user' ? 'You' : turn.role === 'system' ? 'System prompt' : 'Model';
    lines.push(`## ${who}`, '');
    if (turn.images?.length) lines.push(`Images: ${turn.images.map(mdInline).join(', ')}`, '');
    lines.push(fence(turn.text) + (turn.role === 'assistant' ? stats(turn) : ''), '');
  }
  return lines.join('\n');
}

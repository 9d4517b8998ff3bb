// A saved conversation: HailoRT's context blob (LLM/VLM::save_context, opaque, bound to the model:
// load_context refuses another model's with status 2) behind a one-line header and a JSON line with
// what the chat shows (model, turns). A bare blob (saved by another program) loads too, without turns.
// Pure: encode/decode bytes; the caller writes the file in one go.
import type { TranscriptTurn } from './transcript';
import { parseFileJson } from '../common/json';

export const CONTEXT_MAGIC = 'HAILO-TOOLS-CHAT-CONTEXT 1\n';
const MAX_HEADER = 64 << 20;

export interface ContextHeader {
  /** The HEF's file name when saved (a reminder; HailoRT checks the model itself). */
  hef: string;
  kind: 'llm' | 'vlm';
  lora?: string;
  savedAt: string;
  /** Tokens in the context when saved. */
  usage?: number;
  turns: TranscriptTurn[];
}

export function encodeContextFile(header: ContextHeader, blob: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(CONTEXT_MAGIC + JSON.stringify(header) + '\n');
  const out = new Uint8Array(head.length + blob.length);
  out.set(head, 0);
  out.set(blob, head.length);
  return out;
}

export function decodeContextFile(bytes: Uint8Array): { header?: ContextHeader; blob: Uint8Array } | { error: string } {
  const magic = new TextEncoder().encode(CONTEXT_MAGIC);
  const hasMagic = bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
  if (!hasMagic) {
    if (bytes.length === 0) return { error: 'the file is empty' };
    return { blob: bytes };
  }
  const end = bytes.indexOf(0x0a, magic.length);
  if (end < 0 || end - magic.length > MAX_HEADER) return { error: 'the file has a chat-context header but no end to it (truncated?)' };
  let header: ContextHeader;
  try {
    header = parseFileJson(new TextDecoder('utf-8').decode(bytes.subarray(magic.length, end)), 'the chat-context header') as ContextHeader;
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (!header || typeof header !== 'object' || !Array.isArray(header.turns) || (header.kind !== 'llm' && header.kind !== 'vlm')) {
    return { error: 'the chat-context header lacks its model kind or turns' };
  }
  header.turns = header.turns.filter((t) => t && typeof t.text === 'string' && (t.role === 'user' || t.role === 'assistant' || t.role === 'system'));
  const blob = bytes.subarray(end + 1);
  if (blob.length === 0) return { error: 'the file holds no HailoRT context after its header (truncated?)' };
  return { header, blob };
}

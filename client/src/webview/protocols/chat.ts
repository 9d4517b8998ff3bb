// The chat page's messages (host: client/src/genai/chatPanel.ts; page: pages/chat.ts). The host
// owns the conversation: it re-sends the whole transcript when the page (re)loads, validates the
// generation parameters with HailoRT's ranges (chatForm.ts), and checks a link again before it
// opens it (links.ts).
import type { Schema } from '../protocol';

export interface TurnView {
  role: 'system' | 'user' | 'assistant';
  text: string;
  images?: string[];
  /** The figures line under an answer. */
  info?: string;
  failed?: boolean;
}

export type ChatToPage =
  | { type: 'restore'; turns: TurnView[]; busy: boolean }
  | { type: 'turn'; turn: TurnView }
  | { type: 'start' }
  | { type: 'chunk'; text: string }
  | { type: 'end'; info: string; failed: boolean }
  | { type: 'context'; usage: number; capacity: number }
  | { type: 'status'; text: string; error?: boolean }
  | { type: 'paramErrors'; errors: Record<string, string> }
  | { type: 'images'; items: string[] }
  | { type: 'copied'; id: number }
  /** A transcript (Hailo: Transcribe Audio) for the prompt box, not sent; `note` for the status line. */
  | { type: 'insert'; text: string; note: string }
  | { type: 'health'; line: string; warnings: string[] };

export type ChatFromPage =
  | { type: 'ready' }
  /** `params`: the form's raw fields, checked by the host (chatForm.ts readParams). */
  | { type: 'ask'; text: string; params: unknown; system: string }
  | { type: 'params'; params: unknown }
  | { type: 'stop' }
  | { type: 'clear' }
  | { type: 'save' }
  | { type: 'load' }
  | { type: 'export' }
  | { type: 'attach' }
  /** A dropped image: its name and bytes in base64. */
  | { type: 'dropImage'; name: string; base64: string }
  | { type: 'openLink'; url: string }
  | { type: 'copy'; text: string; id: number }
  | { type: 'removeImage'; index: number };

export const CHAT_FROM_PAGE: Schema<ChatFromPage> = {
  ready: {},
  ask: { text: 'string', params: 'unknown', system: 'string' },
  params: { params: 'unknown' },
  stop: {},
  clear: {},
  save: {},
  load: {},
  export: {},
  attach: {},
  dropImage: { name: 'string', base64: 'string' },
  openLink: { url: 'string' },
  copy: { text: 'string', id: 'index' },
  removeImage: { index: 'index' },
};

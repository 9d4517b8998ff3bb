// The JSON messages HailoRT's LLM/VLM generate() takes (docs/research/hailort5-api.md#genai): {"role", "content"}
// with content a string, or for a VLM an array of {"type": "image"} and {"type": "text", "text"}
// entries — one frame per image entry. HailoRT keeps the conversation in the device's context, so
// each turn sends only its new messages (the system prompt only on a fresh context).
export type Role = 'system' | 'user' | 'assistant';

export function textMessage(role: Role, text: string): string {
  return JSON.stringify({ role, content: text });
}

/** A user turn; with images, the image entries come first, then the text (as HailoRT's VLM example). */
export function userMessage(text: string, images = 0): string {
  if (images <= 0) return textMessage('user', text);
  const content: object[] = [];
  for (let i = 0; i < images; i++) content.push({ type: 'image' });
  if (text) content.push({ type: 'text', text });
  return JSON.stringify({ role: 'user', content });
}

/** Image entries in one message (what the frame count must equal). */
export function countImageEntries(message: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return 0;
  }
  const content = (parsed as { content?: unknown })?.content;
  if (!Array.isArray(content)) return 0;
  return content.filter((c) => c && typeof c === 'object' && (c as { type?: unknown }).type === 'image').length;
}

/** The messages of one turn: the system prompt first when the context is fresh. */
export function turnMessages(text: string, images: number, system?: string): string[] {
  const out: string[] = [];
  if (system && system.trim()) out.push(textMessage('system', system));
  out.push(userMessage(text, images));
  return out;
}

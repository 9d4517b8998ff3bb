// Which addresses from a model's answer may be opened: absolute http(s) only. The chat page keeps
// links to nothing else (chatMarkdown.ts) and the host checks again before openExternal, since a
// message from the page is input like any other.

/** An absolute http(s) URL, normalised; anything else (javascript:, file:, command:, relative …) → undefined. */
export function externalLink(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 8192) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
}

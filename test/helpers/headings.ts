// Markdown headings as GitHub anchors them, for the tests that check links and citations.
import { readFileSync } from 'node:fs';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file's headings give (outside code fences; repeats get `-1`, `-2`…). */
export function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (l.startsWith('```')) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(l);
    if (!h) continue;
    const base = slugOf(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

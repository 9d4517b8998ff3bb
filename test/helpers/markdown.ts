// Markdown as an editor renders it, for tests that must prove a hover carries no live link, image
// or HTML from a file: markdown-it (CommonMark + GFM tables), with GFM's extended autolinks.
import assert from 'node:assert/strict';

// markdown-it ships with the packaging tool (@vscode/vsce); linkify turns bare URLs into links, as
// VS Code's hover renderer does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (o: object) => { render(s: string): string };
export const md = new MarkdownIt({ html: false, linkify: true });
// GFM's extended autolinks (http://, https://, www., e-mail), as VS Code's renderer; not every bare domain
(md as unknown as { linkify: { set(o: object): void } }).linkify.set({ fuzzyLink: false, fuzzyEmail: true });

export function assertInert(markdown: string, where: string): string {
  const html = md.render(markdown);
  assert.doesNotMatch(html, /<a\b/, `${where}: a link in ${html}`);
  assert.doesNotMatch(html, /<img\b/, `${where}: an image in ${html}`);
  assert.doesNotMatch(
    html,
    /<(?!\/?(p|code|pre|strong|em|table|thead|tbody|tr|th|td|ul|ol|li|hr|br|blockquote|h[1-6]|s|del)\b)[a-z]/i,
    `${where}: an unexpected tag in ${html}`,
  );
  return html;
}

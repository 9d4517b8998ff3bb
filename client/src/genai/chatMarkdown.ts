// A model's answer as Markdown, made safe to show: markdown-it parses it (CommonMark + GFM tables
// and strikethrough; raw HTML off, so `<script>` or `<img onerror>` stay text), and the tokens
// become a small tree of allowed elements and attributes that the chat page builds with
// createElement/textContent (client/webview/chat.ts) — never markup. Links survive only to http(s)
// and carry their address as data (the page asks the host to open it, after validating it again);
// images are never loaded: they become a link (or text) naming the picture. Pure: no DOM, no vscode.
import MarkdownIt from 'markdown-it';
import { externalLink } from './links';

export type MdTag =
  | 'p'
  | 'h1'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'h5'
  | 'h6'
  | 'ul'
  | 'ol'
  | 'li'
  | 'blockquote'
  | 'pre'
  | 'code'
  | 'em'
  | 'strong'
  | 's'
  | 'a'
  | 'span'
  | 'hr'
  | 'br'
  | 'table'
  | 'thead'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td';

export const MD_TAGS: ReadonlySet<string> = new Set<MdTag>([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  's',
  'a',
  'span',
  'hr',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/** The only attributes an element may carry (`data-href`: an http(s) address, validated). */
export interface MdAttrs {
  class?: string;
  'data-href'?: string;
  start?: string;
}

export interface MdElement {
  tag: MdTag;
  attrs?: MdAttrs;
  children: MdNode[];
}

export type MdNode = string | MdElement;

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
// Links and images to anything but http(s) are left as the text the model wrote.
md.validateLink = (url: string) => externalLink(url) !== undefined;
// Bare addresses become links only with their scheme (or www.): a file name such as setup.py or
// README.md is not a web site (.py and .md are country domains).
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

type Token = ReturnType<typeof md.parse>[number];

const codeClass = (info: string) => {
  const lang =
    info
      .trim()
      .split(/\s+/)[0]
      ?.replace(/[^\w+#.-]/g, '') ?? '';
  return lang ? `language-${lang.slice(0, 40)}` : undefined;
};

/** GFM table cells carry `style="text-align:…"`, which the page's CSP refuses: a class instead. */
const alignClass = (t: Token) => {
  const align = /text-align:(left|center|right)/.exec(t.attrGet('style') ?? '')?.[1];
  return align ? `align-${align}` : undefined;
};

function element(tag: MdTag, children: MdNode[] = [], attrs?: MdAttrs): MdElement {
  const clean: MdAttrs = {};
  for (const [k, v] of Object.entries(attrs ?? {}) as [keyof MdAttrs, string | undefined][]) if (v !== undefined) clean[k] = v;
  return Object.keys(clean).length ? { tag, attrs: clean, children } : { tag, children };
}

/** Appends a string, merging it with a string just before it. */
function push(into: MdNode[], node: MdNode): void {
  const last = into[into.length - 1];
  if (typeof node === 'string' && typeof last === 'string') into[into.length - 1] = last + node;
  else if (node !== '') into.push(node);
}

function imageNode(t: Token): MdNode {
  const alt = t.children?.map((c) => c.content).join('') || t.content || 'image';
  const href = externalLink(t.attrGet('src'));
  // Never an <img>: the page loads nothing the model names. The picture is a link to open, if anything.
  return href ? element('a', [`image: ${alt}`], { class: 'md-image', 'data-href': href }) : `image: ${alt}`;
}

function build(tokens: readonly Token[], into: MdNode[]): void {
  const stack: MdNode[][] = [into];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    if (t.nesting === 1) {
      if (t.hidden) continue; // a tight list's paragraphs
      const tag = (MD_TAGS.has(t.tag) ? t.tag : 'span') as MdTag;
      const attrs: MdAttrs = {};
      if (t.type === 'link_open') attrs['data-href'] = externalLink(t.attrGet('href'));
      if (t.type === 'ordered_list_open') {
        const start = t.attrGet('start'); // set by markdown-it only when the list does not start at 1
        if (start !== null && /^\d{1,9}$/.test(start)) attrs.start = start;
      }
      if (t.type === 'th_open' || t.type === 'td_open') attrs.class = alignClass(t);
      const el = element(t.type === 'link_open' && !attrs['data-href'] ? 'span' : tag, [], attrs);
      top().push(el);
      stack.push(el.children);
      continue;
    }
    if (t.nesting === -1) {
      if (t.hidden) continue;
      if (stack.length > 1) stack.pop();
      continue;
    }
    switch (t.type) {
      case 'inline':
        build(t.children ?? [], top());
        break;
      case 'text':
      case 'text_special':
      case 'html_inline':
      case 'html_block':
        push(top(), t.content);
        break;
      case 'softbreak':
        push(top(), '\n');
        break;
      case 'hardbreak':
        top().push(element('br'));
        break;
      case 'code_inline':
        top().push(element('code', [t.content]));
        break;
      case 'fence':
      case 'code_block':
        top().push(element('pre', [element('code', [t.content], { class: t.type === 'fence' ? codeClass(t.info) : undefined })]));
        break;
      case 'hr':
        top().push(element('hr'));
        break;
      case 'image':
        top().push(imageNode(t));
        break;
      default:
        if (t.content) push(top(), t.content);
    }
  }
}

/** The answer as a tree of allowed elements; an unfinished answer (streaming) renders as far as it goes. */
export function markdownTree(source: string): MdNode[] {
  const out: MdNode[] = [];
  build(md.parse(source, {}), out);
  return out;
}

// The chat's Markdown renderer (client/src/genai/chatMarkdown.ts): a model's answer becomes a tree of
// allowed elements. Its structure is held to markdown-it's own HTML renderer on the same source (an
// independent tokens → HTML implementation; our tree carries links as data-href and table alignment
// as a class and titles a link with its address, which the comparison maps), and to hand-written CommonMark/GFM spec cases. Hostile
// answers: raw HTML is text, links survive only to http(s), no image is ever an element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { markdownTree, MD_TAGS, type MdNode } from '../../../client/src/genai/chatMarkdown';
import { externalLink } from '../../../client/src/genai/links';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const VOID = new Set(['hr', 'br']);

/** The tree as HTML, in markdown-it's escaping, for comparison. */
function html(nodes: readonly MdNode[]): string {
  return nodes
    .map((n) => {
      if (typeof n === 'string') return escape(n);
      const attrs = Object.entries(n.attrs ?? {})
        .map(([k, v]) => ` ${k}="${escape(String(v))}"`)
        .join('');
      return VOID.has(n.tag) ? `<${n.tag}${attrs}>` : `<${n.tag}${attrs}>${html(n.children)}</${n.tag}>`;
    })
    .join('');
}

/** markdown-it's rendering, with the two representations the tree chooses differently mapped. */
const oracle = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
oracle.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
function reference(source: string): string {
  return (
    oracle
      .render(source)
      .replace(/>\n+</g, '><')
      // (the renderer's line break before a nested block is layout, not content)
      .replace(/\n+(?=<(ul|ol|p|blockquote|table|pre|h\d|hr)\b)/g, '')
      .replace(/\n+$/, '')
      .replace(/<(hr|br) ?\/?>/g, '<$1>')
      .replace(/<br>\n/g, '<br>')
      .replace(/<a href="/g, '<a data-href="')
      .replace(/(<a data-href="[^"]*") title="[^"]*"/g, '$1') // the page titles a link with its address
      .replace(/ style="text-align:(left|center|right)"/g, ' class="align-$1"')
  );
}

function* elements(nodes: readonly MdNode[]): Generator<Exclude<MdNode, string>> {
  for (const n of nodes) {
    if (typeof n === 'string') continue;
    yield n;
    yield* elements(n.children);
  }
}

test('chat markdown: the structure of every construct equals markdown-it’s own HTML renderer', () => {
  const corpus = [
    'plain words\nand a soft break',
    '# One\n## Two\n###### Six',
    '*em* **strong** ***both*** ~~gone~~ `code`',
    '- a\n- b\n  - nested\n- c',
    '1. one\n2. two',
    '3. three\n4. four',
    '- loose\n\n- list',
    '> quoted\n> **text**',
    '```python\nprint("hi") < 3 & x\n```',
    '    indented code\n    block',
    '---',
    'hard  \nbreak',
    '| left | centre | right | none |\n|:-----|:------:|------:|------|\n| 1 | 2 | 3 | 4 |',
    'a [link](https://hailo.ai/docs?x=1&y=2 "title") and <https://example.com/a> and https://example.org/b bare; www.hailo.ai without a scheme stays text',
    'file names stay text: setup.py, README.md, model.onnx',
    'escapes: \\*not em\\* &amp; &copy; &#35;',
  ];
  for (const source of corpus) assert.equal(html(markdownTree(source)), reference(source), source);
});

test('chat markdown: CommonMark and GFM spec cases, written out', () => {
  const cases: [string, string][] = [
    ['- foo\n- bar', '<ul><li>foo</li><li>bar</li></ul>'],
    ['- foo\n\n- bar', '<ul><li><p>foo</p></li><li><p>bar</p></li></ul>'],
    ['7. seven', '<ol start="7"><li>seven</li></ol>'],
    ['```js\nconst x = 1;\n```', '<pre><code class="language-js">const x = 1;\n</code></pre>'],
    [
      '| a | b |\n| --- | ---: |\n| c | d |',
      '<table><thead><tr><th>a</th><th class="align-right">b</th></tr></thead><tbody><tr><td>c</td><td class="align-right">d</td></tr></tbody></table>',
    ],
    ['~~Hi~~ Hello', '<p><s>Hi</s> Hello</p>'],
    ['foo  \nbar', '<p>foo<br>bar</p>'],
    ['`<b>`', '<p><code>&lt;b&gt;</code></p>'],
  ];
  for (const [source, expected] of cases) assert.equal(html(markdownTree(source)), expected, source);
});

test('chat markdown: raw HTML in an answer is text, never an element', () => {
  const evil = '<img src=x onerror="window.__hailoPwned=1"><script>window.__hailoPwned=2</script><b data-injected>bold</b>';
  assert.deepEqual(markdownTree(`You said: ${evil}.`), [{ tag: 'p', children: [`You said: ${evil}.`] }]);
  assert.deepEqual(markdownTree('<div onclick="x()">\nblock\n</div>'), [{ tag: 'p', children: ['<div onclick="x()">\nblock\n</div>'] }]);
  assert.deepEqual(markdownTree('<svg/onload=alert(1)>'), [{ tag: 'p', children: ['<svg/onload=alert(1)>'] }]);
});

test('chat markdown: links only to http(s); every other scheme and relative paths stay the text written', () => {
  for (const href of [
    'javascript:window.__hailoPwned=3',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>1</script>',
    'file:///etc/passwd',
    'command:workbench.action.terminal.new',
    'vscode://file/x',
    'notes.md',
    '/abs',
    '#top',
    'mailto:a@b.c',
  ]) {
    const source = `[click](${href})`;
    const tree = markdownTree(source);
    assert.equal([...elements(tree)].filter((e) => e.tag === 'a').length, 0, href);
    assert.equal(html(tree), `<p>${escape(source)}</p>`, href);
  }
  const [p] = markdownTree('[ok](https://hailo.ai/x) [ref][1]\n\n[1]: javascript:alert(1)') as [Exclude<MdNode, string>];
  assert.deepEqual(p.children[0], { tag: 'a', attrs: { 'data-href': 'https://hailo.ai/x' }, children: ['ok'] });
  assert.equal([...elements([p])].filter((e) => e.tag === 'a').length, 1, 'the reference to javascript: is not a link');
});

test('chat markdown: an image is never an element: a link naming it (http(s)) or its text', () => {
  assert.deepEqual(markdownTree('![a chart](https://example.com/c.png)'), [
    { tag: 'p', children: [{ tag: 'a', attrs: { class: 'md-image', 'data-href': 'https://example.com/c.png' }, children: ['image: a chart'] }] },
  ]);
  assert.deepEqual(markdownTree('![pwn](x.png)'), [{ tag: 'p', children: ['![pwn](x.png)'] }]);
  assert.deepEqual(markdownTree('![](https://example.com/no-alt.png)'), [
    { tag: 'p', children: [{ tag: 'a', attrs: { class: 'md-image', 'data-href': 'https://example.com/no-alt.png' }, children: ['image: image'] }] },
  ]);
});

test('chat markdown: a streaming answer renders at every length, with only allowed tags and attributes', () => {
  const answer = [
    'Here is **the plan**:',
    '',
    '1. Parse the ONNX with `hailo parser`',
    '2. Optimize — see [the guide](https://hailo.ai/developer-zone/)',
    '',
    '```bash',
    'hailo optimize model.har --calib-set-path calib.npy',
    '```',
    '',
    '| stage | time |',
    '|---|--:|',
    '| parse | 3 s |',
    '',
    '> <script>window.__hailoPwned=1</script> ![x](https://e.com/x.png) [y](javascript:1)',
  ].join('\n');
  const allowedAttrs = new Set(['class', 'data-href', 'start']);
  for (let n = 0; n <= answer.length; n++) {
    const tree = markdownTree(answer.slice(0, n));
    for (const e of elements(tree)) {
      assert.ok(MD_TAGS.has(e.tag), `${e.tag} at ${n}`);
      for (const [k, v] of Object.entries(e.attrs ?? {})) {
        assert.ok(allowedAttrs.has(k), `${k} at ${n}`);
        if (k === 'data-href') assert.match(String(v), /^https?:\/\//, `at ${n}`);
      }
    }
  }
  // An open fence (the answer is still streaming) is already a code block.
  assert.deepEqual(markdownTree('```bash\nhailo pars'), [
    { tag: 'pre', children: [{ tag: 'code', attrs: { class: 'language-bash' }, children: ['hailo pars'] }] },
  ]);
});

test('externalLink: absolute http(s) only, normalised; everything else refused', () => {
  assert.equal(externalLink('https://hailo.ai'), 'https://hailo.ai/');
  assert.equal(externalLink('HTTP://Example.COM/a b'), 'http://example.com/a%20b');
  for (const bad of [
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'file:///x',
    'command:x',
    'vscode://x',
    'data:,x',
    '/relative',
    'relative',
    '',
    42,
    undefined,
    'https://' + 'a'.repeat(9000),
  ]) {
    assert.equal(externalLink(bad), undefined, String(bad).slice(0, 40));
  }
});

// Issue 14, injection: names from a HAR or an ONNX file went into hover markdown raw (a newline
// escaped the code span: a live image URL or a command: link), names with newlines misaligned the
// ONNX graph view, and terminal escape bytes reached the CLI's text output. The markdown is checked
// with markdown-it (CommonMark + GFM tables + linkify, an independent renderer), the CLI from the
// bytes a real process writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { analyze, hover } from '../../server/src/alls';
import { ModelResolver, readOnnxSide } from '../../server/src/har/modelResolver';
import { analyzeOnnx } from '../../server/src/onnx/analysis';
import { nodeHover, renderGraphView, targetAt, tensorHover } from '../../server/src/onnx/graphView';
import { readOnnxBuffer } from '../../server/src/onnx/reader';
import { mdCell, mdCode, mdText, oneLine, terminalText } from '../../server/src/common/escape';
import { repoRoot } from '../helpers/shared';
import { tarMember, TAR_END } from '../helpers/hostile';
import { buildHef } from '../helpers/hefBuilder';

// markdown-it ships with the packaging tool (@vscode/vsce); linkify turns bare URLs into links, as
// VS Code's hover renderer does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (o: object) => { render(s: string): string };
const md = new MarkdownIt({ html: false, linkify: true });
// GFM's extended autolinks (http://, https://, www., e-mail), as VS Code's renderer; not every bare domain
(md as unknown as { linkify: { set(o: object): void } }).linkify.set({ fuzzyLink: false, fuzzyEmail: true });

/** Names an attacker would put in a file. */
const EVIL = {
  image: 'x\n\n![t](http://127.0.0.1:9/pixel.png)',
  command: 'y`\n\n[run](command:workbench.action.terminal.new)',
  autolink: 'see http://127.0.0.1:9/x and www.example.com or me@example.com',
  html: '<img src=x onerror=alert(1)>',
  pipe: 'a|b`|`c',
  ansi: '\u001b]0;pwned\u0007\u001b[2J',
};

function assertInert(markdown: string, where: string): string {
  const html = md.render(markdown);
  assert.doesNotMatch(html, /<a\b/, `${where}: a link in ${html}`);
  assert.doesNotMatch(html, /<img\b/, `${where}: an image in ${html}`);
  assert.doesNotMatch(html, /<(?!\/?(p|code|strong|em|table|thead|tbody|tr|th|td|ul|ol|li|hr|br)\b)[a-z]/i, `${where}: an unexpected tag in ${html}`);
  return html;
}

test('escape helpers: a code span survives backticks and newlines; plain text forms no link, image or autolink', () => {
  for (const s of Object.values(EVIL)) {
    const html = assertInert(`before ${mdCode(s)} after`, JSON.stringify(s));
    assert.equal((html.match(/<code>/g) ?? []).length, 1, html);
    assertInert(mdText(s), JSON.stringify(s));
    const table = md.render(`| a | b |\n|---|---|\n| ${mdCell(s)} | z |`);
    assert.equal((table.match(/<td>/g) ?? []).length, 2, `a | in ${JSON.stringify(s)} split the cell: ${table}`);
  }
  // the code span shows the name itself (with its line break visible)
  assert.match(md.render(mdCode('a`b')), /<code>a`b<\/code>/);
  assert.equal(oneLine('a\nb\r\tc\u202ed'), 'a\\nb\\r\\tc\\u202ed');
  assert.equal(terminalText('ok\n\u001b[2J\u009b'), 'ok\n\\u001b[2J\\u009b');
});

function hostileOnnx(): Buffer {
  const F = onnx.TensorProto.DataType.FLOAT;
  const vi = (name: string, dims: (number | string)[]) => onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: F, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } } });
  return Buffer.from(
    onnx.ModelProto.encode(
      onnx.ModelProto.create({
        irVersion: 8,
        producerName: EVIL.ansi,
        opsetImport: [{ domain: '', version: 13 }],
        graph: {
          name: 'g',
          input: [vi(EVIL.image, [1, EVIL.pipe])],
          output: [vi(EVIL.autolink, [1, 8])],
          node: [
            { name: EVIL.command, opType: 'Relu', input: [EVIL.image], output: [EVIL.html] },
            { name: 'conv1', opType: `Relu${EVIL.ansi}`, input: [EVIL.html], output: [EVIL.autolink] },
          ],
        },
      }),
    ).finish(),
  );
}

test('ONNX graph view: names with newlines stay on their line; hovers render inert', () => {
  const a = analyzeOnnx(readOnnxBuffer(hostileOnnx()));
  const view = renderGraphView(a, `m${EVIL.ansi}.onnx`);
  const lines = view.text.split('\n');
  assert.equal(lines.length, view.lines.length + 1, 'one text line per view line');
  assert.doesNotMatch(view.text, /[\u0000-\u0009\u000b-\u001f]/, 'no control character but the line breaks of the view');
  const n0 = a.model.graph.nodes[0];
  const span = view.nodeNameSpan.get(n0)!;
  assert.equal(lines[span.line].slice(span.start, span.end), oneLine(EVIL.command));
  // the tensor spans still point at the right names
  const input = view.tensorSpans.get(span.line)!.find((s) => s.tensor === EVIL.image)!;
  assert.equal(targetAt(view, span.line, input.start + 1).tensor, EVIL.image);
  for (const n of a.model.graph.nodes) assertInert(nodeHover(a, n), `node hover ${n.name}`);
  for (const t of [EVIL.image, EVIL.html, EVIL.autolink]) assertInert(tensorHover(a, t), `tensor hover ${t}`);
});

test('.alls hover on a layer of a HAR with hostile names (and its ONNX): inert markdown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-names-'));
  try {
    const scope = `net${EVIL.image}`;
    const hn = {
      name: 'net',
      net_params: { net_scopes: [scope] },
      layers: {
        [`${scope}/conv1`]: {
          type: `conv${EVIL.command}`,
          input: [],
          output: [],
          input_shapes: [[-1, EVIL.pipe, 8, 3]],
          output_shapes: [[-1, 8, 8, 16]],
          original_names: ['conv1', EVIL.autolink, EVIL.image],
          params: { activation: EVIL.html, kernel_shape: [[[[[[EVIL.command]]]]]] },
        },
      },
    };
    writeFileSync(join(dir, 'net.har'), Buffer.concat([tarMember('net.hn', Buffer.from(JSON.stringify(hn))), TAR_END]));
    writeFileSync(join(dir, 'net.onnx'), hostileOnnx());
    const r = await new ModelResolver(readOnnxSide).resolve(join(dir, 'net.alls'));
    assert.ok(r.index, r.problems.join('; '));
    const text = 'quantization_param(conv1, precision_mode=a8_w8)\n';
    const doc = analyze(text);
    const h = hover(doc, { line: 0, character: 21 }, { model: r.index })!;
    const html = assertInert(h.markdown, 'layer hover');
    assert.match(html, /pixel\.png/, 'the name is shown, as text');
    const glob = analyze('quantization_param({conv*}, precision_mode=a8_w8)\n');
    assertInert(hover(glob, { line: 0, character: 21 }, { model: r.index })!.markdown, 'glob hover');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CLI never writes a control character from a file to the terminal (onnx, hef text output)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-ansi-'));
  try {
    writeFileSync(join(dir, 'm.onnx'), hostileOnnx());
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'onnx', '--shapes', join(dir, 'm.onnx')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'a raw control character reached stdout');
    assert.match(r.stdout, /\\u001b\]0;pwned\\u0007/, 'the escape is shown, visibly');
    const j = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'onnx', '--json', join(dir, 'm.onnx')], { encoding: 'utf8' });
    assert.doesNotMatch(j.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    assert.equal(JSON.parse(j.stdout).inputs[0].name, EVIL.image, 'JSON keeps the exact name (escaped as JSON)');
    const ng = `net${EVIL.ansi}`;
    writeFileSync(
      join(dir, 'm.hef'),
      await buildHef({ version: 3, hwArch: 103, networkGroups: [{ name: ng, inputs: [{ name: `${ng}/in\u009b6n`, shape: [8, 8, 3] }], outputs: [{ name: `${ng}/out`, shape: [4, 4, 8] }] }] }),
    );
    const h = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'hef', '--streams', join(dir, 'm.hef')], { encoding: 'utf8' });
    assert.equal(h.status, 0, h.stderr);
    assert.doesNotMatch(h.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'a raw control character reached stdout');
    assert.match(h.stdout, /Network group name: net\\u001b\]0;pwned\\u0007/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

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
import { analyze, hover } from '../../../server/src/core/alls';
import { ModelResolver, readOnnxSide } from '../../../server/src/core/har/modelResolver';
import { parseHn } from '../../../server/src/core/har/hn';
import { buildLayerIndex, shortJson } from '../../../server/src/core/har/layers';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { nodeHover, renderGraphView, targetAt, tensorHover } from '../../../server/src/core/onnx/graphView';
import { readOnnxBuffer } from '../../../server/src/core/onnx/reader';
import { mdCell, mdCode, mdText, oneLine, terminalText } from '../../../server/src/core/common/escape';
import { repoRoot } from '../../helpers/shared';
import { assertInert, md } from '../../helpers/markdown';
import { EVIL, hostileHn, hostileOnnx, tarMember, TAR_END } from '../../helpers/hostile';
import { buildHef } from '../../helpers/hefBuilder';
import { ansiNamesHefSpec } from '../../helpers/inlineHefs';

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
    const hn = hostileHn();
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
    writeFileSync(join(dir, 'm.hef'), await buildHef(ansiNamesHefSpec()));
    const h = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'hef', '--streams', join(dir, 'm.hef')], { encoding: 'utf8' });
    assert.equal(h.status, 0, h.stderr);
    assert.doesNotMatch(h.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'a raw control character reached stdout');
    assert.match(h.stdout, /Network group name: net\\u001b\]0;pwned\\u0007/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an HN param nested 200,000 deep: the HN is refused by its nesting (issue 29); a deep value is still summarised without recursion', () => {
  const text = `{"name":"net","layers":{"net/conv1":{"type":"conv","original_names":["conv1"],"params":{"kernel_shape":${'['.repeat(200_000)}3${']'.repeat(200_000)}}}}}`;
  assert.throws(() => parseHn(text, 'deep.hn'), /^HnFormatError: deep\.hn has more than 64 levels, over the limit of 64 levels/);
  const hn = parseHn(`{"name":"net","layers":{"net/conv1":{"type":"conv","original_names":["conv1"],"params":{}}}}`, 'deep.hn');
  hn.layers[0].params.kernel_shape = JSON.parse(`${'['.repeat(200_000)}3${']'.repeat(200_000)}`) as unknown;
  const index = buildLayerIndex({ path: 'deep.har', members: [], hnMember: 'net.hn', hn });
  const detail = index.layers.get('conv1')!.detail!;
  assert.match(detail, /^HN params: `kernel_shape=\[{80}…`\n/);
  assertInert(detail, 'deep params');
  assert.equal(shortJson([1, 'a', [2, null]], 80), '[1,"a",[2,null]]');
});

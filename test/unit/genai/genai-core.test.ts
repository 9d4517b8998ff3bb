// The pure GenAI chat core (server/src/core/genai): HEF classification against what HailoRT's GenAI
// server looks for, parameter ranges of llm.cpp:553-565, the JSON messages of HailoRT's examples,
// image → frame layouts (numpy's transposes as the oracle), the Markdown transcript rendered by
// markdown-it (nothing a model writes becomes a link, image or tag), the saved-context file.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import {
  classifyGenAiFile,
  countImageEntries,
  decodeContextFile,
  encodeContextFile,
  FrameError,
  imageToFrame,
  layoutFrame,
  paramError,
  parseParam,
  transcriptMarkdown,
  turnMessages,
  userMessage,
  validateParams,
} from '../../../server/src/core/genai';
import { writeGenAiHefs } from '../../helpers/genaiFixtures';
import { tempDir } from '../../fakes/fakeHailort';
import { assertInert, md } from '../../helpers/markdown';
import { PNG } from 'pngjs';

const dir = tempDir('genai-core');
after(() => rmSync(dir, { recursive: true, force: true }));

test('classify: LLM, LoRA LLM, VLM by their network groups; what HailoRT would refuse; not GenAI', async () => {
  const h = await writeGenAiHefs(dir);
  const llm = (await classifyGenAiFile(h.llm)).genai;
  assert.equal(llm.kind, 'llm');
  assert.equal(llm.confidence, 'certain');
  assert.equal(llm.prefillGroup, 'prefill');
  assert.deepEqual(llm.loras, []);
  assert.equal(llm.config?.kvCacheSize, 1024);
  // Four groups: HailoRT looks the base model up as base_model__prefill (llm_server.cpp:46-56).
  const lora = (await classifyGenAiFile(h.lora)).genai;
  assert.equal(lora.kind, 'llm');
  assert.equal(lora.prefillGroup, 'base_model__prefill');
  assert.deepEqual(lora.loras, ['coder']);
  const vlm = (await classifyGenAiFile(h.vlm)).genai;
  assert.equal(vlm.kind, 'vlm');
  assert.deepEqual(vlm.frame && [vlm.frame.group, vlm.frame.shape, vlm.frame.frameSize], ['qwen2vl_encoder', [56, 56, 3], 9408]);
  const noConfig = (await classifyGenAiFile(h.noConfig)).genai;
  assert.equal(noConfig.kind, 'llm');
  assert.equal(noConfig.confidence, 'likely');
  assert.match(noConfig.summary, /HailoRT's GenAI server will refuse it: hailo-config\.json is not embedded/);
  const noPad = (await classifyGenAiFile(h.vlmNoImagePad)).genai;
  assert.equal(noPad.confidence, 'likely');
  assert.match(noPad.problems.join(), /no image_pad/);
  const cls = (await classifyGenAiFile(h.classifier)).genai;
  assert.equal(cls.kind, null);
});

test('params: the ranges HailoRT enforces (llm.cpp:553-565) and the uint32 fields', () => {
  const ok: [Parameters<typeof paramError>[0], unknown][] = [
    ['temperature', 0.01],
    ['topP', 0],
    ['topP', 1],
    ['topK', 1],
    ['frequencyPenalty', -0.5],
    ['frequencyPenalty', 1],
    ['maxTokens', 1],
    ['seed', 0],
    ['seed', 4294967295],
    ['doSample', false],
  ];
  for (const [name, v] of ok) assert.equal(paramError(name, v), undefined, `${name} ${v}`);
  const bad: [Parameters<typeof paramError>[0], unknown][] = [
    ['temperature', 0],
    ['temperature', -1],
    ['topP', -0.01],
    ['topP', 1.01],
    ['topK', 0],
    ['topK', 2.5],
    ['frequencyPenalty', 0],
    ['maxTokens', 0],
    ['maxTokens', 4294967296],
    ['seed', -1],
    ['seed', 4294967296],
    ['temperature', Number.NaN],
    ['doSample', 'yes'],
  ];
  for (const [name, v] of bad) assert.ok(paramError(name, v), `${name} ${v} should be refused`);
  assert.deepEqual(
    validateParams({ temperature: 0.7, topK: 0 }).map((e) => e.name),
    ['topK'],
  );
  assert.deepEqual(parseParam('doSample', 'on'), { value: true });
  assert.deepEqual(parseParam('topK', ' '), {});
  assert.match(parseParam('temperature', 'abc').error!, /Temperature must be/);
});

test("messages: HailoRT's JSON chat format, image entries first, counted only where they are entries", () => {
  assert.deepEqual(JSON.parse(userMessage('hi', 2)), { role: 'user', content: [{ type: 'image' }, { type: 'image' }, { type: 'text', text: 'hi' }] });
  assert.deepEqual(JSON.parse(userMessage('plain')), { role: 'user', content: 'plain' });
  assert.equal(countImageEntries(userMessage('hi', 3)), 3);
  assert.equal(countImageEntries(userMessage('{"type":"image"}')), 0);
  assert.deepEqual(
    turnMessages('q', 0, 'be brief').map((m) => JSON.parse(m).role),
    ['system', 'user'],
  );
  assert.deepEqual(
    turnMessages('q', 0, '  ').map((m) => JSON.parse(m).role),
    ['user'],
  );
});

test("frames: layouts equal numpy's — NHWC as is, NCHW = transpose(2,0,1), NHCW = transpose(0,2,1); FLOAT32/UINT16 little-endian", () => {
  // pixels = np.arange(12).reshape(2, 2, 3)
  const pixels = Array.from({ length: 12 }, (_, i) => i);
  assert.deepEqual([...layoutFrame(pixels, { size: 12, shape: [2, 2, 3], type: 'UINT8', order: 'NHWC' })], pixels);
  // np.arange(12).reshape(2,2,3).transpose(2,0,1).ravel()
  assert.deepEqual([...layoutFrame(pixels, { size: 12, shape: [2, 2, 3], type: 'UINT8', order: 'NCHW' })], [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]);
  // np.arange(12).reshape(2,2,3).transpose(0,2,1).ravel()
  assert.deepEqual([...layoutFrame(pixels, { size: 12, shape: [2, 2, 3], type: 'UINT8', order: 'NHCW' })], [0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11]);
  const f = layoutFrame(pixels, { size: 48, shape: [2, 2, 3], type: 'FLOAT32', order: 'NHWC' });
  assert.deepEqual([...new Float32Array(f.buffer)], pixels);
  const u = layoutFrame([300, -4, 7], { size: 6, shape: [1, 1, 3], type: 'UINT16', order: 'NHWC' });
  assert.deepEqual([...new Uint16Array(u.buffer)], [255, 0, 7]);
  assert.throws(() => layoutFrame(pixels, { size: 13, shape: [2, 2, 3], type: 'UINT8', order: 'NHWC' }), /that shape is 12 bytes/);
  assert.throws(() => layoutFrame(pixels, { size: 12, shape: [2, 2, 3], type: 'UINT8', order: 'NC' }), /NC order/);
});

test('transcript: a hostile answer and prompt render as text in the Markdown (markdown-it), fences outgrow backticks', () => {
  const evil = '<script>alert(1)</script> ![x](http://e.vil/a.png) [click](javascript:alert(1)) ```\n# not a heading';
  const markdown = transcriptMarkdown({
    hef: '/m/q<img src=x onerror=alert(1)>wen.hef',
    kind: 'llm',
    params: { temperature: 0.7 },
    at: '2026-12-01T12:00:00Z',
    turns: [
      { role: 'user', text: evil },
      { role: 'assistant', text: evil, reason: 'aborted', stats: { tokens: 12, firstTokenMs: 80, tokensPerSecond: 20.5, totalMs: 700 }, error: '<i>boom</i>' },
    ],
  });
  const html = assertInert(markdown, 'transcript');
  assert.doesNotMatch(html, /<h1>not a heading/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(markdown, /\*12 tokens · first token 80 ms · 20\.5 tokens\/s · stopped by the user/);
  assert.match(md.render(markdown), /<h1>Chat with q&lt;img src=x onerror=alert\(1\)&gt;wen\.hef<\/h1>/);
});

test('context file: header + HailoRT blob round-trip; a bare blob loads; truncated or empty files are refused', () => {
  const blob = new Uint8Array([0, 1, 2, 255, 10, 13]);
  const file = encodeContextFile({ hef: 'q.hef', kind: 'llm', savedAt: 'now', usage: 42, turns: [{ role: 'user', text: 'hi\nthere' }] }, blob);
  const back = decodeContextFile(file);
  assert.ok('blob' in back);
  assert.deepEqual([...back.blob], [...blob]);
  assert.equal(back.header?.usage, 42);
  assert.deepEqual(back.header?.turns, [{ role: 'user', text: 'hi\nthere' }]);
  const bare = decodeContextFile(blob);
  assert.ok('blob' in bare && bare.header === undefined);
  assert.match((decodeContextFile(new Uint8Array()) as { error: string }).error, /empty/);
  const head = file.subarray(0, file.length - blob.length);
  assert.match((decodeContextFile(head) as { error: string }).error, /no HailoRT context after its header/);
  assert.match((decodeContextFile(head.subarray(0, 40)) as { error: string }).error, /no end to it/);
});

test('frames: a VLM frame shape (from the HEF, through HailoRT) beyond LIMITS.imagePixels is refused before the image is resized to it', () => {
  const png = new PNG({ width: 2, height: 2 });
  png.data.fill(200);
  const image = new Uint8Array(PNG.sync.write(png));
  // within the limit the image is stretched to the frame
  assert.equal(imageToFrame(image, 'cat.png', { size: 12, shape: [2, 2, 3], type: 'UINT8', order: 'NHWC' }).bytes.length, 12);
  // 10⁵×10⁵ RGB: the resize alone would be 3·10¹⁰ values of 8 bytes
  const huge = { size: 3e10, shape: [100_000, 100_000, 3] as [number, number, number], type: 'UINT8', order: 'NHWC' };
  for (const make of [() => imageToFrame(image, 'cat.png', huge), () => layoutFrame([], huge)])
    assert.throws(
      make,
      (e: unknown) =>
        e instanceof FrameError &&
        e.message ===
          "the VLM's 100000x100000 frame has 10,000,000,000 pixels, over the limit of 64,000,000 pixels: the image is not decoded (one sentence); nothing runs on the device.",
    );
});

// Chat with an LLM/VLM end to end on the fake libhailort: DeviceClient forks dist/deviceWorker.js,
// which loads the shim (hailo_genai.cpp built against the fake's headers) with koffi; ChatSession
// is the host side the CLI and the webview use. Expected values come from the fixture HEFs'
// hailo-config.json (defaults, kv_cache_size), from the prompt itself (the simulated model answers
// "You said: <prompt>."), from the pixels of the image we send (per-channel means), and from
// HailoRT's documented behaviour (hailort5-api.md §2: one model per device, parameter ranges,
// frames of input_frame_size() bytes, context calls only from 5.1.1).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DeviceClient } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import type { ChatOpenOptions, DeviceError } from '../../server/src/core/device/protocol';
import { imageToFrame, turnMessages, userMessage } from '../../server/src/core/genai';
import { ChatSession } from '../../server/src/processes/genai/session';
import { genaiSetup, LLM_CONFIG, VLM_CONFIG, VLM_FRAME, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';

const WORKER = join(repoRoot, 'dist', 'deviceWorker.js');
let setup: GenAiSetup;
let old: GenAiSetup;
const clients: DeviceClient[] = [];

before(async () => {
  assert.ok(existsSync(WORKER), 'dist/deviceWorker.js is missing: run `npm run build` first');
  setup = await genaiSetup('genai-chat');
  old = await genaiSetup('genai-chat-501', '5.0.1');
});
after(() => {
  for (const c of clients) c.dispose();
  setup?.cleanup();
  old?.cleanup();
});

function client(extra: Record<string, string> = {}, s: GenAiSetup = setup): DeviceClient {
  const sysfs = join(s.dir, 'sysfs');
  mkdirSync(join(sysfs, 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  const c = new DeviceClient({ trust: commandLineTrust('test'), workerPath: WORKER, shim: s.shim, env: { ...s.env(extra), HAILO_TOOLS_SYSFS_ROOT: sysfs } });
  clients.push(c);
  return c;
}

const open = (c: DeviceClient, hef: string, extra: Partial<ChatOpenOptions> = {}) => ChatSession.open(c, { hef, groupId: 'UNIQUE', ...extra });

async function refusal(p: Promise<unknown>): Promise<DeviceError> {
  try {
    await p;
  } catch (err) {
    const e = (err as { error?: DeviceError }).error;
    assert.ok(e, `expected a DeviceRequestError, got ${String(err)}`);
    return e;
  }
  assert.fail('expected a refusal');
}

// The shim reads float32 values (0.699999988); they are shown as the config wrote them.
test('chat open: an LLM with its hailo-config.json defaults, template and KV-cache capacity', async () => {
  const c = client();
  const s = await open(c, setup.hefs.llm);
  const d = LLM_CONFIG.default_generation_params;
  assert.equal(s.info.kind, 'llm');
  assert.deepEqual(s.info.defaults, {
    temperature: d.temperature,
    topP: d.top_p,
    topK: d.top_k,
    frequencyPenalty: d.repetition_penalty,
    maxTokens: d.max_new_tokens,
    doSample: d.do_sample,
    seed: 4294967295,
  });
  assert.equal(s.info.template, LLM_CONFIG.chat_template);
  assert.deepEqual(s.info.context, { usage: 0, capacity: LLM_CONFIG.pre_process_params.kv_cache_size });
  assert.equal(s.info.frame, null);
  assert.equal(s.info.runtime.fake, true);
  await s.close();
});

test('chat ask: tokens stream one chunk at a time, the answer ends, TTFT and tokens/s measured, context grows', async () => {
  const c = client({ FAKE_HAILORT_TOKENS_PER_S: '200', FAKE_HAILORT_PREFILL_MS: '30' });
  const s = await open(c, setup.hefs.llm);
  const seen: { text: string; at: number }[] = [];
  const asked = performance.now();
  const a = await s.ask({ messages: turnMessages('hello there', 0) }, (t) => seen.push({ text: t, at: performance.now() }));
  const wallMs = performance.now() - asked;
  assert.equal(a.reason, 'end');
  assert.equal(a.error, undefined);
  assert.ok(a.text.startsWith('You said: hello there.'), a.text);
  assert.equal(seen.map((x) => x.text).join(''), a.text);
  // Streamed: many chunks, spread over time (200 tokens/s → ~5 ms apart), not one block at the end.
  assert.ok(seen.length >= 10, `${seen.length} chunks`);
  assert.ok(seen[seen.length - 1].at - seen[0].at >= (seen.length - 1) * 2, 'the chunks arrived over time');
  // The worker counts the end-of-sequence read too (empty text).
  assert.equal(a.stats.tokens, seen.length + 1);
  assert.ok(a.stats.firstTokenMs! >= 25, `TTFT ${a.stats.firstTokenMs} ms, prefill is 30 ms`);
  assert.ok(a.host.firstTokenMs! >= a.stats.firstTokenMs!, 'the host sees the first token after the worker');
  // Never faster than the fake generates; never slower than this test saw from outside (the worker's
  // interval lies inside the ask's wall time) — a bound that holds however loaded the machine is.
  assert.ok(a.stats.tokensPerSecond! < 260, `${a.stats.tokensPerSecond} tokens/s at 200`);
  assert.ok(
    a.stats.tokensPerSecond! >= ((seen.length - 1) * 1000) / wallMs,
    `${a.stats.tokensPerSecond} tokens/s; ${seen.length} chunks in ${wallMs.toFixed(0)} ms seen from outside`,
  );
  assert.ok(a.context && a.context.usage > seen.length, `context ${JSON.stringify(a.context)}`);
  assert.equal(a.context!.capacity, LLM_CONFIG.pre_process_params.kv_cache_size);
  // The next turn adds to the same context.
  const b = await s.ask({ messages: [userMessage('again')] });
  assert.ok(b.text.startsWith('You said: again.'));
  assert.ok(b.context!.usage > a.context!.usage);
  await s.close();
});

test("chat ask: a hostile answer (HTML, script) arrives verbatim — escaping is the sink's job", async () => {
  const c = client();
  const s = await open(c, setup.hefs.llm);
  const evil = '<img src=x onerror=alert(1)><script>alert("x")</script>';
  const a = await s.ask({ messages: [userMessage(evil)] });
  assert.ok(a.text.startsWith(`You said: ${evil}.`), a.text);
  await s.close();
});

test('chat ask: max tokens stops the answer with reason max-tokens; the same seed gives the same answer', async () => {
  const c = client();
  const s = await open(c, setup.hefs.llm);
  const a = await s.ask({ messages: [userMessage('count')], params: { maxTokens: 3 } });
  assert.equal(a.reason, 'max-tokens');
  assert.equal(a.stats.tokens, 3);
  await s.clear();
  const x = await s.ask({ messages: [userMessage('story')], params: { doSample: true, seed: 7 } });
  await s.clear();
  const y = await s.ask({ messages: [userMessage('story')], params: { doSample: true, seed: 7 } });
  await s.clear();
  const z = await s.ask({ messages: [userMessage('story')], params: { doSample: true, seed: 8 } });
  assert.equal(x.text, y.text);
  assert.notEqual(x.text, z.text);
  await s.close();
});

test('chat stop: abort ends a slow answer early with reason aborted, and the next turn works', async () => {
  const c = client({ FAKE_HAILORT_TOKENS_PER_S: '10', FAKE_HAILORT_PREFILL_MS: '5' });
  const s = await open(c, setup.hefs.llm);
  let chunks = 0;
  const t0 = performance.now();
  const answer = s.ask({ messages: [userMessage('a long story please')] }, () => {
    chunks++;
    if (chunks === 2) void s.stop();
  });
  const a = await answer;
  const ms = performance.now() - t0;
  assert.equal(a.reason, 'aborted');
  assert.ok(chunks <= 3, `${chunks} chunks after Stop`);
  // The full answer is 15+ tokens at 10/s (1.5 s+); Stop answered within a read slice or two.
  assert.ok(ms < 900, `${ms.toFixed(0)} ms`);
  assert.equal(s.busy, false);
  const b = await s.ask({ messages: [userMessage('next')], params: { maxTokens: 2 } });
  assert.equal(b.reason, 'max-tokens');
  await s.close();
});

test("chat context: Clear empties it; save → clear → load restores it; another model's context is refused", async () => {
  const c = client();
  const s = await open(c, setup.hefs.llm);
  const a = await s.ask({ messages: [userMessage('remember me')] });
  const usage = a.context!.usage;
  assert.ok(usage > 0);
  const blob = await s.save();
  assert.ok(blob.length > 0);
  assert.deepEqual(await s.clear(), { usage: 0, capacity: 1024 });
  assert.deepEqual(await s.load(blob), { usage, capacity: 1024 });
  assert.deepEqual(await s.context(), { usage, capacity: 1024 });
  await s.close();
  // The same blob on the VLM: HailoRT refuses a context of another model (status 2).
  const v = await open(c, setup.hefs.vlm);
  const e = await refusal(v.load(blob));
  assert.equal(e.kind, 'bad-input');
  assert.equal(e.status, 2);
  assert.match(e.sentence, /HailoRT refused that context \(status 2\): it was saved from another model, or it is damaged\./);
  await v.close();
});

test('chat VLM: the frame the device reports, an image resized to it, one frame per image entry', async () => {
  const c = client();
  const s = await open(c, setup.hefs.vlm);
  assert.equal(s.info.kind, 'vlm');
  assert.deepEqual(s.info.frame, { size: VLM_FRAME.size, shape: VLM_FRAME.shape, type: 'UINT8', order: 'NHWC' });
  assert.equal(s.info.context!.capacity, VLM_CONFIG.pre_process_params.kv_cache_size);
  // A 100x80 PNG of one colour: resized to 56x56 every pixel keeps it, so the device's means are the colour.
  const png = new PNG({ width: 100, height: 80 });
  for (let i = 0; i < 100 * 80; i++) png.data.set([200, 100, 50, 255], i * 4);
  const frame = imageToFrame(PNG.sync.write(png), 'orange.png', s.info.frame!);
  assert.equal(frame.bytes.length, VLM_FRAME.size);
  const a = await s.ask({ messages: turnMessages('what is this?', 1), frames: [frame.bytes] });
  assert.equal(a.reason, 'end', JSON.stringify(a.error));
  assert.match(a.text, /^You said: what is this\?\. Image 1 means 200\.0\/100\.0\/50\.0/);

  const twoEntries = await refusal(s.ask({ messages: turnMessages('two?', 2), frames: [frame.bytes] }));
  assert.equal(twoEntries.kind, 'wrong-frames');
  assert.equal(twoEntries.sentence, 'The message has 2 image entries but 1 frame came with it; a VLM takes one frame per image.');
  const small = await refusal(s.ask({ messages: turnMessages('small?', 1), frames: [frame.bytes.subarray(1)] }));
  assert.equal(small.kind, 'wrong-frames');
  assert.equal(
    small.sentence,
    `Image 1 is ${VLM_FRAME.size - 1} bytes as a frame, but this VLM takes frames of exactly ${VLM_FRAME.size} bytes (VLM::input_frame_size()).`,
  );
  await s.close();
});

test("chat refusals: not a GenAI HEF, LoRA not in the HEF, images for an LLM, parameters out of HailoRT's range", async () => {
  const c = client();
  const notGenai = await refusal(open(c, setup.hefs.classifier));
  assert.equal(notGenai.kind, 'not-genai');
  assert.match(
    notGenai.sentence,
    /^This HEF is not an LLM or VLM for HailoRT's GenAI API: none of its 1 network group \(efficientnet_lite0\) is a prefill group\.$/,
  );
  const lora = await refusal(open(c, setup.hefs.lora, { lora: 'writer' }));
  assert.equal(lora.kind, 'lora-missing');
  assert.equal(lora.sentence, "The HEF has no LoRA adapter 'writer': it has 'coder'.");
  const withLora = await open(c, setup.hefs.lora, { lora: 'coder' });
  assert.equal(withLora.info.lora, 'coder');
  await withLora.close();

  const s = await open(c, setup.hefs.llm);
  const images = await refusal(s.ask({ messages: turnMessages('look', 1), frames: [new Uint8Array(10)] }));
  assert.equal(images.kind, 'wrong-frames');
  assert.equal(images.sentence, 'This model is an LLM: it takes text only, so the images were not sent.');
  for (const [params, re] of [
    [{ temperature: 0 }, /^Temperature must be greater than 0/],
    [{ topP: 1.5 }, /^Top p must be between 0 and 1/],
    [{ topK: 0 }, /^Top k must be a whole number from 1/],
    [{ frequencyPenalty: 0 }, /^Frequency penalty must not be 0/],
  ] as const) {
    const e = await refusal(s.ask({ messages: [userMessage('x')], params }));
    assert.equal(e.kind, 'bad-params', JSON.stringify(params));
    assert.match(e.sentence, re);
  }
  // Nothing was left generating: a valid turn still works.
  assert.equal((await s.ask({ messages: [userMessage('ok')], params: { maxTokens: 2 } })).reason, 'max-tokens');
  await s.close();
});

test("chat busy: HailoRT runs one LLM/VLM per device — a second model, or another program's, is refused in one sentence", async () => {
  const c = client();
  const s = await open(c, setup.hefs.llm);
  const second = await refusal(open(c, setup.hefs.vlm));
  assert.equal(second.kind, 'genai-busy');
  assert.equal(second.status, 6);
  // Held by this worker: the sentence names whose model holds it (the HEF and its kind).
  assert.match(second.sentence, /^This chat's LLM [^ ]+\.hef holds the HAILO10H \(HailoRT runs one LLM or VLM per device\): close that chat first\.$/);
  await s.close();
  // Closed: the device is free again.
  await (await open(c, setup.hefs.vlm)).close();
  const other = await refusal(open(client({ FAKE_HAILORT_FAULT: 'kv-cache-busy' }), setup.hefs.llm));
  assert.equal(other.kind, 'genai-busy');
  assert.match(other.sentence, /^Another LLM or VLM holds the Hailo device/);
});

// Issue 36: a release past the public source is run, not refused; 5.4's rule (one LLM or VLM per
// device, from the GenAI docs) is named in the sentence.
test('chat on HailoRT 5.4.0 (the fake built as 5.4.0): chat works; a second model is refused naming the holder and 5.4', async () => {
  const v54 = await genaiSetup('genai-chat-540', '5.4.0');
  try {
    const c = client({}, v54);
    const s = await open(c, v54.hefs.llm);
    assert.equal(s.info.runtime.hailortVersion, '5.4.0');
    const a = await s.ask({ messages: [userMessage('hi')] });
    assert.ok(a.text.startsWith('You said: hi.'), a.text);
    const second = await refusal(open(c, v54.hefs.vlm));
    assert.match(
      second.sentence,
      /^This chat's LLM [^ ]+\.hef holds the HAILO10H \(HailoRT runs one LLM or VLM per device, as HailoRT 5\.4\.0 documents\): close that chat first\.$/,
    );
    await s.close();
  } finally {
    v54.cleanup();
  }
});

test('chat on HailoRT 5.0.1: chat works, the context calls (5.1.1+) say which version they need', async () => {
  const c = client({}, old);
  const s = await open(c, old.hefs.llm);
  assert.equal(s.info.runtime.hailortVersion, '5.0.1');
  assert.equal(s.info.context, null);
  const a = await s.ask({ messages: [userMessage('hi')] });
  assert.ok(a.text.startsWith('You said: hi.'));
  assert.equal(a.context, null);
  const e = await refusal(s.save());
  assert.equal(e.kind, 'hailort-too-old');
  assert.equal(
    e.sentence,
    'Saving the conversation context (save_context) needs HailoRT 5.1.1 or newer, and the installed HailoRT is 5.0.1: update HailoRT (hailo.hailort.path, CLI --hailort).',
  );
  await s.close();
});

test('chat: a worker that dies mid-answer ends the answer with an error, and the client restarts', async () => {
  const c = client({ FAKE_HAILORT_TOKENS_PER_S: '10' });
  const s = await open(c, setup.hefs.llm);
  let chunks = 0;
  const a = await s.ask({ messages: [userMessage('crash')] }, () => {
    if (++chunks === 1) c.stop();
  });
  assert.equal(a.reason, 'error');
  assert.ok(a.error, 'the answer carries the error');
  // The next request starts a new worker; the old session is gone, a new one opens.
  const again = await open(c, setup.hefs.llm);
  assert.ok((await again.ask({ messages: [userMessage('back')] })).text.startsWith('You said: back.'));
  await again.close();
});

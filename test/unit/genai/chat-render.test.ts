// The "Hailo: Chat with Model" page shell (client/src/genai/chatRender.ts) and its form
// (chatForm.ts), pure: every string from the HEF, the device or the worker is escaped; nonce CSP
// and exactly our one script; the parameter fields carry HailoRT's ranges and the model's
// defaults; the fields are read with HailoRT's rules (llm.cpp:553-565).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderChat } from '../../../client/src/genai/chatRender';
import { answerInfo, readParams } from '../../../client/src/genai/chatForm';
import type { ChatModelInfo } from '../../../server/src/core/device/protocol';

import { assertNoncePage, assertOnlyElements, cspMeta as meta, EVIL, PAGE_FRAME, tagsIn, testPage } from '../../helpers/webviewPage';

const PAGE = testPage('chat.css', 'chat.js');
/** Every attribute name of every tag (values skipped whole, so an escaped "onerror=" in a value is not a name). */
const attributeNames = (html: string) =>
  [...html.matchAll(/<[a-zA-Z][^\s>]*((?:\s+[^\s=>]+(?:="[^"]*"|='[^']*'|=[^\s>]*)?)*)\s*\/?>/g)].flatMap((m) =>
    [...m[1].matchAll(/\s+([^\s=>]+)(?:="[^"]*"|='[^']*'|=[^\s>]*)?/g)].map((a) => a[1].toLowerCase()),
  );

function info(extra: Partial<ChatModelInfo> = {}): ChatModelInfo {
  return {
    session: 1,
    hef: `/w/${EVIL}.hef`,
    kind: 'vlm',
    lora: `"'${EVIL}`,
    runtime: { hailortVersion: `5.2.0${EVIL}`, shimPath: '/s', libraryPath: '/l', fake: true },
    defaults: { temperature: 0.7, topP: 0.8, topK: 20, frequencyPenalty: 1.1, maxTokens: 200, doSample: true, seed: 4294967295 },
    template: EVIL,
    context: { usage: 12, capacity: 2048 },
    frame: { size: 9408, shape: [56, 56, 3], type: `UINT8${EVIL}`, order: 'NHWC' },
    ...extra,
  };
}

test('chat page: hostile HEF name, LoRA, runtime and frame strings are text; nonce CSP; one script; no inline style or handler', () => {
  const html = renderChat({ name: `${EVIL}.hef`, info: info() }, PAGE);
  assert.ok(!html.includes(EVIL), 'the raw payload never appears');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;.hef'));
  assertOnlyElements(html, [
    ...PAGE_FRAME,
    'header',
    'main',
    'h1',
    'h2',
    'p',
    'span',
    'div',
    'form',
    'textarea',
    'button',
    'details',
    'summary',
    'label',
    'input',
    'progress',
  ]);
  assertNoncePage(html, 'chat.js');
  assert.deepEqual(
    attributeNames(html).filter((n) => n.startsWith('on')),
    [],
    'no inline handlers',
  );
  assert.throws(
    () => renderChat({ name: 'x.hef', info: info() }, { ...PAGE, cspMeta: meta("default-src 'none'; script-src 'unsafe-inline'") }),
    /weak Content-Security-Policy/,
  );
});

test("chat page: parameter fields with HailoRT's ranges and the model's defaults; the context bar; VLM attach; 5.0.x without context", () => {
  const html = renderChat({ name: 'q.hef', info: info() }, PAGE);
  assert.match(html, /Temperature <span class="muted">&gt; 0<\/span><input type="text"[^>]* data-param="temperature"[^>]* placeholder="0\.7"/);
  assert.match(html, /Top p <span class="muted">0 … 1<\/span>/);
  assert.match(html, /Top k <span class="muted">integer ≥ 1<\/span>/);
  assert.match(html, /Frequency penalty <span class="muted">≠ 0 \(1 = none\)<\/span>/);
  assert.match(html, /<input type="checkbox" id="param-doSample" data-param="doSample" data-testid="param-doSample" checked>/);
  assert.match(html, /<progress id="context-bar" data-testid="chat-context-bar" max="2048" value="12"><\/progress>/);
  assert.match(html, /data-testid="chat-attach"/);
  const old = renderChat(
    {
      name: 'q.hef',
      info: info({ kind: 'llm', frame: null, context: null, runtime: { hailortVersion: '5.0.1', shimPath: '', libraryPath: '', fake: false } }),
    },
    PAGE,
  );
  assert.doesNotMatch(old, /chat-attach|<progress/);
  assert.match(old, /Context usage needs HailoRT 5\.1\.1 or newer \(installed: 5\.0\.1\)/);
  assert.match(old, /id="save" data-testid="chat-save" disabled/);
});

test("chat form: fields read with HailoRT's ranges — empty is the default, each bad field its own error", () => {
  assert.deepEqual(readParams({ temperature: '', topP: ' ', doSample: false }), { params: { doSample: false }, errors: {} });
  assert.deepEqual(readParams({ temperature: '0.2', topK: '40', maxTokens: '64', seed: '4294967295' }).params, {
    temperature: 0.2,
    topK: 40,
    maxTokens: 64,
    seed: 4294967295,
  });
  const bad = readParams({ temperature: '0', topP: '1.5', topK: '0', frequencyPenalty: '0', maxTokens: 'many', seed: '-1' });
  assert.deepEqual(Object.keys(bad.errors).sort(), ['frequencyPenalty', 'maxTokens', 'seed', 'temperature', 'topK', 'topP']);
  assert.deepEqual(bad.params, {});
  assert.deepEqual(readParams('junk'), { params: {}, errors: {} });
});

test('chat form: the line under an answer — tokens, time to first token, tokens/s, why it stopped', () => {
  const base = {
    text: 'x',
    context: null,
    stats: { tokens: 21, firstTokenMs: 40, tokensPerSecond: 49.7, totalMs: 500 },
    host: { firstTokenMs: 43.4, tokensPerSecond: 49.2, totalMs: 510, chunks: 20 },
  };
  assert.equal(answerInfo({ ...base, reason: 'end' }), '21 tokens · first token 43 ms · 49.2 tokens/s');
  assert.equal(answerInfo({ ...base, reason: 'aborted' }), '21 tokens · first token 43 ms · 49.2 tokens/s · stopped');
  assert.equal(
    answerInfo({
      ...base,
      reason: 'error',
      error: { kind: 'worker-crashed', status: null, name: '', message: 'm', sentence: 'The device worker stopped unexpectedly.' },
    }),
    '21 tokens · first token 43 ms · 49.2 tokens/s · The device worker stopped unexpectedly.',
  );
});

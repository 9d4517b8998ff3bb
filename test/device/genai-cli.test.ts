// `hailo-tools chat` as a user runs it (bin/hailo-tools.js in a child process) on the fake
// libhailort: the answer streams to stdout, figures to stderr, one JSON document with --json,
// Ctrl-C stops the answer, exit codes 0/1/2, one sentence per refusal. Expected texts come from the
// prompt (the simulated model answers "You said: <prompt>."), the image's pixels, the fixture's
// hailo-config.json and HailoRT's ranges (hailort5-api.md §2).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { genaiSetup, LLM_CONFIG, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';

let setup: GenAiSetup;
before(async () => {
  setup = await genaiSetup('genai-cli');
  mkdirSync(join(setup.dir, 'sysfs', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
});
after(() => setup?.cleanup());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When each stdout piece arrived, ms after the first one. */
  outTimes: number[];
  closedAfterFirstOut: number;
}

function cli(args: string[], extra: Record<string, string> = {}, onOut?: (text: string, kill: (sig: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env, ...setup.env(extra), HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'sysfs') };
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'chat', ...args], { env, cwd: setup.dir });
    let stdout = '';
    let stderr = '';
    const times: number[] = [];
    child.stdout.on('data', (d) => {
      times.push(performance.now());
      stdout += d;
      onOut?.(String(d), (sig) => child.kill(sig));
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const t0 = times[0] ?? performance.now();
      done({ code, stdout, stderr, outTimes: times.map((t) => t - t0), closedAfterFirstOut: performance.now() - t0 });
    });
  });
}

test('chat CLI: the answer streams to stdout while the device produces it; figures on stderr; exit 0', async () => {
  const r = await cli([setup.hefs.llm, 'hello there'], { FAKE_HAILORT_TOKENS_PER_S: '40' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^You said: hello there\. [\w -]+\.\n$/);
  // At 40 tokens/s a 20-token answer takes ~0.5 s: the first words were out long before the end.
  assert.ok(r.outTimes.length >= 5, `${r.outTimes.length} writes`);
  assert.ok(r.closedAfterFirstOut >= 250, `first output ${r.closedAfterFirstOut.toFixed(0)} ms before the end`);
  assert.match(
    r.stderr,
    /hailo-tools: \d+ tokens, first token after \d+ ms, \d+\.\d tokens\/s, context \d+ of 1024 tokens\nhailo-tools: device \d+\.\d °C · memory \d+\.\d of 8\.0 GiB · NNC \d+ %\n$/,
  );
});

test('chat CLI --json: one document with the text, token counts, timings and the parameters used', async () => {
  const r = await cli(['--json', '--max-tokens', '4', '--seed', '5', '--sample', setup.hefs.llm, 'hi']);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.kind, 'llm');
  assert.equal(doc.text, 'You said: hi');
  assert.equal(doc.reason, 'max-tokens');
  assert.equal(doc.tokens.generated, 4);
  assert.equal(doc.tokens.contextBefore, 0);
  assert.ok(doc.tokens.contextAfter > 4);
  assert.equal(doc.tokens.capacity, LLM_CONFIG.pre_process_params.kv_cache_size);
  assert.equal(doc.params.maxTokens, 4);
  assert.equal(doc.params.seed, 5);
  assert.equal(doc.params.doSample, true);
  assert.equal(doc.params.temperature, LLM_CONFIG.default_generation_params.temperature);
  assert.equal(typeof doc.timings.firstTokenMs, 'number');
  assert.equal(typeof doc.timings.worker.firstTokenMs, 'number');
  assert.equal(doc.runtime.fake, true);
  // The device's state under the model (the fake's 8 GiB; a temperature; no refused query).
  assert.equal(doc.health.devices.length, 1);
  assert.equal(doc.health.devices[0].ramTotalKib, 8 << 20);
  assert.equal(typeof doc.health.devices[0].temperatureC, 'number');
  assert.deepEqual(doc.health.devices[0].unavailable, []);
});

test('chat CLI --image: a VLM sees the image laid out as its frame', async () => {
  const png = new PNG({ width: 33, height: 20 });
  for (let i = 0; i < 33 * 20; i++) png.data.set([10, 20, 250, 255], i * 4);
  const image = join(setup.dir, 'blue.png');
  writeFileSync(image, PNG.sync.write(png));
  const r = await cli(['--image', image, setup.hefs.vlm, 'describe']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^You said: describe\. Image 1 means 10\.0\/20\.0\/250\.0/);
  assert.match(r.stderr, /hailo-tools: blue\.png \(33x20\) → 56x56 RGB UINT8 NHWC, 9408 bytes\n/);
});

test('chat CLI: Ctrl-C stops the answer (abort), prints what came, exit 1', async () => {
  let sent = false;
  const r = await cli([setup.hefs.llm, 'tell me a long story'], { FAKE_HAILORT_TOKENS_PER_S: '8' }, (_t, kill) => {
    if (!sent) {
      sent = true;
      kill('SIGINT');
    }
  });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^You/);
  assert.ok(!r.stdout.includes('tell me a long story.'), `the whole answer came: ${r.stdout}`);
  assert.match(r.stderr, /— stopped \(Ctrl-C\)\nhailo-tools: device \d+\.\d °C · memory [^\n]*\n$/);
});

test('chat CLI: a terminal escape in the answer is printed as text, not sent to the terminal', async () => {
  const r = await cli([setup.hefs.llm, '\u001b[31mred\u001b]0;title\u0007'], { FAKE_HAILORT_TOKENS_PER_S: '1000' });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes('\u001b'), JSON.stringify(r.stdout));
  assert.ok(r.stdout.startsWith('You said: \\u001b[31mred\\u001b]0;title\\u0007.'), JSON.stringify(r.stdout));
});

test('chat CLI refusals: one sentence each, exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['--temperature', '0', setup.hefs.llm, 'x'], /^hailo-tools chat: Temperature must be greater than 0 \(HailoRT refuses 0 and below with status 2\)\n$/],
    [['--max-tokens', '0', setup.hefs.llm, 'x'], /^hailo-tools chat: Max tokens must be a whole number from 1 to 4294967295\n$/],
    [['--top-p', '2', setup.hefs.llm, 'x'], /^hailo-tools chat: Top p must be between 0 and 1/],
    [[setup.hefs.llm], /^hailo-tools chat: expected a HEF and a prompt, got 1 argument\n/],
    [
      [setup.hefs.classifier, 'x'],
      /^hailo-tools: This HEF is not an LLM or VLM for HailoRT's GenAI API: none of its 1 network group \(efficientnet_lite0\) is a prefill group\./,
    ],
    [['--lora', 'writer', setup.hefs.lora, 'x'], /^hailo-tools: The HEF has no LoRA adapter 'writer': it has 'coder'\./],
    [['--image', join(setup.dir, 'missing.png'), setup.hefs.vlm, 'x'], /^hailo-tools: .*cannot read the input .*missing\.png: no such file/],
    [['--image', setup.hefs.llm, setup.hefs.vlm, 'x'], /qwen2-llm\.hef is neither PNG nor JPEG/],
    [[join(setup.dir, 'nope.hef'), 'x'], /^hailo-tools: The HEF was not read: cannot open '.*nope\.hef': no such file; check the path\./],
  ];
  for (const [args, re] of cases) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length === 1 || /usage:/.test(r.stderr), true, r.stderr);
  }
  const busy = await cli([setup.hefs.llm, 'x'], { FAKE_HAILORT_FAULT: 'kv-cache-busy' });
  assert.equal(busy.code, 2);
  assert.match(busy.stderr, /^hailo-tools: Another LLM or VLM holds the Hailo device/);
});

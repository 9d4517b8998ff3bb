// A chat that watches the device: the devices' state HailoRT reports under the model (temperature,
// memory, utilisation) and the answers' rates over the session, with a warning when they decay.
// The figures the users reported (tokens/s falling from 125 to 41, hailo-users-2026.md §1) set the
// pure cases; the fake libhailort slows as its context fills (FAKE_HAILORT_TPS_DECAY_MILLI), warms
// with every token and counts the model and its context in device memory (fake_hailort.cpp), so the
// worker path is checked against what the fake was told to do.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import type { DeviceState } from '../../server/src/core/device/protocol';
import { healthWarnings, rateLine, turnMessages, type AnswerFigures } from '../../server/src/core/genai';
import { ChatSession } from '../../server/src/processes/genai/session';
import { genaiSetup, LLM_CONFIG, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';

const answer = (tokensPerSecond: number, tokens = 60, usage = 0): AnswerFigures => ({
  firstTokenMs: 200,
  tokensPerSecond,
  tokens,
  context: { usage, capacity: 2048 },
});
const device = (used: number, total = 8 << 20): DeviceState => ({
  id: '0000:3c:00.0',
  temperatureC: 55,
  ramUsedKib: used,
  ramTotalKib: total,
  nncUtilization: 80,
  cpuUtilization: 20,
  unavailable: [],
});

test('health: the reported decay (125 → 41 tokens/s) warns, with the context in use; a small dip does not', () => {
  const decayed = [answer(125), answer(118), answer(120), answer(80, 60, 1200), answer(41, 60, 1900)];
  const w = healthWarnings(decayed);
  assert.equal(w.length, 1);
  assert.equal(
    w[0],
    'Generation slowed from 125.0 to 41.0 tokens/s over 5 answers with 1,900 of 2,048 context tokens in use: Clear the context; if it stays slow, close and reopen the model.',
  );
  assert.deepEqual(healthWarnings([answer(125), answer(118), answer(120), answer(100)]), []);
  // two answers are too few to call a trend; answers of a few tokens say nothing of the rate
  assert.deepEqual(healthWarnings([answer(125), answer(41)]), []);
  assert.deepEqual(healthWarnings([answer(125), answer(120), answer(118), answer(5, 3)]), []);
  assert.equal(rateLine(decayed), '41.0 tokens/s (first 125.0) · first token 200 ms');
});

test('health: device memory 90 % used or more warns, naming the device; below does not', () => {
  const w = healthWarnings([], [device(7.6 * (1 << 20))]);
  assert.equal(w.length, 1);
  assert.match(w[0], /^Device memory is 95 % used \(7\.6 of 8\.0 GiB on 0000:3c:00\.0\): a longer context or another model may fail to load/);
  assert.deepEqual(healthWarnings([], [device(4 << 20)]), []);
  assert.deepEqual(healthWarnings([], [{ ...device(0), ramUsedKib: null, ramTotalKib: null }]), []);
});

const WORKER = join(repoRoot, 'dist', 'deviceWorker.js');
let setup: GenAiSetup;
const clients: DeviceClient[] = [];
before(async () => {
  assert.ok(existsSync(WORKER), 'dist/deviceWorker.js is missing: run `npm run build` first');
  setup = await genaiSetup('genai-health');
});
after(() => {
  for (const c of clients) c.dispose();
  setup?.cleanup();
});

function client(extra: Record<string, string>): DeviceClient {
  const sysfs = join(setup.dir, 'sysfs');
  mkdirSync(join(sysfs, 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  const c = new DeviceClient({
    trust: commandLineTrust('test'),
    workerPath: WORKER,
    shim: setup.shim,
    env: { ...setup.env(extra), HAILO_TOOLS_SYSFS_ROOT: sysfs },
  });
  clients.push(c);
  return c;
}

test('a chat session reports the device warming and filling as it generates, and warns when the rate decays', async () => {
  const c = client({ FAKE_HAILORT_TOKENS_PER_S: '200', FAKE_HAILORT_TPS_DECAY_MILLI: '900', FAKE_HAILORT_PREFILL_MS: '5' });
  const session = await ChatSession.open(c, { hef: setup.hefs.llm, groupId: 'UNIQUE' });
  const before = await session.health();
  assert.equal(before.devices.length, 1);
  const d0 = before.devices[0];
  assert.deepEqual(d0.unavailable, []);
  assert.equal(d0.ramTotalKib, 8 << 20, 'the fake reports 8 GiB (its default)');
  assert.ok(d0.temperatureC !== null && d0.ramUsedKib !== null);
  assert.deepEqual(before.warnings, []);
  const capacity = LLM_CONFIG.pre_process_params.kv_cache_size;
  let usage = 0;
  for (let turn = 0; usage < 0.85 * capacity && turn < 30; turn++) {
    const a = await session.ask({ messages: turnMessages(`turn ${turn}`, 0), params: { maxTokens: 100, seed: turn, doSample: true } });
    assert.equal(a.error, undefined, a.error?.sentence);
    usage = a.context?.usage ?? usage;
  }
  const after = await session.health();
  const d1 = after.devices[0];
  assert.ok(d1.temperatureC! > d0.temperatureC!, `the chip warmed: ${d0.temperatureC} → ${d1.temperatureC} °C`);
  // The fake counts 128 KiB per context token: the context's growth shows in the memory used.
  assert.ok(d1.ramUsedKib! - d0.ramUsedKib! >= 128 * (usage - 1), `memory ${d0.ramUsedKib} → ${d1.ramUsedKib} KiB for ${usage} tokens`);
  const rates = session.answers.map((a) => a.tokensPerSecond!);
  assert.ok(rates[rates.length - 1] < 0.5 * rates[0], `the fake slowed as told: ${rates.map((r) => r.toFixed(0)).join(', ')}`);
  assert.equal(after.warnings.length, 1, after.warnings.join('\n'));
  assert.match(after.warnings[0], /^Generation slowed from \d+\.\d to \d+\.\d tokens\/s over \d+ answers with \d[\d,]* of 1,024 context tokens in use/);
  assert.match(after.line, /^\d+\.\d °C · memory \d+\.\d of 8\.0 GiB · NNC \d+ % · \d+\.\d tokens\/s \(first \d+\.\d\) · first token \d+ ms$/);
  await session.close();
});

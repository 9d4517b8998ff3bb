// The chat path's cost on top of the device: time to first token and tokens/s of one answer as the
// host sees it (ChatSession → DeviceClient IPC → the worker's pump of hts_genai_read in 50 ms
// slices → a worker event per chunk → the host), against the shim's own read loop in C++
// (hts_genai_generate_timed: generate and read to the end in one call, in the same worker, on the
// same model). The fake LLM streams 50 tokens/s after a 100 ms prefill (a Qwen2-1.5B-class model on
// a Hailo-10H answers at roughly that rate); 50 tokens per answer, greedy, alternating baseline and
// candidate on one open model, medians of 7 pairs. Target: < 5 % on both. The webview's own
// postMessage per chunk is not included (it needs a VS Code; the e2e sees tokens stream).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient } from '../server/src/processes/device/client';
import { commandLineTrust } from '../server/src/core/common/trust';
import { ChatSession } from '../server/src/processes/genai/session';
import { userMessage } from '../server/src/core/genai/messages';
import { genaiSetup } from '../test/helpers/genaiFixtures';
import { projectRoot as repoRoot } from '../test/helpers/projectRoot';
import { report } from './report';

const TOKENS = 50;
const PAIRS = 7;
const RATE = 50;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const worker = join(repoRoot, 'dist', 'deviceWorker.js');
  if (!existsSync(worker)) throw new Error('dist/deviceWorker.js is missing: run `npm run build` first');
  const setup = await genaiSetup('bench-genai');
  const client = new DeviceClient({
    trust: commandLineTrust('bench'),
    workerPath: worker,
    shim: setup.shim,
    env: setup.env({ FAKE_HAILORT_TOKENS_PER_S: String(RATE), FAKE_HAILORT_PREFILL_MS: '100' }),
  });
  try {
    const session = await ChatSession.open(client, { hef: setup.hefs.llm, groupId: 'UNIQUE' });
    // A long prompt: the answer ("You said: <prompt>." + filler) is longer than TOKENS, so every
    // run stops at max tokens after exactly TOKENS reads.
    const prompt = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const params = { maxTokens: TOKENS, doSample: false };
    const messages = [userMessage(prompt)];
    const base = { ttft: [] as number[], tps: [] as number[] };
    const cand = { ttft: [] as number[], tps: [] as number[] };
    const rss0 = process.memoryUsage().rss;
    for (let i = 0; i <= PAIRS; i++) {
      await session.clear();
      const b = await client.chatTimed({ session: session.info.session, messages, params, timeoutMs: 5000 });
      await session.clear();
      const a = await session.ask({ messages, params });
      if (a.reason !== 'max-tokens' || a.error) throw new Error(`the answer ended with ${a.reason}: ${a.error?.sentence ?? ''}`);
      if (i === 0) continue; // warm-up pair
      base.ttft.push(b.firstTokenMs);
      base.tps.push(((b.chunks - 1) * 1000) / (b.totalMs - b.firstTokenMs));
      cand.ttft.push(a.host.firstTokenMs!);
      cand.tps.push(a.host.tokensPerSecond!);
    }
    const rss = (process.memoryUsage().rss - rss0) / (1 << 20);
    await session.close();
    const ttftOver = (median(cand.ttft) - median(base.ttft)) / median(base.ttft);
    const tpsLoss = (median(base.tps) - median(cand.tps)) / median(base.tps);
    const load = (await import('node:os')).loadavg()[0].toFixed(1);
    report({
      figure: `genai: time to first token, host via worker + IPC vs the shim's C read loop (fake LLM ${RATE} tokens/s, 100 ms prefill, ${TOKENS} tokens, load ${load})`,
      target: '< 5 % more',
      measured: `${median(cand.ttft).toFixed(1)} vs ${median(base.ttft).toFixed(1)} ms: ${(ttftOver * 100).toFixed(2)} %; host RSS +${rss.toFixed(1)} MB`,
      ratio: 0.05 / Math.max(ttftOver, 0.0005),
    });
    report({
      figure: `genai: tokens/s, host via worker + IPC vs the shim's C read loop (fake LLM ${RATE} tokens/s, ${TOKENS} tokens, load ${load})`,
      target: '< 5 % fewer',
      measured: `${median(cand.tps).toFixed(2)} vs ${median(base.tps).toFixed(2)} tokens/s: ${(tpsLoss * 100).toFixed(2)} % fewer`,
      ratio: 0.05 / Math.max(tpsLoss, 0.0005),
    });
  } finally {
    client.dispose();
    setup.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

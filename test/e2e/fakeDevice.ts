// The fake HailoRT for the trusted e2e instance (bundled to out/e2e-*/device/fakeDevice.js so the
// helpers' repo root resolves): the fake libhailort built into its cached install prefix (the
// instance's machine-scoped `hailo.hailort.path` points at it; the extension compiles the real
// shim against it, as on a user's machine) and the facts file of the workspace's HEFs, which the
// simulated device reads (FAKE_HAILORT_* in the code-server environment).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeEnv, fakeHailortPrefix, writeFacts } from '../fakes/fakeHailort';
import { writeGenAiHefs } from '../helpers/genaiFixtures';
import { toneSamples, wavBytes } from '../helpers/wavWriter';
import { E2E_TONES } from './speechFixture';

export async function setupFakeDevice(workspace: string, dir: string): Promise<{ prefix: string; env: Record<string, string> }> {
  const prefix = fakeHailortPrefix();
  const hefs = readdirSync(workspace)
    .filter((f) => f.endsWith('.hef'))
    .map((f) => join(workspace, f));
  // GenAI HEFs for "Hailo: Chat with Model" (an LLM, a VLM, a classifier that is not one).
  const genai = join(workspace, 'e2e-fixtures', 'genai');
  mkdirSync(genai, { recursive: true });
  const chat = await writeGenAiHefs(genai);
  writeFileSync(join(genai, 'tones.wav'), wavBytes(toneSamples(E2E_TONES, 3, 44_100, 2), 44_100, 2, 'pcm16'));
  const facts = join(dir, 'fake-device-facts.tsv');
  await writeFacts([...hefs, ...chat.all], facts);
  // 10 tokens/s: an answer takes seconds, so the e2e sees it stream and can stop it.
  return { prefix, env: fakeEnv(facts, { FAKE_HAILORT_TOKENS_PER_S: '10', FAKE_HAILORT_PREFILL_MS: '200' }) };
}

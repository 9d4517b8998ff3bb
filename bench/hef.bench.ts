// HEF figures: facts + mtmd contract per corpus HEF (target < 20 ms in-process, warm), and full
// XXH3 verification throughput on a large generated V3 HEF under bench/.data (target ≥ 1 GB/s).
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createXXHash3 } from 'hash-wasm';
import { checkMtmdSource, fileSource, readHef, isIntact, withFileSource } from '../server/src/core/hef';
import { readHefHwArch } from '../server/src/core/hef/hwArch';
import { buildHef } from '../test/helpers/hefBuilder';
import { FIXTURES } from '../test/helpers/hefBuilderFixtures';
import { nowMs, report, rssMB } from './report';

const root = join(__dirname, '..', '..');
const BIG_BYTES = 1 << 30; // 1 GiB of CCWs

async function factsAndContract(path: string): Promise<void> {
  const src = await fileSource(path);
  try {
    const r = await readHef(src);
    await checkMtmdSource(src, r);
  } finally {
    await src.close();
  }
}

async function medianMsAsync(fn: () => Promise<void>, runs = 15, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = nowMs();
    await fn();
    t.push(nowMs() - s);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}

/** Writes a V3 HEF with `ccws` bytes of CCWs, streaming (and hashing) as it goes. */
async function generateBig(path: string, ccws: number): Promise<void> {
  // Body of an encoder fixture without resources (their offsets would land in the new CCWs):
  // header, proto, padding, then a large CCW section.
  const small = await buildHef(FIXTURES.find((f) => f.file === 'mtmd-fail-config-embedded.hef')!.spec);
  const view = new DataView(small.buffer, small.byteOffset);
  const protoSize = view.getUint32(8);
  const padding = view.getUint32(28);
  const head = small.subarray(56, 56 + protoSize + padding);
  const tail = new Uint8Array(80);
  const full = await createXXHash3();
  full.init();
  const fh = await open(path, 'w');
  try {
    let pos = 56;
    const write = async (b: Uint8Array) => {
      full.update(b);
      await fh.write(b, 0, b.length, pos);
      pos += b.length;
    };
    await write(head);
    const chunk = new Uint8Array(8 << 20);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
    for (let left = ccws; left > 0; left -= chunk.length) await write(chunk.subarray(0, Math.min(left, chunk.length)));
    await write(tail);
    const header = new Uint8Array(56);
    header.set(small.subarray(0, 56));
    const hv = new DataView(header.buffer);
    hv.setBigUint64(12, BigInt('0x' + full.digest('hex')));
    hv.setBigUint64(20, BigInt(padding + ccws));
    hv.setBigUint64(32, BigInt(tail.length));
    await fh.write(header, 0, 56, 0);
  } finally {
    await fh.close();
  }
}

async function main() {
  // 1. Facts + contract per corpus HEF (and per built fixture, so the figure exists without ../shared).
  // (test/helpers/shared.ts assumes the test bundle's depth; the bench bundle sits elsewhere.)
  const dir = [process.env.HAILO_SHARED_DIR, join(root, '..', 'shared')]
    .filter((p): p is string => !!p)
    .map((p) => join(p, 'corpus', 'hef'))
    .find((p) => existsSync(p));
  const files: string[] = [];
  if (dir)
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.hef'))
      .sort())
      files.push(join(dir, f));
  else process.stderr.write('NOTE: ../shared is absent; timing the built fixtures only\n');
  files.push(join(root, 'test', 'fixtures', 'hef', 'mtmd-pass.hef'));
  for (const f of files) {
    const ms = await medianMsAsync(() => factsAndContract(f));
    const name = f.split('/').pop()!;
    report({
      figure: `HEF facts + contract: ${name} (${(statSync(f).size / 1048576).toFixed(1)} MB)`,
      target: '< 20 ms',
      measured: `${ms.toFixed(2)} ms`,
      ratio: 20 / ms,
    });
  }

  // 1b. The architecture of a script from the HEF beside it (server/src/core/hef/hwArch.ts): header and
  // at most 64 KiB of the body, against the full reader (no checksums) in the same run, on the
  // largest-bodied corpus HEF. It runs once per HEF version while a script is edited.
  const withBody = files.filter((f) => f.includes('arcface') || f.includes('face_landmarks')).slice(0, 1)[0] ?? files[files.length - 1];
  const archMs = await medianMsAsync(() => withFileSource(withBody, async (src) => void (await readHefHwArch(src))));
  const fullMs = await medianMsAsync(() => withFileSource(withBody, async (src) => void (await readHef(src, { verify: false, verifyResources: false }))));
  report({
    figure: `HEF hw_arch for a script's architecture: ${withBody.split('/').pop()} (full facts without checksums ${fullMs.toFixed(2)} ms, ${(fullMs / archMs).toFixed(1)}× slower)`,
    target: '< 2 ms',
    measured: `${archMs.toFixed(2)} ms`,
    ratio: 2 / archMs,
  });

  // 2. Full XXH3 verification throughput on a large file (generated once, kept under bench/.data).
  const dataDir = join(root, 'bench', '.data');
  mkdirSync(dataDir, { recursive: true });
  const big = join(dataDir, 'hef-1g.hef');
  if (!existsSync(big) || statSync(big).size < BIG_BYTES) {
    process.stderr.write(`bench: generating ${big} (1 GiB of CCWs) …\n`);
    await generateBig(big, BIG_BYTES);
  }
  const size = statSync(big).size;
  // Warm the page cache, then time the whole read (container + full XXH3 + proto XXH3 + body).
  await factsAndContract(big);
  const times: number[] = [];
  const rssBefore = rssMB();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMB())), 5);
  for (let i = 0; i < 3; i++) {
    const src = await fileSource(big);
    const s = nowMs();
    const r = await readHef(src);
    times.push(nowMs() - s);
    await src.close();
    if (!isIntact(r)) throw new Error(`generated HEF does not verify: ${r.integrity.detail}`);
  }
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssMB());
  times.sort((a, b) => a - b);
  const ms = times[1];
  report({
    figure: 'HEF 1 GiB verification: RSS growth (CCWs streamed, never loaded)',
    target: '< 64 MB',
    measured: `${(rssPeak - rssBefore).toFixed(1)} MB`,
    ratio: 64 / Math.max(1, rssPeak - rssBefore),
  });
  const gbps = size / 1e9 / (ms / 1000);
  report({
    figure: `HEF full XXH3 verification (${(size / 1073741824).toFixed(2)} GiB file, warm cache)`,
    target: '≥ 1 GB/s',
    measured: `${gbps.toFixed(2)} GB/s`,
    ratio: gbps / 1,
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

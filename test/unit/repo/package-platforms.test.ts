// Issue 37: `npm run package` makes one package per platform HailoRT runs on, each with koffi's
// binary for its platform and nothing of the others, and a universal one with none. Checked on the
// .vsix files themselves (listed with yauzl), the binary's platform read from its own ELF header
// (e_machine: 62 x86-64, 183 AArch64 — the ELF specification / elf.h), the target from the
// manifest VS Code reads (extension.vsixmanifest's TargetPlatform).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';
import { vsixEntries, vsixEntry } from '../../helpers/vsix';

const E_MACHINE: Record<string, number> = { 'linux-x64': 62, 'linux-arm64': 183 };
const TARGETS = ['linux-x64', 'linux-arm64'];
let out: string;
const entries = new Map<string, string[]>();

before(async () => {
  assert.ok(existsSync(join(repoRoot, 'dist', 'deviceWorker.js')), 'dist/ is missing: node esbuild.mjs (test/run.mjs builds it)');
  out = mkdtempSync(join(tmpdir(), 'hailo-tools-package-'));
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'package.mjs'), '--no-build', '--out-dir', out], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, `scripts/package.mjs failed:\n${r.stdout}${r.stderr}`);
  for (const t of [...TARGETS, 'universal']) entries.set(t, await vsixEntries(join(out, `hailo-tools-${t}.vsix`)));
});
after(() => rmSync(out, { recursive: true, force: true }));

const natives = (names: string[]) => names.filter((n) => n.endsWith('.node') || n.includes('/@koromix/'));

for (const t of TARGETS) {
  test(`hailo-tools-${t}.vsix carries koffi's binary for ${t} and nothing of another platform`, async () => {
    const file = join(out, `hailo-tools-${t}.vsix`);
    const names = entries.get(t)!;
    const dir = `extension/dist/@koromix/koffi-${t}`;
    const binary = `${dir}/${t.replace('-', '_')}/koffi.node`;
    assert.deepEqual(natives(names), [`${dir}/index.js`, binary, `${dir}/package.json`].sort());
    const elf = await vsixEntry(file, binary);
    assert.equal(elf.subarray(0, 4).toString('latin1'), '\x7fELF');
    assert.equal(elf.readUInt16LE(18), E_MACHINE[t], `${binary} is not a ${t} ELF`);
    // koffi's platform loader picks the binary by libc: the glibc one must be what it names.
    assert.match((await vsixEntry(file, `${dir}/index.js`)).toString('utf8'), new RegExp(`glibc: "\\./${t.replace('-', '_')}/koffi\\.node"`));
    assert.match((await vsixEntry(file, 'extension.vsixmanifest')).toString('utf8'), new RegExp(`TargetPlatform="${t}"`));
  });
}

test('the universal package carries no native binary and names no target', async () => {
  const file = join(out, 'hailo-tools-universal.vsix');
  assert.deepEqual(natives(entries.get('universal')!), []);
  assert.doesNotMatch((await vsixEntry(file, 'extension.vsixmanifest')).toString('utf8'), /TargetPlatform=/);
});

test('apart from the native binaries the packages hold the same files, koffi loader and worker included', () => {
  const rest = (t: string) => entries.get(t)!.filter((n) => !natives([n]).length && n !== 'extension.vsixmanifest');
  for (const t of TARGETS) assert.deepEqual(rest(t), rest('universal'), `${t} differs from the universal package`);
  for (const needed of [
    'extension/dist/deviceWorker.js',
    'extension/dist/koffi/index.cjs',
    'extension/dist/koffi/src/koffi/index.cjs',
    'extension/dist/native/hailo_shim.cpp',
  ])
    assert.ok(rest('universal').includes(needed), `${needed} missing`);
});

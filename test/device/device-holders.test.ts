// Who holds the device, as `lsof /dev/hailo*` would say: processes with a Hailo device node open
// under a fake /proc (test/fakes/procfs.ts: links made there, never followed), and what the user
// is told to do. The advice comes from users' reports and Hailo's own README (hailo-users-2026.md §1 theme 9:
// `systemctl stop hailo-ollama`, HAILO_OLLAMA_VDEVICE_GROUP_ID=SHARED with HailoRT 5.3+).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceHolders, holderSentence } from '../../server/src/core/doctor/holders';
import { genaiSetup, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';
import { toneSamples, wavBytes } from '../helpers/wavWriter';
import { fakeProcess } from '../fakes/procfs';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'holders-'));
  fakeProcess(root, 4242, { comm: 'hailo-ollama', cmdline: ['/usr/bin/hailo-ollama', 'serve'], fds: ['/dev/h1x-0', '/dev/null', 'socket:[123]'] });
  fakeProcess(root, 777, { comm: 'python3', cmdline: ['python3', 'detect.py'], fds: ['/dev/hailo0'] });
  fakeProcess(root, 99, { comm: 'bash', cmdline: ['bash'], fds: ['/dev/pts/0', '/home/u/hailo0'] });
  mkdirSync(join(root, 'proc', 'self'), { recursive: true });
});
after(() => rmSync(root, { recursive: true, force: true }));

test('holders: the processes with /dev/h1x-N, /dev/hailoN open, by pid, with their command; others and non-device links ignored', () => {
  const h = deviceHolders(root, 1);
  assert.deepEqual(
    h.map((x) => [x.pid, x.name, x.command, x.nodes]),
    [
      [777, 'python3', 'python3 detect.py', ['/dev/hailo0']],
      [4242, 'hailo-ollama', '/usr/bin/hailo-ollama serve', ['/dev/h1x-0']],
    ],
  );
  assert.deepEqual(
    deviceHolders(root, 4242).map((x) => x.pid),
    [777],
    'this process itself is not a holder',
  );
});

test('holders: hailo-ollama — stop its service, or share with HAILO_OLLAMA_VDEVICE_GROUP_ID on 5.3+, or the group id it runs with', () => {
  const ollama = deviceHolders(root, 1).filter((x) => x.name === 'hailo-ollama');
  const on53 = holderSentence(ollama, 'UNIQUE', '5.3.0')!;
  assert.match(on53, /^hailo-ollama \(pid 4242, `\/usr\/bin\/hailo-ollama serve`\) holds \/dev\/h1x-0: stop it \(`sudo systemctl stop hailo-ollama`/);
  assert.match(on53, /restart hailo-ollama with HAILO_OLLAMA_VDEVICE_GROUP_ID=SHARED and set hailo\.device\.groupId \(CLI --group-id\) to SHARED/);
  assert.match(holderSentence(ollama, 'UNIQUE', '5.2.0')!, /upgrade to HailoRT 5\.3 or newer to share the device with hailo-ollama/);
  assert.match(
    holderSentence([{ ...ollama[0], ollamaGroupId: 'team' }], 'UNIQUE', '5.4.0')!,
    /set hailo\.device\.groupId \(CLI --group-id\) to team, the group id hailo-ollama was started with/,
  );
  const other = holderSentence(deviceHolders(root, 4242), 'SHARED', '4.23.0')!;
  assert.match(
    other,
    /^python3 \(pid 777, `python3 detect\.py`\) holds \/dev\/hailo0: close that program, or give both the same group id .* this side asked for 'SHARED'/,
  );
  assert.equal(holderSentence([], 'UNIQUE', '5.2.0'), undefined);
});

test('holders: HAILO_OLLAMA_VDEVICE_GROUP_ID is read from the holder environment', () => {
  const r = mkdtempSync(join(tmpdir(), 'holders-env-'));
  try {
    fakeProcess(r, 55, {
      comm: 'hailo-ollama',
      cmdline: ['hailo-ollama'],
      fds: ['/dev/h1x-0'],
      environ: ['PATH=/bin', 'HAILO_OLLAMA_VDEVICE_GROUP_ID=SHARED'],
    });
    assert.equal(deviceHolders(r, 1)[0].ollamaGroupId, 'SHARED');
  } finally {
    rmSync(r, { recursive: true, force: true });
  }
});

let setup: GenAiSetup;
before(async () => {
  setup = await genaiSetup('holders-cli');
  mkdirSync(join(setup.dir, 'sysfs', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  fakeProcess(join(setup.dir, 'sysfs'), 4242, { comm: 'hailo-ollama', cmdline: ['/usr/bin/hailo-ollama', 'serve'], fds: ['/dev/h1x-0'] });
});
after(() => setup?.cleanup());

function cli(args: string[], extra: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const env = { ...process.env, ...setup.env(extra), HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'sysfs') };
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { env, cwd: setup.dir });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stderr }));
  });
}

test('a chat or a transcription that finds the device held names the holder and what to do, instead of a bare "busy"', async () => {
  const chat = await cli(['chat', setup.hefs.llm, 'hi'], { FAKE_HAILORT_FAULT: 'kv-cache-busy' });
  assert.equal(chat.code, 2, chat.stderr);
  assert.match(
    chat.stderr,
    /Another LLM or VLM holds the Hailo device \(HailoRT runs one at a time\): hailo-ollama \(pid 4242, `\/usr\/bin\/hailo-ollama serve`\) holds \/dev\/h1x-0: stop it/,
  );
  const wav = join(setup.dir, 'tone.wav');
  writeFileSync(wav, wavBytes(toneSamples([{ start: 0.1, end: 0.5, hz: 440 }], 1, 16_000, 1), 16_000, 1, 'pcm16'));
  const speech = await cli(['transcribe', setup.hefs.speech.whisper, wav], { FAKE_HAILORT_FAULT: 'busy', FAKE_HAILORT_BUSY_WAIT_MS: '0' });
  assert.equal(speech.code, 2, speech.stderr);
  assert.match(
    speech.stderr,
    /The Hailo device is busy: hailo-ollama \(pid 4242, `\/usr\/bin\/hailo-ollama serve`\) holds \/dev\/h1x-0: stop it \(`sudo systemctl stop hailo-ollama`/,
  );
  const run = await cli(['run', '--frames', '1', setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'busy', FAKE_HAILORT_BUSY_WAIT_MS: '0' });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /The Hailo device is busy: hailo-ollama \(pid 4242/);
});

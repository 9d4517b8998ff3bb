// The emulator's docker queries are shared by the runs of a sweep (EmulatorEnv.queryCache, as the
// compile runner's are): one run's cancel must not end the answer the other runs wait on. A scripted
// launcher holds `docker version` open while one of two emulations sharing the cache is cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { runEmulator } from '../../../server/src/processes/accuracy/emulator';
import type { Captured, LaunchedProcess, ProcessExit, ProcessLauncher } from '../../../server/src/processes/compile/process';
import type { DockerSettings } from '../../../server/src/processes/compile/runner';

test('emulator: a cancelled run does not kill the shared docker version the other run of the sweep waits on', async () => {
  const asked: string[][] = [];
  let versionKilled = false;
  let answerVersion: (() => void) | undefined;
  const launch: ProcessLauncher = (_file, args) => {
    asked.push([...args]);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let done: (e: ProcessExit) => void = () => {};
    const exit = new Promise<ProcessExit>((r) => (done = r));
    const finish = (code: number | null, out = '', err = '') => {
      stdout.end(out);
      stderr.end(err);
      done({ code, signal: code === null ? 'SIGTERM' : null });
    };
    const isVersion = args.includes('version');
    const p: LaunchedProcess = {
      stdout,
      stderr,
      stdin: null,
      exit,
      kill: () => {
        if (isVersion) versionKilled = true;
        finish(null);
      },
    };
    // `docker version` answers when the test says so; everything after it is refused, which ends both runs.
    if (isVersion) answerVersion = () => finish(0, 'Client: 27.0.0\nServer: 27.0.0\n');
    else setImmediate(() => finish(1, '', 'context "x" does not exist'));
    return p;
  };
  const queryCache = new Map<string, Promise<Captured>>();
  const request = { har: '/nowhere/m.har', inputs: '/nowhere/in.npy', contexts: ['native'] as const, workDir: '/tmp' };
  const settings: DockerSettings = { dockerPath: 'docker', image: 'hailo-ai-sw-suite:test', gpus: 'none', extraRunArgs: [] };
  const cancel = new AbortController();
  const first = runEmulator(request, settings, { launch, driverDir: '/nowhere', signal: cancel.signal, queryCache });
  const second = runEmulator(request, settings, { launch, driverDir: '/nowhere', queryCache });
  await new Promise((r) => setImmediate(r));
  assert.equal(asked.filter((a) => a.includes('version')).length, 1, 'both runs wait on one docker version');
  cancel.abort();
  await new Promise((r) => setImmediate(r));
  assert.equal(versionKilled, false, "the cancelled run's abort reached the shared docker version");
  answerVersion!();
  await Promise.all([first, second]);
  assert.ok(
    asked.some((a) => a.includes('context') && a.includes('inspect')),
    'the run that was not cancelled got the version answer and went on to the next query',
  );
});

// `npm start` on a fresh machine (test/e2e/open.mjs, its last step): when code-server is not in the
// cache yet it is set up first and the browser VS Code then opens — no third command to type. The
// set-up and the opening are injected here, so this runs without the network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../helpers/projectRoot';

interface StartDeps {
  installed: () => boolean;
  setup: () => void;
  open: () => Promise<number>;
  say: (line: string) => void;
}
type Start = (deps: StartDeps) => Promise<number>;

// A computed path: esbuild leaves the import to node, which loads the real ES module.
const openModule = pathToFileURL(join(projectRoot, 'test', 'e2e', 'open.mjs')).href;
async function loadStart(): Promise<Start> {
  const mod = (await import(openModule)) as { start: Start };
  return mod.start;
}

function recorder(installed: boolean, setupError?: Error) {
  const steps: string[] = [];
  const lines: string[] = [];
  const deps: StartDeps = {
    installed: () => installed,
    setup: () => {
      steps.push('setup');
      if (setupError) throw setupError;
    },
    open: () => {
      steps.push('open');
      return Promise.resolve(0);
    },
    say: (line) => lines.push(line),
  };
  return { steps, lines, deps };
}

test('npm start: code-server absent → it is set up, then the browser VS Code opens', async () => {
  const start = await loadStart();
  const { steps, lines, deps } = recorder(false);
  assert.equal(await start(deps), 0);
  assert.deepEqual(steps, ['setup', 'open']);
  assert.ok(
    lines.some((l) => /First run: setting up code-server/.test(l)),
    lines.join('\n'),
  );
  assert.ok(!lines.some((l) => /node test\/e2e\/setup\.mjs && npm start/.test(l)), 'no third command is asked for');
});

test('npm start: code-server already set up → it opens straight away', async () => {
  const start = await loadStart();
  const { steps, deps } = recorder(true);
  assert.equal(await start(deps), 0);
  assert.deepEqual(steps, ['open']);
});

test('npm start: a set-up that fails stops before opening, with one sentence naming the way on', async () => {
  const start = await loadStart();
  const { steps, deps } = recorder(false, new Error('ripgrep is missing: apt-get install ripgrep'));
  await assert.rejects(start(deps), (err: Error) => {
    assert.match(err.message, /setting up code-server failed: ripgrep is missing: apt-get install ripgrep\. Fix that, then run `npm start` again/);
    return true;
  });
  assert.deepEqual(steps, ['setup']);
});

// Every sub-command's argument errors, over the commands `hailo-tools --help` lists and the options
// each one's own --help names: an unknown option, an option missing its value, a value given to a
// flag — each one sentence naming the command, then the command's usage, exit 2 — and every
// option's `--opt=value` form accepted like `--opt value` (cli/args.ts, node's util.parseArgs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../server/src/cli/main';

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

/** The command names of the top-level help's table. */
async function commands(): Promise<string[]> {
  const help = (await run('--help')).out;
  const block = help.split('\ncommands:\n')[1];
  return block
    .split('\n\n')[0]
    .split('\n')
    .map((l) => /^ {2}([a-z-]+) {2,}/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
}

/** The options a help text names: `  --name ARG  …` rows and `--name=ARG` in its prose. */
function optionsOf(help: string): { values: string[]; flags: string[] } {
  const values = new Set<string>();
  const flags = new Set<string>();
  for (const line of help.split('\n')) {
    // A row's name part: "--hw-arch ARCH", "--greedy, --sample", "-h, --help".
    const row = /^ {2}(-\S.*?)(?: {2,}|$)/.exec(line)?.[1];
    if (!row) continue;
    for (const part of row.split(', ')) {
      const m = /^--([a-z][a-z-]*)(?: (\S+))?$/.exec(part);
      if (m) (m[2] ? values : flags).add(m[1]);
    }
  }
  for (const m of help.matchAll(/--([a-z][a-z-]*)=[A-Z]+/g)) values.add(m[1]);
  flags.delete('help');
  return { values: [...values], flags: [...flags] };
}

/** stderr of a usage error: "hailo-tools CMD: <one sentence>", a blank line, the usage. */
function assertUsageError(r: { code: number; out: string; err: string }, command: string, usage: string, sentence: RegExp, what: string) {
  assert.equal(r.code, 2, `${what}: exit 2 (${r.err})`);
  assert.equal(r.out, '', `${what}: nothing on stdout`);
  const [first, ...rest] = r.err.split('\n');
  assert.match(first, new RegExp(`^hailo-tools ${command}: `), what);
  assert.match(first.slice(`hailo-tools ${command}: `.length), sentence, what);
  assert.equal(rest.join('\n'), `\n${usage}`, `${what}: the sentence is followed by the command's usage`);
}

test('cli arguments: every command answers an unknown option, a missing value and a value given to a flag with one sentence, its usage and exit 2', async () => {
  const names = await commands();
  assert.ok(names.length >= 20, names.join(' '));
  let values = 0;
  for (const command of names) {
    const usage = (await run(command, '--help')).out;
    assertUsageError(await run(command, '--no-such-option'), command, usage, /^unknown option '--no-such-option'$/, `${command} --no-such-option`);
    assertUsageError(await run(command, '--no-such-option=3'), command, usage, /^unknown option '--no-such-option'$/, `${command} --no-such-option=3`);
    const opts = optionsOf(usage);
    for (const opt of opts.values) {
      values++;
      const what = `${command} --${opt} (no value)`;
      assertUsageError(await run(command, `--${opt}`), command, usage, new RegExp(`^--${opt}\\b.*\\bneeds\\b`), what);
      // Another of its own options is not taken for the value.
      const other = opts.flags[0];
      if (other) assertUsageError(await run(command, `--${opt}`, `--${other}`), command, usage, new RegExp(`^--${opt}\\b.*\\bneeds\\b`), `${what} --${other}`);
    }
    for (const flag of opts.flags) {
      assertUsageError(await run(command, `--${flag}=yes`), command, usage, new RegExp(`^--${flag} takes no value$`), `${command} --${flag}=yes`);
    }
    // -h / --help wins wherever it stands.
    const late = await run(command, '--no-such-option', '-h');
    assert.equal(late.code, 0, `${command} --no-such-option -h`);
    assert.equal(late.out, usage, `${command} --no-such-option -h`);
  }
  assert.ok(values >= 60, `value options found in the help texts: ${values}`);
});

test('cli arguments: every value option takes the --opt=value form as it takes --opt value', async () => {
  for (const command of await commands()) {
    const usage = (await run(command, '--help')).out;
    for (const opt of optionsOf(usage).values) {
      // The unknown option after it is the only complaint: the value option itself was accepted.
      for (const form of [[`--${opt}=x`], [`--${opt}`, 'x'], [`--${opt}=-x`]]) {
        const what = `${command} ${form.join(' ')}`;
        assertUsageError(await run(command, ...form, '--no-such-option'), command, usage, /^unknown option '--no-such-option'$/, what);
      }
    }
  }
});

test('cli arguments: a value may start with a dash unless it is one of the command own options (a docker argument)', async () => {
  const usage = (await run('compile', '--help')).out;
  // --docker-arg --shm-size=16g: a docker argument, taken as the value.
  assertUsageError(
    await run('compile', '--docker-arg', '--shm-size=16g', '--no-such-option'),
    'compile',
    usage,
    /^unknown option '--no-such-option'$/,
    'docker-arg',
  );
  // --hw-arch --json: --json is compile's own flag, so --hw-arch has no value.
  assertUsageError(await run('compile', '--hw-arch', '--json', 'm.onnx'), 'compile', usage, /^--hw-arch needs a value$/, 'hw-arch --json');
  // After --, everything is a positional.
  const r = await run('check', '--', '--not-an-option.alls');
  assert.equal(r.code, 2);
  assert.match(r.err, /^hailo-tools check: --not-an-option\.alls: no such file or folder\n$/m);
});

// The shells' prompts users paste their runs with, beyond bash's and zsh's defaults (normalise.ts SHELL_PROMPT, one
// pattern): oh-my-zsh's default theme, starship, PowerShell, fish, a Jupyter/IPython cell's `!` and `%`, Windows cmd.
// Each form as its project documents it (cited per form); each decides a reading: the same program run again at the
// prompt after a failure is a retry, whose answer decides the run (state.ts), and a command at a prompt quotes its
// arguments — never a line the program printed (normalise.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { SHELL_PROMPT } from '../../../server/src/core/dfc/normalise';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.code} ${d.message}`).join(' | ');

/** Each prompt form with a command typed at it. */
const FORMS: { name: string; at: (command: string) => string }[] = [
  // ohmyzsh themes/robbyrussell.zsh-theme: `➜ ` (green, red after a failure), a space, `%c`, then git_prompt_info —
  // `git:(` branch `)`, and ` ✗` when the tree is dirty — and its trailing space.
  { name: "oh-my-zsh's default theme in a dirty git tree", at: (c) => `➜  hailo-apps git:(main) ✗ ${c}` },
  { name: "oh-my-zsh's default theme outside git", at: (c) => `➜  ~ ${c}` },
  // https://starship.rs/config/#character: the character module's default success and error symbol `❯`.
  { name: "starship's prompt", at: (c) => `❯ ${c}` },
  // PowerShell's built-in prompt function: "PS $($executionContext.SessionState.Path.CurrentLocation)$('>' * ($nestedPromptLevel + 1)) "
  // (https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_prompts).
  { name: "PowerShell's prompt in a venv", at: (c) => `(venv) PS C:\\Users\\dev\\hailo> ${c}` },
  // fish-shell share/functions/fish_fallback_prompt.fish and the Classic sample prompt: "$USER" @ host ' ' cwd '>' ' '.
  { name: "fish's prompt", at: (c) => `dev@raspberrypi ~/hailo-rpi5-examples> ${c}` },
  // IPython: `!cmd` runs a shell command (https://ipython.readthedocs.io/en/stable/interactive/python-ipython-diff.html).
  { name: "a Jupyter cell's shell command", at: (c) => `!${c}` },
  // Windows cmd.exe: the default PROMPT is $P$G (drive and path, then `>`), the command typed right after it.
  { name: "Windows cmd's prompt", at: (c) => `C:\\Users\\dev\\hailo>${c}` },
];

// hailortcli without its driver, then with it: two real pastes (dfc-corpus unseen3/11, library file id 53957780495;
// hailo-ai/hailo-rpi5-examples#98, Kletternaut's comment of 2025-02-02), as dfc-got-past.test.ts reads them at bash's prompt.
const FAILED = [
  "[HailoRT] [error] Can't find hailort driver class. Can happen if the driver is not installed, if the kernel was updated or on some driver failure (then read driver dmesg log)",
  '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_NOT_INSTALLED(64) - Failed listing hailo devices',
  '[HailoRT CLI] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_NOT_INSTALLED(64)',
];
const ANSWERED = [
  'Executing on device: 0000:03:00.0',
  'Identifying board',
  'Control Protocol Version: 2',
  'Firmware Version: 4.20.0 (release,app,extended context switch buffer)',
  'Logger Version: 0',
  'Board Name: Hailo-8',
  'Device Architecture: HAILO8L',
];
const IDENTIFY = 'hailortcli fw-control identify';

for (const form of FORMS) {
  test(`${form.name}: the prompt names its program, and the same program run again there after a failure decides`, () => {
    assert.equal(SHELL_PROMPT.exec(form.at(IDENTIFY))?.[1], 'hailortcli', form.at(IDENTIFY));
    assert.equal(SHELL_PROMPT.exec(form.at('sudo /usr/bin/hailortcli scan'))?.[1], 'hailortcli');
    const failed = read([form.at(IDENTIFY), ...FAILED]);
    assert.equal(failed.outcome, 'failed', said(failed));
    const retried = read([form.at(IDENTIFY), ...FAILED, '', form.at(IDENTIFY), ...ANSWERED]);
    assert.equal(retried.outcome, 'success', said(retried));
    assert.ok(!retried.diagnostics.some((d) => d.severity === 'error'), said(retried));
  });
}

test("a Jupyter cell's line magic: `%run` again after a fix decides, as a shell's retry does", () => {
  // A line magic takes the rest of the line as its argument (IPython's python-ipython-diff.html, `%shell like --syntax`).
  assert.equal(SHELL_PROMPT.exec('%run check_hailo.py')?.[1], 'run');
  assert.equal(SHELL_PROMPT.exec('%pip install hailort-4.23.0-cp311-cp311-linux_aarch64.whl')?.[1], 'pip');
  // The import failure and the ready line of dfc-corpus unseen13/52 (library file id 53819538557), in a notebook's cells.
  const r = read([
    '%run check_hailo.py',
    "ModuleNotFoundError: No module named 'hailo_platform'",
    '%pip install hailort-4.23.0-cp311-cp311-linux_aarch64.whl',
    '%run check_hailo.py',
    'Hailo Python ready',
  ]);
  assert.equal(r.outcome, 'success', said(r));
  assert.match(said(r), /An earlier run in this log failed[^|]*No module named 'hailo_platform'/);
});

test("at any of these prompts a command's quoted words are its arguments, not a line it printed", () => {
  for (const form of FORMS) {
    const r = read([form.at(`python -c 'import hailo_platform; print("Hailo Python ready")'`)]);
    assert.notEqual(r.outcome, 'success', `${form.name}: ${said(r)}`);
  }
});

test('lines that only look like a prompt are no prompt', () => {
  for (const line of [
    '  ➜  Local:   http://localhost:5173/', // Vite's dev server banner: an arrow, no directory
    '>>> import hailo_platform', // Python's REPL: no shell
    'conv1 -> conv2',
    '![board](hailo8.png)', // a markdown image
    'Error: C:\\models\\yolov8n.onnx failed',
  ])
    assert.equal(SHELL_PROMPT.exec(line.trim()), null, line);
});

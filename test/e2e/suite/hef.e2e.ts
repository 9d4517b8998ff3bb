// HEF inline checks in VS Code: with hailo.hef.inlineChecks = always (set by the workspace's
// settings.json — a resource-scoped setting a folder may set), every top-level HEF's failed mtmd
// rules appear as problems, the same rules the CLI reports; the passing encoder has none.
// Reading only: runs in Restricted Mode too.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { nextPublication, workspaceFile, deadlineMs } from './host';

const RECHECK_HEFS_COMMAND = 'hailo.recheckHefFiles';

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);

function expectedFailures(): Record<string, string[]> {
  const file = process.env.HAILO_E2E_EXPECTED;
  if (!file) throw new Error('HAILO_E2E_EXPECTED is not set (run through test/e2e/run.mjs or electron.mjs)');
  return (JSON.parse(readFileSync(file, 'utf8')) as { hef: Record<string, string[]> }).hef;
}

describe('HEF inline checks', () => {
  it('every workspace HEF is checked: failed contract rules are problems, as the CLI reports them; passing ones publish none', async () => {
    assert.equal(vscode.workspace.getConfiguration('hailo').get('hef.inlineChecks'), 'always', 'the folder setting applies');
    const expected = expectedFailures();
    const names = Object.keys(expected);
    assert.ok(
      names.some((n) => expected[n].length > 0) && names.some((n) => expected[n].length === 0),
      `a failing and a passing example HEF: ${JSON.stringify(expected)}`,
    );
    // Listen first, then ask the server to check every HEF again: each one is published (an empty
    // list too), so "no problems" is an answer, not the absence of one. A timeout fails.
    const published = names.map((name) => nextPublication(workspaceFile(name), deadlineMs(2)));
    assert.equal(await vscode.commands.executeCommand(RECHECK_HEFS_COMMAND), true, 'the language server took the request');
    const lists = await Promise.all(published);
    names.forEach((name, i) => {
      const mtmd = lists[i]
        .filter((d) => codeOf(d).startsWith('mtmd/'))
        .map(codeOf)
        .sort();
      assert.deepEqual(mtmd, expected[name].map((id) => `mtmd/${id}`).sort(), name);
      if (expected[name].length === 0) {
        const errors = lists[i].filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
        assert.deepEqual(errors.map(codeOf), [], `${name} passes the contract`);
      }
    });
  });
});

// HEF inline checks in VS Code: with hailo.hef.inlineChecks = always (set by the workspace's
// settings.json — a resource-scoped setting a folder may set), every top-level HEF's failed mtmd
// rules appear as problems, the same rules the CLI reports; the passing encoder has none.
// Reading only: runs in Restricted Mode too.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { waitForDiagnostics, workspaceFile } from './host';

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);

function expectedFailures(): Record<string, string[]> {
  const file = process.env.HAILO_E2E_EXPECTED;
  if (!file) throw new Error('HAILO_E2E_EXPECTED is not set (run through test/e2e/run.mjs or electron.mjs)');
  return (JSON.parse(readFileSync(file, 'utf8')) as { hef: Record<string, string[]> }).hef;
}

describe('HEF inline checks', () => {
  it("the workspace HEFs' failed contract rules are problems, as the CLI reports them", async () => {
    assert.equal(vscode.workspace.getConfiguration('hailo').get('hef.inlineChecks'), 'always', 'the folder setting applies');
    const expected = expectedFailures();
    const failing = Object.entries(expected).filter(([, ids]) => ids.length > 0);
    assert.ok(failing.length > 0, `some example HEF fails the contract: ${JSON.stringify(expected)}`);
    for (const [name, ids] of failing) {
      const diags = await waitForDiagnostics(workspaceFile(name), (d) => ids.every((id) => d.some((x) => codeOf(x) === `mtmd/${id}`)), 60_000);
      const mtmd = diags.filter((d) => codeOf(d).startsWith('mtmd/')).map(codeOf).sort();
      assert.deepEqual(mtmd, ids.map((id) => `mtmd/${id}`).sort(), name);
    }
    for (const [name] of Object.entries(expected).filter(([, ids]) => ids.length === 0)) {
      const errors = vscode.languages.getDiagnostics(workspaceFile(name)).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepEqual(errors.map(codeOf), [], `${name} passes the contract`);
    }
  });
});

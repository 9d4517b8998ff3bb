// The .alls language server inside VS Code: diagnostics equal to what the CLI reports for the same
// files (one analysis core, two front ends), hover documentation, and precision-mode completion.
// Runs trusted and in Restricted Mode alike: analysis never executes anything.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { discardUntitled, eventually, openAndWaitForPublication, openInEditor, waitForDiagnostics, waitForEqual, workspaceFile, deadlineMs } from './host';

interface CliDiagnostic {
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  code: string;
  message: string;
}

const SEVERITY: Record<CliDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
const key = (line: number, column: number, code: string, severity: vscode.DiagnosticSeverity) => `${line}:${column} ${code} ${severity}`;

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

function expectedReport(): { path: string; diagnostics: CliDiagnostic[] }[] {
  const file = process.env.HAILO_E2E_EXPECTED;
  if (!file) throw new Error('HAILO_E2E_EXPECTED is not set (run through test/e2e/run.mjs or electron.mjs)');
  return (JSON.parse(readFileSync(file, 'utf8')) as { files: { path: string; diagnostics: CliDiagnostic[] }[] }).files;
}

describe('.alls language server', () => {
  afterEach(discardUntitled);

  it('every example script: VS Code shows exactly the problems the CLI reports (errors only in broken/)', async () => {
    const report = expectedReport();
    const onDisk = (await vscode.workspace.findFiles('{broken,good,model}/*.alls')).map((u) => vscode.workspace.asRelativePath(u, false)).sort();
    const inReport = report.map((f) => f.path.replace(/\\/g, '/').replace(/^.*?\b(broken|good|model)\//, '$1/')).sort();
    assert.deepEqual(inReport, onDisk, 'the CLI checked every example script');
    assert.ok(onDisk.length >= 9, `examples have scripts: ${onDisk.join(', ')}`);
    for (const entry of report) {
      const rel = entry.path.replace(/\\/g, '/').replace(/^.*?\b(broken|good|model)\//, '$1/');
      const uri = workspaceFile(...rel.split('/'));
      const want = entry.diagnostics.map((d) => key(d.line, d.column, d.code, SEVERITY[d.severity])).sort();
      const keysOf = (ds: vscode.Diagnostic[]) => ds.map((d) => key(d.range.start.line + 1, d.range.start.character + 1, codeOf(d), d.severity)).sort();
      // An empty list counts only once published (a timeout here fails the test, it is never "no problems").
      await openAndWaitForPublication(uri);
      // model/ scripts are re-published once their HAR is read: wait for the set to settle on the
      // CLI's; if it never does, the failure shows the last set seen against the expected one.
      await waitForEqual(`the problems of ${rel}`, () => keysOf(vscode.languages.getDiagnostics(uri)), want, { timeoutMs: deadlineMs() });
      const actual = vscode.languages.getDiagnostics(uri);
      const errors = entry.diagnostics.filter((d) => d.severity === 'error').length;
      if (rel.startsWith('broken/')) assert.ok(errors > 0, `${rel} is meant to have errors`);
      else assert.equal(errors, 0, `${rel} is meant to be free of errors`);
      // Each problem names its source, so the Problems panel says where it came from.
      for (const d of actual) assert.ok(d.source, `no source on ${d.message}`);
    }
  });

  it('broken/typos.alls: the unknown command is reported with a suggestion', async () => {
    const uri = workspaceFile('broken', 'typos.alls');
    await openInEditor(uri);
    const diags = await waitForDiagnostics(uri, (d) => d.some((x) => codeOf(x) === 'alls/unknown-command'));
    const unknown = diags.find((x) => codeOf(x) === 'alls/unknown-command')!;
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    assert.match(unknown.message, /quantizaton_param/);
    assert.match(unknown.message, /quantization_param/);
  });

  it('hover on a command shows its documentation', async () => {
    const uri = workspaceFile('e2e-fixtures', 'e2e-minimal.alls');
    const editor = await openInEditor(uri);
    const line = editor.document.lineAt(0).text;
    const pos = new vscode.Position(0, line.indexOf('normalization(') + 3);
    const text = await eventually(
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
        const t = hoverText(hovers ?? []);
        return t.includes('normalization') ? t : undefined;
      },
      deadlineMs(),
      'a hover on normalization',
    );
    assert.ok(text.length > 60, `hover is documentation, not just a name: ${text}`);
  });

  it('the first line of model/tinycnn.alls says it is checked for hailo8l, the architecture its HAR was parsed for', async () => {
    const uri = workspaceFile('model', 'tinycnn.alls');
    await openInEditor(uri);
    const text = await eventually(
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1));
        const t = hoverText(hovers ?? []);
        return t.includes('Target architecture') ? t : undefined;
      },
      deadlineMs(),
      'the architecture hover on line 1',
    );
    assert.match(text, /Target architecture: hailo8l\*\* — from its HAR/);
    assert.match(text, /tinycnn\\_hailo\\_model\.har beside this script was parsed for it/);
  });

  it('the quick fix for a misspelt command repairs it, and the problem goes away', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'alls', content: 'quantizaton_param({conv*}, precision_mode=a8_w8)\n' });
    await vscode.window.showTextDocument(doc);
    const [unknown] = (await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'alls/unknown-command'))).filter(
      (x) => codeOf(x) === 'alls/unknown-command',
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, unknown.range);
    const fix = (actions ?? []).find((a) => a.edit && /quantization_param/.test(a.title));
    assert.ok(fix, `a quick fix names quantization_param: ${(actions ?? []).map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.match(doc.lineAt(0).text, /^quantization_param\(/);
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeOf(x) === 'alls/unknown-command'));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('completion after precision_mode= offers the precision modes', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'alls', content: 'quantization_param(conv1, precision_mode=' });
    await vscode.window.showTextDocument(doc);
    const pos = doc.lineAt(0).range.end;
    const labels = await eventually(
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos);
        // Only the language server's values: until it answers, VS Code falls back to words of other
        // open documents, which may hold a8_w8 too (and the invented a16_w9 of a test fixture).
        const l = (list?.items ?? [])
          .filter((i) => i.kind === vscode.CompletionItemKind.EnumMember)
          .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
        return l.includes('a8_w8') ? l : undefined;
      },
      deadlineMs(),
      'precision-mode completions',
    );
    for (const mode of ['a8_w8', 'a8_w4', 'a16_w16', 'a16_w8']) assert.ok(labels.includes(mode), `${mode} in ${labels.join(', ')}`);
    assert.ok(!labels.includes('a16_w9'), 'no invented modes');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

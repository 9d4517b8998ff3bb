// Hailo: Find Where the Parser Fails inside VS Code, against the fake docker (its state folder in
// HAILO_FAKE_DOCKER_STATE) running the real driver/hailo_bisect.py with the fake DFC's parser, which
// refuses the tower's plumbing Concat as the Qwen3-VL logbook's parser did (IndexError in
// get_concat_info, no node named). In Restricted Mode nothing may run: the fake records every call.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { deadlineMs, eventually, expectUntrusted, hailoExtension, waitForDiagnostics, workspaceFile } from './host';

const state = process.env.HAILO_FAKE_DOCKER_STATE ?? '';
const argv = (): string[][] =>
  existsSync(join(state, 'argv.jsonl'))
    ? readFileSync(join(state, 'argv.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[])
    : [];
const containers = () => readdirSync(join(state, 'containers')).filter((n) => n.endsWith('.json'));

interface Outcome {
  status: string;
  message?: string;
  firstRefusal: { node: string; opType: string; message: string } | null;
  runs: unknown[];
}

describe('Hailo: Find Where the Parser Fails (fake docker)', () => {
  const model = () => workspaceFile('model', 'tower_packed.onnx');
  before(async () => {
    await hailoExtension().activate();
    const file = join(state, 'e2e-bisect-scenario.json');
    writeFileSync(
      file,
      JSON.stringify({
        parser: { refuse: [{ node: '/visual/blocks.0/attn/Concat', raise: 'IndexError', message: 'list index out of range', in: 'get_concat_info' }] },
      }),
    );
    writeFileSync(join(state, 'config.json'), JSON.stringify({ scenario: file }));
  });

  if (expectUntrusted) {
    it('runs nothing in Restricted Mode', async () => {
      const before = argv().length;
      const r = await vscode.commands.executeCommand<Outcome | undefined>('hailo.findParserFailure', model());
      assert.equal(r, undefined);
      assert.equal(argv().length, before, 'the fake docker recorded no call');
    });
    return;
  }

  it('names the node, puts the DFC message on it in the graph view and selects it; no container is left', async () => {
    const r = await vscode.commands.executeCommand<Outcome>('hailo.findParserFailure', model());
    assert.equal(r.status, 'ok', r.message);
    assert.equal(r.firstRefusal?.node, '/visual/blocks.0/attn/Reshape');
    assert.equal(r.firstRefusal?.message, 'IndexError: list index out of range');
    assert.deepEqual(containers(), []);
    const view = model().with({ scheme: 'hailo-onnx', path: `${model().path}.graph` });
    const ds = await waitForDiagnostics(view, (d) => d.some((x) => x.source === 'Hailo parser bisection'));
    const d = ds.find((x) => x.source === 'Hailo parser bisection')!;
    assert.match(d.message, /The DFC parser first refuses the model here \(Reshape\): IndexError: list index out of range/);
    const editor = await eventually(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === view.toString()),
      deadlineMs(),
      'the graph view',
    );
    assert.equal(editor.document.getText(editor.selection), '/visual/blocks.0/attn/Reshape');
  });
});

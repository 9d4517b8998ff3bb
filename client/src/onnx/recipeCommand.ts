// Hailo: New Compile Recipe from ONNX — the editor's `hailo-tools recipe --write <the model's folder>`:
// recognises the detector head of an .onnx (from the explorer, or the graph view) and writes the
// model zoo's recipe beside it (core/recipe). Nothing existing is replaced; a model without a
// recognised head gets one sentence and no files.
import { basename, dirname } from 'path';
import * as vscode from 'vscode';
import { GRAPH_SCHEME, recipeForOnnx, writeRecipe } from '@hailo/api';
import { modelUri } from './graphView';

export const NEW_RECIPE_COMMAND = 'hailo.newCompileRecipe';

async function pickOnnx(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg.scheme === GRAPH_SCHEME ? modelUri(arg) : arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === GRAPH_SCHEME) return modelUri(active);
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'ONNX models': ['onnx'] }, openLabel: 'New compile recipe' });
  return picked?.[0];
}

/** What the command did, for tests driving it: the files written, or the sentence shown. */
export type RecipeCommandResult = { written: string[] } | { refused: string };

export function registerRecipeCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(NEW_RECIPE_COMMAND, async (arg?: unknown): Promise<RecipeCommandResult | undefined> => {
      const model = await pickOnnx(arg);
      if (!model || model.scheme !== 'file') return undefined;
      const hwArch = vscode.workspace.getConfiguration('hailo', model).get<string>('hwArch') || 'hailo8';
      const r = await recipeForOnnx(model.fsPath, { hwArch });
      if (!r.ok) {
        log.info(`recipe ${model.fsPath}: ${r.reason}`);
        void vscode.window.showWarningMessage(r.reason);
        return { refused: r.reason };
      }
      const base = basename(model.fsPath).replace(/\.onnx$/i, '');
      const w = writeRecipe(dirname(model.fsPath), base, r.recipe);
      if ('error' in w) {
        void vscode.window.showErrorMessage(w.error);
        return { refused: w.error };
      }
      log.info(`recipe ${model.fsPath}: wrote ${w.written.join(', ')}`);
      await vscode.window.showTextDocument(vscode.Uri.file(w.written[0]), { preview: false });
      void vscode.window.showInformationMessage(
        `${r.recipe.family} head, ${r.recipe.classes} classes: wrote ${w.written.map((p) => basename(p)).join(', ')}${r.recipe.notes.length ? ` (${r.recipe.notes[0]})` : ''}`,
      );
      return { written: w.written };
    }),
  );
}

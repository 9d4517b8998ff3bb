// Extension entry (bundled to dist/client.js). Starts the language server and registers the
// feature modules of the client. Keep this file a list of registrations; features live beside it.
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerExplainDfcLog } from './dfc/explainLog';
import { registerCompareAccuracy } from './accuracy/compareCommand';
import { registerCalibInspector } from './calib/calibEditor';
import { registerCompile } from './compile/command';
import { registerCheckDocker } from './docker/checkDocker';
import { registerDevice } from './device/register';
import { registerChat } from './genai/chatPanel';
import { registerTranscribe } from './genai/transcribeCommand';
import { registerGettingStarted } from './gettingStarted';
import { registerHefInspector, registerHefRecheck } from './hef/hefEditor';
import { registerHarView } from './har/harEditor';
import { registerOnnxGraph } from './onnx/graphView';
import { registerParserBisect } from './onnx/bisectCommand';
import { registerRecipeCommand } from './onnx/recipeCommand';
import { registerSweep } from './sweep/command';
import { registerCommandBridge } from './testing/registerCommandBridge';
import { setSettingsNote } from './settings';
import { setSkippedPathNote } from '@hailo/api';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Hailo', { log: true });
  context.subscriptions.push(log);
  setSettingsNote((sentence) => log.warn(`settings: ${sentence}`));
  setSkippedPathNote((sentence) => log.info(sentence));
  registerGettingStarted(context, log);
  registerCheckDocker(context, log);
  registerHefInspector(context, log);
  registerHefRecheck(context, log, () => client);
  const device = registerDevice(context, log);
  registerExplainDfcLog(context, log);
  registerCalibInspector(context, log);
  registerHarView(context, log);
  registerCompareAccuracy(context, log, (trust) => device.service.clientFor(trust));
  const compiler = registerCompile(context, log);
  registerSweep(context, log, compiler, (trust) => device.service.clientFor(trust));
  const chats = registerChat(context, log, device.service);
  registerTranscribe(context, log, device.service, chats);

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // JSON: NMS configs and labels files (server/src/lsp/nmsService.ts answers only for those).
    documentSelector: [
      { language: 'alls' },
      { scheme: 'hailo-onnx', language: 'onnx-graph' },
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
      // Labels files beside a detector HEF (server/src/core/nms/labels.ts looksLikeLabelsFile).
      { scheme: 'file', pattern: '**/*.names' },
      { scheme: 'file', pattern: '**/*{label,Label,LABEL}*.txt' },
    ],
    synchronize: { configurationSection: 'hailo' },
    outputChannel: log,
  };
  client = new LanguageClient('hailo', 'Hailo Language Server', serverOptions, clientOptions);
  registerOnnxGraph(context, log, client);
  registerParserBisect(context, log);
  registerRecipeCommand(context, log);
  // The e2e suite's way to run commands, once every command above is registered (only when its
  // runner set HAILO_TOOLS_E2E_BRIDGE: client/src/testing/commandBridge.ts).
  registerCommandBridge(context, log);
  await client.start();
  log.info('Hailo language server started');
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

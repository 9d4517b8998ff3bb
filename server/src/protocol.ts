// Every message of ours beyond standard LSP, typed once and used by both ends: the server
// registers handlers with these objects (`connection.onRequest(OnnxGraphTextRequest, …)`), the
// client sends them (`client.sendRequest(OnnxGraphTextRequest, …)`), so a method name or a
// parameter shape cannot drift between the two. Any LSP client may send them too (README, "Other
// editors"). Add a message here — never a method string anywhere else. Not a core: it imports the
// protocol package, so the pure cores (alls/, hef/, onnx/, common/…) stay free of it.
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** Client → server: the text of an ONNX graph view (`hailo-onnx:<model>.onnx.graph`, onnx/viewUri.ts). */
export interface OnnxGraphTextParams {
  uri: string;
}
export interface OnnxGraphTextResult {
  text: string;
  /** False when the model could not be read: `text` then explains why. */
  ok: boolean;
}
export const OnnxGraphTextRequest = new RequestType<OnnxGraphTextParams, OnnxGraphTextResult, void>('hailo/onnxGraph');

/**
 * Client → server: check every `.hef` of the workspace again (after a build wrote several, say).
 * The server also does this by itself when `hailo.hef.*` / `hailo.mtmd.*` settings change.
 */
export const HefRescanNotification = new NotificationType<Record<string, never> | undefined>('hailo/hef/rescan');

// Entry of the device worker process (bundled as dist/deviceWorker.js). It is forked by
// DeviceClient with an IPC channel, loads the native shim with koffi, and answers one request at a
// time, through the dispatch table typed by WorkerMethods (dispatch.ts). A crash in native code ends
// only this process; the client reports it and starts another.
//
// It refuses to start unless its parent passed the action a TrustToken was given for
// (HAILO_TOOLS_TRUSTED_ACTION): native code runs only where a guard allowed it.
import { mintTrustToken, type TrustToken } from '../../../core/common/trust';
import { errorFromKind } from '../../../core/device/errors';
import { packageFileName, platformKey } from '../../../core/device/nativePlatform';
import type { RuntimeInfo, WorkerChatEvent, WorkerResponse } from '../../../core/device/protocol';
import { nativeBindingProblem } from '../nativeBinding';
import { Bridge, ShimError } from './bridge';
import { koffi } from './koffi';
import { ChatService } from './chat';
import { dispatch, workerHandlers, type IncomingRequest } from './dispatch';
import { HailortSession } from './hailortSession';
import { SpeechService } from './speech';

function send(message: WorkerResponse | WorkerChatEvent | { progress: { id: number; phase: string; done?: number; total?: number } }): void {
  process.send?.(message);
}

function refuse(reason: string): never {
  process.stderr.write(`hailo-tools device worker: ${reason}\n`);
  process.exit(3);
}

function isFake(trust: TrustToken, libraryPath: string): boolean {
  if (!libraryPath) return false;
  try {
    koffi(trust).load(libraryPath).func('const char *fake_hailort_marker(void)');
    return true;
  } catch {
    return false;
  }
}

function start(): void {
  if (!process.send) refuse('must be started by DeviceClient with an IPC channel');
  const action = process.env.HAILO_TOOLS_TRUSTED_ACTION;
  if (!action) refuse('refusing to load native code without a TrustToken (HAILO_TOOLS_TRUSTED_ACTION is not set)');
  const trust: TrustToken = mintTrustToken(action);
  const shimPath = process.env.HAILO_TOOLS_SHIM;
  if (!shimPath) refuse('HAILO_TOOLS_SHIM is not set');

  let service: HailortSession | undefined;
  let chat: ChatService | undefined;
  let speech: SpeechService | undefined;
  // This package's koffi binary for the platform this Node runs on (dist/ is beside this bundle),
  // then koffi itself: either missing is one sentence for every request, not a dead worker.
  let startupError: ReturnType<typeof errorFromKind> | undefined = nativeBindingProblem(__dirname);
  if (!startupError) {
    try {
      koffi(trust);
    } catch (err) {
      const here = platformKey();
      const error = errorFromKind('native-missing', `loading koffi: ${(err as Error).message}`);
      startupError = {
        ...error,
        sentence: `koffi's native binary for ${here} is in this package but could not be loaded: reinstall ${packageFileName(here)}, the package built for ${here}.`,
      };
    }
  }
  if (!startupError) {
    try {
      const bridge = new Bridge(trust, shimPath);
      const libraryPath = process.env.HAILO_TOOLS_HAILORT_LIBRARY ?? '';
      const runtime: RuntimeInfo = { hailortVersion: bridge.libraryVersion(), shimPath, libraryPath, fake: isFake(trust, libraryPath) };
      service = new HailortSession(bridge, runtime);
      chat = new ChatService(bridge, runtime, service, (event) => send({ chat: event }));
      speech = new SpeechService(bridge, runtime, service);
    } catch (err) {
      const message = err instanceof ShimError ? err.message : (err as Error).message;
      // A shim that cannot be loaded usually means libhailort moved or was removed since the build.
      startupError = errorFromKind('hailort-missing', `cannot load the HailoRT bridge ${shimPath}: ${message}`);
    }
  }

  const handlers = service && chat && speech ? workerHandlers(service, chat, speech) : undefined;
  let queue: Promise<void> = Promise.resolve();
  process.on('message', (req: IncomingRequest) => {
    // One request at a time: HailoRT calls block this thread anyway.
    queue = queue.then(async () =>
      send(await dispatch(handlers, startupError, req, (phase, done, total) => send({ progress: { id: req.id, phase, done, total } }))),
    );
  });
  process.on('disconnect', () => {
    chat?.closeAll();
    service?.closeAll();
    process.exit(0);
  });
}

start();

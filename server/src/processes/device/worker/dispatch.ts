// The worker's dispatch, typed by its method table: `WorkerMethods` (core/device/protocol.ts) names
// every request with its params and result; DeviceClient's `request` is typed by it on the host
// side, and `workerHandlers` must give one handler per method here — a missing method, or a handler
// taking other params or answering another result, is a compile error. At run time a request whose
// method is not in the table gets a one-sentence error reply (a host from another build), never a
// throw across the process boundary.
import { errorFromKind } from '../../../core/device/errors';
import type { DeviceError, WorkerMethod, WorkerMethods, WorkerResponse } from '../../../core/device/protocol';
import type { ChatService } from './chat';
import { DeviceFailure, limitFailure, type HailortSession, type Progress } from './hailortSession';
import { LimitError } from '../../../core/common/limits';
import type { SpeechService } from './speech';

type Handler<M extends WorkerMethod> = (
  params: WorkerMethods[M]['params'],
  progress: Progress,
) => WorkerMethods[M]['result'] | Promise<WorkerMethods[M]['result']>;

/** One handler per method of WorkerMethods. */
export type WorkerHandlers = { [M in WorkerMethod]: Handler<M> };

export function workerHandlers(s: HailortSession, c: ChatService, sp: SpeechService): WorkerHandlers {
  return {
    hello: () => s.hello(),
    scan: () => s.scan(),
    run: (p, progress) => s.run(p, progress),
    open: (p) => s.openModel(p),
    infer: (p) => s.infer(p.handle, p.inputs),
    resource: (p) => s.resource(p.handle, p.name),
    close: (p) => s.close(p.handle),
    chatOpen: (p) => c.open(p),
    chatGenerate: (p) => c.generate(p),
    chatAbort: (p) => c.abort(p.session),
    chatContext: (p) => c.context(p.session),
    chatClear: (p) => c.clear(p.session),
    chatSave: (p) => c.save(p.session),
    chatLoad: (p) => c.load(p.session, p.base64),
    chatTokenize: (p) => c.tokenize(p.session, p.text),
    chatTimed: (p) => c.timed(p),
    chatClose: (p) => c.close(p.session),
    chatHealth: (p) => c.health(p.session),
    transcribe: (p) => sp.transcribe(p),
  };
}

/** A request as it arrives over IPC: nothing about it is trusted to match the table. */
export interface IncomingRequest {
  id: number;
  method: unknown;
  params: unknown;
}

function isMethod(handlers: WorkerHandlers, method: unknown): method is WorkerMethod {
  return typeof method === 'string' && Object.prototype.hasOwnProperty.call(handlers, method);
}

/**
 * One request → its response. `handlers` undefined: the worker could not start (`startupError` is
 * then every request's answer). Never throws: a failure is the response's DeviceError.
 */
export async function dispatch(
  handlers: WorkerHandlers | undefined,
  startupError: DeviceError | undefined,
  req: IncomingRequest,
  progress: Progress,
): Promise<WorkerResponse> {
  const method = req.method;
  try {
    if (!handlers) throw new DeviceFailure(startupError ?? errorFromKind('hailort-error', 'the device worker did not start'));
    if (!isMethod(handlers, method)) {
      const name = typeof method === 'string' ? `'${method.slice(0, 64)}'` : `of type ${typeof method}`;
      return {
        id: req.id,
        ok: false,
        error: {
          ...errorFromKind('hailort-error', `unknown request ${name}`),
          sentence: `The device worker has no request ${name}: the extension and its worker come from different builds; reinstall the extension.`,
        },
      };
    }
    const handler = handlers[method] as Handler<typeof method>;
    const result: unknown = await handler(req.params as never, progress);
    return { id: req.id, ok: true, result };
  } catch (err) {
    const error =
      err instanceof DeviceFailure
        ? err.error
        : err instanceof LimitError
          ? limitFailure(err).error
          : errorFromKind('hailort-error', `${String(method)}: ${(err as Error)?.stack ?? String(err)}`);
    return { id: req.id, ok: false, error };
  }
}

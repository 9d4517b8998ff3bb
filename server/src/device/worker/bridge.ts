// The koffi binding of native/hailo_shim.cpp, used only inside the device worker process. Every
// call returns plain values; failures become ShimError with the shim's last status, its name and
// text. Nothing here holds a JavaScript callback for native code: HailoRT's completions stay in
// the shim, and this side polls (waitDone) or blocks (infer, runPipelined).
//
// Loaded only by the worker, which refuses to start without a TrustToken (see main.ts).
import koffi from 'koffi';
import type { TrustToken } from '../../common/trust';

export class ShimError extends Error {
  constructor(
    readonly status: number,
    readonly statusName: string,
    readonly detail: string,
  ) {
    super(`${detail} [${statusName || 'status'} ${status}]`);
    this.name = 'ShimError';
  }
}

export interface ShimStream {
  name: string;
  shape: [number, number, number];
  order: number;
  type: number;
  flags: number;
  frameSize: number;
  nms: boolean;
  quant: [number, number, number, number][];
}

export interface ShimModel {
  inputs: ShimStream[];
  outputs: ShimStream[];
  queueSize: number;
  slots: number;
  inputBytes: number;
  outputBytes: number;
  resources: string[];
  archs: number[];
}

export interface ShimScanEntry {
  id: string;
  ok: boolean;
  architecture?: number;
  fw?: [number, number, number];
  release?: boolean;
  board?: string;
  serial?: string;
  part?: string;
  product?: string;
  status?: number;
  statusName?: string;
  message?: string;
}

export const SHIM_ABI = 1;
const HAILO_SUCCESS = 0;

export class Bridge {
  private readonly fn;
  private jsonBuffer = Buffer.alloc(64 << 10);

  constructor(_trust: TrustToken, readonly shimPath: string) {
    const lib = koffi.load(shimPath);
    this.fn = {
      abi: lib.func('uint32_t hts_abi_version(void)'),
      compiledVersion: lib.func('uint32_t hts_compiled_version(void)'),
      libraryVersion: lib.func('int hts_library_version(_Out_ uint32_t *major, _Out_ uint32_t *minor, _Out_ uint32_t *revision)'),
      lastStatus: lib.func('int hts_last_status(void)'),
      lastStatusName: lib.func('const char *hts_last_status_name(void)'),
      lastError: lib.func('const char *hts_last_error(void)'),
      scanJson: lib.func('int64_t hts_scan_json(void *buf, size_t cap)'),
      open: lib.func('int32_t hts_open(const char *hef, int format, uint32_t batch, uint32_t queue, const char *group, uint32_t timeout_ms)'),
      modelJson: lib.func('int64_t hts_model_json(int32_t handle, void *buf, size_t cap)'),
      infer: lib.func('int hts_infer(int32_t handle, const void *input, size_t in_size, void *output, size_t out_size)'),
      runPipelined: lib.func('int hts_run_pipelined(int32_t handle, const void *input, size_t in_size, uint32_t frames, uint32_t depth, _Out_ double *elapsed)'),
      submit: lib.func('int hts_submit(int32_t handle, uint32_t slot, const void *input, size_t in_size)'),
      waitDone: lib.func('int32_t hts_wait_done(int32_t handle, void *slots, void *statuses, uint32_t max, uint32_t timeout_ms)'),
      readOutput: lib.func('int hts_read_output(int32_t handle, uint32_t slot, void *output, size_t out_size)'),
      resource: lib.func('int64_t hts_resource(int32_t handle, const char *name, void *buf, size_t cap)'),
      close: lib.func('int hts_close(int32_t handle)'),
    };
    const abi = this.fn.abi() as number;
    if (abi !== SHIM_ABI) throw new ShimError(8, 'HAILO_INTERNAL_FAILURE', `the shim at ${shimPath} speaks ABI ${abi}, this worker ${SHIM_ABI}: rebuild it`);
  }

  private fail(fallbackStatus = 8): never {
    const status = (this.fn.lastStatus() as number) || fallbackStatus;
    throw new ShimError(status, (this.fn.lastStatusName() as string) ?? '', (this.fn.lastError() as string) ?? '');
  }

  private check(status: number): void {
    if (status !== HAILO_SUCCESS) this.fail(status);
  }

  /** Calls a JSON-answering export, growing the buffer when the answer is longer. */
  private json<T>(call: (buf: Buffer, cap: number) => number | bigint): T {
    for (;;) {
      const n = Number(call(this.jsonBuffer, this.jsonBuffer.length));
      if (n < 0) this.fail();
      if (n < this.jsonBuffer.length) return JSON.parse(this.jsonBuffer.toString('utf8', 0, n)) as T;
      this.jsonBuffer = Buffer.alloc(n + 1);
    }
  }

  libraryVersion(): string {
    const major = [0];
    const minor = [0];
    const revision = [0];
    this.check(this.fn.libraryVersion(major, minor, revision) as number);
    return `${major[0]}.${minor[0]}.${revision[0]}`;
  }

  compiledVersion(): string {
    const v = this.fn.compiledVersion() as number;
    return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
  }

  scan(): ShimScanEntry[] {
    return this.json<{ devices: ShimScanEntry[] }>((b, c) => this.fn.scanJson(b, c) as number).devices;
  }

  open(hef: string, format: 'uint8' | 'float32', batch: number, queue: number, groupId: string, timeoutMs: number): number {
    const handle = this.fn.open(hef, format === 'float32' ? 1 : 0, batch, queue, groupId, timeoutMs) as number;
    if (handle <= 0) this.fail();
    return handle;
  }

  model(handle: number): ShimModel {
    return this.json<ShimModel>((b, c) => this.fn.modelJson(handle, b, c) as number);
  }

  /** One frame; `input` may be any size (the shim refuses a wrong one with status 2). */
  infer(handle: number, input: Uint8Array, output: Uint8Array): void {
    this.check(this.fn.infer(handle, input, input.length, output, output.length) as number);
  }

  /** Status of one frame without throwing (for the refusal check). */
  inferStatus(handle: number, input: Uint8Array, output: Uint8Array): { status: number; statusName: string; detail: string } {
    const status = this.fn.infer(handle, input, input.length, output, output.length) as number;
    return { status, statusName: status ? ((this.fn.lastStatusName() as string) ?? '') : '', detail: status ? ((this.fn.lastError() as string) ?? '') : '' };
  }

  /** The shim's own C loop: answers elapsed milliseconds. */
  runPipelined(handle: number, inputs: Uint8Array, frames: number, depth: number): number {
    const elapsed = [0];
    this.check(this.fn.runPipelined(handle, inputs, inputs.length, frames, depth, elapsed) as number);
    return elapsed[0];
  }

  submit(handle: number, slot: number, input: Uint8Array): void {
    this.check(this.fn.submit(handle, slot, input, input.length) as number);
  }

  /** Finished frames as (slot, status) pairs, waiting up to timeoutMs for at least one. */
  waitDone(handle: number, slots: Uint32Array, statuses: Int32Array, timeoutMs: number): number {
    const n = this.fn.waitDone(handle, slots, statuses, Math.min(slots.length, statuses.length), timeoutMs) as number;
    if (n < 0) this.fail();
    return n;
  }

  readOutput(handle: number, slot: number, output: Uint8Array): void {
    this.check(this.fn.readOutput(handle, slot, output, output.length) as number);
  }

  /** An embedded resource's bytes, or null when the HEF has none of that name (status 61). */
  resource(handle: number, name: string): Uint8Array | null {
    const size = Number(this.fn.resource(handle, name, null, 0));
    if (size < 0) {
      if ((this.fn.lastStatus() as number) === 61) return null;
      this.fail();
    }
    const buf = Buffer.alloc(size);
    const again = Number(this.fn.resource(handle, name, buf, size));
    if (again < 0) this.fail();
    return buf;
  }

  close(handle: number): void {
    this.check(this.fn.close(handle) as number);
  }
}

// The language server's reader of LSP frames on stdin (`hailo-tools lsp --stdio`), in place of
// vscode-jsonrpc's, which on one malformed frame (Content-Length negative, not a number, missing)
// reported an error and then stayed deaf: the bad bytes stayed in its buffer and every later frame
// was read behind them. It also buffered any Content-Length without a cap, and rescanned the whole
// buffer for the end of a header on every chunk (an unterminated 32 MiB header: 17.8 s of CPU).
//
// Here (LSP base protocol: `Content-Length: N\r\n` [+ other headers] `\r\n` then N bytes of UTF-8 JSON):
// - the header end is searched only in bytes not searched before, and a header is at most
//   LIMITS.lspHeaderBytes; a body at most LIMITS.lspMessageBytes, refused from its header;
// - a frame whose body is not JSON (or not a JSON-RPC object) is answered with a JSON-RPC error
//   (-32700 parse error, -32600 invalid request, id null) and the next frame is read;
// - a frame that cannot be delimited (no, a negative or a non-numeric Content-Length, a header
//   line without a colon, a header or body over its cap) ends the connection: one log line on
//   stderr, then `onFatal` (the server exits) — never a server that reads on and answers nothing.
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';
import { limit } from '../core/common/limits';

export interface StdioReaderHooks {
  /** A frame that was delimited but is not a JSON-RPC message: answer it (code -32700 or -32600). */
  onBadMessage(code: -32700 | -32600, message: string): void;
  /** The stream cannot be read on: `line` was logged; end the connection. */
  onFatal(line: string): void;
  /** Where the one log line goes (default: stderr). */
  log?(line: string): void;
  /** Sees every message before the connection does. */
  onMessage?(message: Message): void;
}

export interface FrameLimits {
  headerBytes: number;
  bodyBytes: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');

export class SafeStdioReader extends AbstractMessageReader {
  private callback: DataCallback | undefined;
  /** Bytes of the header being read (at most limits.headerBytes + a chunk). */
  private header: Buffer = Buffer.alloc(0);
  /** Where the search for the header's end resumes (the bytes before it were searched). */
  private searched = 0;
  /** The body being read: its length, and the pieces so far. */
  private body: { length: number; pieces: Buffer[]; have: number } | undefined;
  private failed = false;
  private readonly limits: FrameLimits;

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    private readonly hooks: StdioReaderHooks,
    limits: Partial<FrameLimits> = {},
  ) {
    super();
    this.limits = { headerBytes: limits.headerBytes ?? limit('lspHeaderBytes'), bodyBytes: limits.bodyBytes ?? limit('lspMessageBytes') };
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer | string) => this.onData(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const onEnd = () => this.fireClose();
    const onError = (err: Error) => this.fireError(err);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('close', onEnd);
        this.readable.off('error', onError);
      },
    };
  }

  private onData(chunk: Buffer): void {
    let rest: Buffer | undefined = chunk;
    while (rest && rest.length && !this.failed) rest = this.body ? this.takeBody(rest) : this.takeHeader(rest);
  }

  /** Adds bytes to the header; once it ends, parses it and returns the bytes after it. */
  private takeHeader(chunk: Buffer): Buffer | undefined {
    this.header = this.header.length ? Buffer.concat([this.header, chunk]) : chunk;
    // Resume 3 bytes back: the terminator may straddle the previous chunk's end.
    const end = this.header.indexOf(CRLF2, Math.max(0, this.searched - 3));
    if (end < 0) {
      this.searched = this.header.length;
      // The end may still start in the last 3 bytes: refuse only once the header is surely over the cap.
      if (this.header.length - 3 > this.limits.headerBytes)
        this.fatal(`a header of more than ${this.limits.headerBytes.toLocaleString('en-US')} bytes without its end (\\r\\n\\r\\n)`);
      return undefined;
    }
    if (end > this.limits.headerBytes)
      return this.fatal(`a header of ${end.toLocaleString('en-US')} bytes, over the limit of ${this.limits.headerBytes.toLocaleString('en-US')}`);
    const text = this.header.subarray(0, end).toString('latin1');
    const after = this.header.subarray(end + 4);
    this.header = Buffer.alloc(0);
    this.searched = 0;
    let length: number | undefined;
    for (const line of text.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0 || !line.slice(0, colon).trim()) return this.fatal(`a header line without a name and a colon (${JSON.stringify(line.slice(0, 80))})`);
      if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
      const value = line.slice(colon + 1).trim();
      if (!/^\d{1,15}$/.test(value)) return this.fatal(`Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`);
      length = Number(value);
    }
    if (length === undefined) return this.fatal('a header without Content-Length');
    if (length > this.limits.bodyBytes) {
      return this.fatal(`Content-Length ${length.toLocaleString('en-US')}, over the limit of ${this.limits.bodyBytes.toLocaleString('en-US')} bytes`);
    }
    this.body = { length, pieces: [], have: 0 };
    if (length === 0) return this.finishBody(after);
    return after;
  }

  /** Adds bytes to the body; once it is whole, delivers the message and returns the bytes after it. */
  private takeBody(chunk: Buffer): Buffer | undefined {
    const b = this.body!;
    const need = b.length - b.have;
    const part = chunk.length > need ? chunk.subarray(0, need) : chunk;
    b.pieces.push(part);
    b.have += part.length;
    if (b.have < b.length) return undefined;
    return this.finishBody(chunk.subarray(part.length));
  }

  private finishBody(after: Buffer): Buffer {
    const bytes = Buffer.concat(this.body!.pieces, this.body!.length);
    this.body = undefined;
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      this.hooks.onBadMessage(-32700, `Parse error: the ${bytes.length}-byte message is not JSON (${(err as Error).message})`);
      return after;
    }
    if (!message || typeof message !== 'object' || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.hooks.onBadMessage(-32600, 'Invalid Request: a message must be a JSON-RPC 2.0 object');
      return after;
    }
    this.hooks.onMessage?.(message as Message);
    this.callback?.(message as Message);
    return after;
  }

  private fatal(why: string): undefined {
    if (this.failed) return undefined;
    this.failed = true;
    this.header = Buffer.alloc(0);
    this.body = undefined;
    const line = `hailo language server: malformed LSP frame on stdin: ${why}; closing the connection`;
    (this.hooks.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    this.hooks.onFatal(line);
    return undefined;
  }
}

// The DFC's console as an output channel can show it: colours removed, and a tqdm bar redrawn with
// `\r` kept only as its last frame (an output channel has no carriage return). Pure.

export class ConsoleLines {
  private line = '';
  private pendingReturn = false;

  /** Complete lines (each ending in \n) from `chunk`; an unfinished line is held back. */
  push(chunk: string): string {
    let out = '';
    for (const part of chunk.split(/(\r\n|\n|\r)/)) {
      if (part === '\n' || part === '\r\n') {
        out += `${stripAnsi(this.line)}\n`;
        this.line = '';
        this.pendingReturn = false;
      } else if (part === '\r') this.pendingReturn = true;
      else if (part) {
        // A frame redrawn after \r replaces the line (an escape sequence is never split by \r).
        if (this.pendingReturn) this.line = '';
        this.pendingReturn = false;
        this.line += part;
      }
    }
    return out;
  }

  /** Whatever is held back (end of run). */
  flush(): string {
    const rest = this.line ? `${stripAnsi(this.line)}\n` : '';
    this.line = '';
    this.pendingReturn = false;
    return rest;
  }
}
import { stripAnsi } from '@hailo/api';

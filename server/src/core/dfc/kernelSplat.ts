// The kernel's own reports of a fault in its code — a splat: `WARNING: CPU: 2 PID: 812 at include/linux/rwsem.h:80
// find_vma+0x6c/0x80`, `BUG: …`, an Oops, `INFO: task … blocked for more than N seconds`, then `Call trace:` and its
// frames (`hailo_vdma_buffer_map+0x8c/0x5e8 [hailo_pci]`), `RIP: 0010:…`/`pc : …`, `---[ end trace … ]---` (the kernel's
// kernel/panic.c `__warn`, lib/bug.c, kernel/hung_task.c; the frames as `%pS` prints a symbol: name+offset/size [module]).
// A splat is evidence: it names where the kernel's code went wrong — its top function, and the module (a driver built
// apart from the kernel) on its stack — not the cause of the run's failure, and never itself a failure line: the
// runtime's own error after it (HailoRT's, the driver's `hailo 0001:01:00.0: Device disconnected while opening device`)
// is what the run failed with, in its words. A flood of the same splat is one, counted. Pure: no I/O.

/** Distinct splats kept (a flood of one splat is one; past this, further distinct ones are counted). */
const MAX_KEPT = 8;
/** Distinct splats said, at most. */
export const MAX_SPLATS_SAID = 3;
/** A splat's lines stand this close: a line of its form further than this from the last begins another. */
const SPLAT_GAP = 40;

export type SplatKind = 'WARNING' | 'BUG' | 'Oops' | 'hung task' | 'panic' | 'call trace';

export interface Splat {
  kind: SplatKind;
  /** The function the splat is at: its header's or its RIP/pc's, else its first frame past the scheduler's and the report's own. */
  top: string | null;
  /** The source file and line the WARNING names (`include/linux/rwsem.h:80`). */
  file: string | null;
  /** The first frame in a module (`hailo_vdma_buffer_map`, `hailo_pci`), or the module the RIP/pc is in: a driver on the stack. */
  moduleFrame: { fn: string; module: string } | null;
  /**
   * The module the kernel was loading (`+`) or unloading (`-`) when it faulted, from its `Modules linked in:` line
   * (`hailo_pci(O+)`): a fault while a driver is set up or torn down, before or after any of its own frames run.
   */
  moduleInTransit: { module: string; loading: boolean } | null;
  firstLine: number;
  lastLine: number;
  count: number;
  /** The process the kernel was running for (`Comm: frigate.detecto`, a hung task's name). */
  comm: string | null;
  /** Its stack frames read (a call trace without a header is one only with two or more: a lone `name+0x…/0x…` is not). */
  frames: number;
}

/**
 * A kernel driver's line about its PCI device (dev_printk: `hailo 0000:01:00.0: …`, `hailo1x 0001:01:00.0: …`), the kernel's time
 * taken or not: a record of its own — never the rest of the line before it — and a step of the driver, not a program's verdict.
 */
// (Behind a relay the kernel's time may keep its close bracket only: `    5.148411] hailo 0000:01:00.0: …`.)
export const KERNEL_DEVICE_LINE = /^\s*(?:\[? {0,12}\d{1,10}\.\d{1,9}\] )?[\w-]{1,32} [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]: /;

/** A stack frame as the kernel prints a symbol (`%pS`): `name+0xoff/0xsize [module]`, `? ` when unreliable. */
export const KERNEL_FRAME = /^(?:\? )?([A-Za-z_][\w.]{0,127})\+0x[0-9a-f]{1,16}\/0x[0-9a-f]{1,16}(?: \[([\w-]{1,64})\])?$/;
/**
 * `WARNING: CPU: 2 PID: 812 at [file:line ]func+off/size` (≤ 6.x), `WARNING: file:line at func+off/size, CPU#2: comm/812`
 * (later) — read without its `WARNING: `, which the reader takes as the line's level.
 */
const WARN_HEAD = /^(?:WARNING: )?(?:CPU: \d{1,5} PID: \d{1,10} at (?:(\S{1,200}:\d{1,6}) )?(\S{1,200})|(\S{1,200}:\d{1,6}) at (\S{1,200}), CPU#\d)/;
/**
 * The same header as an author quotes it, its CPU and PID elided (`WARNING: ... at include/linux/rwsem.h:80 find_vma+0x6c/0x80`,
 * a lab note's prose, dfc-corpus unseen24/43): the ellipsis where the numbers were, then the file and the function in the form
 * `%pS` prints a symbol — only a kernel's report has both. Taken only when the line's level says WARNING.
 */
const ELIDED_WARN_HEAD =
  /^(?:WARNING: )?(?:\.{3}|\u2026) at (?:(\S{1,200}:\d{1,6}) )?([A-Za-z_][\w.]{0,127}\+0x[0-9a-f]{1,16}\/0x[0-9a-f]{1,16})(?: \[[\w-]{1,64}\])?\s*$/;
const BUG_HEAD = /^BUG: (.{1,200})$/;
const OOPS_HEAD = /^(?:Internal error: Oops\b|Oops: |Unable to handle kernel |general protection fault\b)/;
/** kernel/hung_task.c's `INFO: task %s:%d blocked for more than %ld seconds.` — its `INFO: ` read as the line's level. */
const HUNG_HEAD = /^(?:INFO: )?task (\S{1,64}):\d{1,10} blocked for more than \d{1,6} seconds/;
const PANIC_HEAD = /^Kernel panic - not syncing: /;
const CALL_TRACE = /^Call [Tt]race:\s*$/;
/** The function the CPU was in: x86's `RIP: 0010:func+off/size` (before 4.x `IP: [<addr>] func+off/size`), arm64's `pc : func+off/size`, and its module (` [hailo_pci]`) if any. */
const AT_PC =
  /^(?:RIP: [0-9a-f]{4}:|pc : |IP: \[<[0-9a-f]{1,16}>\] )(?:\? )?([A-Za-z_][\w.]{0,127})\+0x[0-9a-f]{1,16}(?:\/0x[0-9a-f]{1,16}(?: \[([\w-]{1,64})\])?)?/;
/**
 * The module list a splat prints (kernel/module/main.c `print_modules`, each module as `name(flags)` from `module_flags`:
 * taint letters, then `+` while the module is coming — being loaded — or `-` while it is going).
 */
const MODULES_LINKED = /^Modules linked in:/;
const MODULE_IN_TRANSIT = /(?:^|\s)([\w-]{1,64})\([A-Z]{0,12}([+-])\)/;
/** The splat's own furniture: its borders and the lines that describe the machine. */
const FURNITURE =
  /^(?:-{3,}\[ (?:cut here|end trace\b[^\]]{0,40}) \]-{3,}|Modules linked in:|CPU: \d{1,5} (?:UID: \d{1,10} )?PID: \d{1,10} Comm: |Hardware name: |Tainted: |<\/?TASK>$|lr : |sp : |pstate: |RSP: |RAX: |RDX: |RBP: |R1[0-5]: |R[89]: |FS: |CS: |CR2: |x\d{1,2}: |Code: |"?echo 0 > \/proc\/sys\/kernel\/hung_task_timeout_secs|task:\S{1,64} +state:|Not tainted )/;
/** The process a splat's machine line names (`CPU: 3 PID: 2145 Comm: frigate.detecto Tainted: …`). */
const COMM = /^CPU: \d{1,5} (?:UID: \d{1,10} )?PID: \d{1,10} Comm: (\S{1,64})/;
/** Frames every splat of its kind shows, which say nothing of where: the scheduler's (a blocked task), the report's own. */
const GENERIC_FRAME =
  /^(?:__switch_to|__schedule|schedule\w*|preempt_schedule\w*|io_schedule\w*|dump_\w+|show_stack|__warn\w*|warn_slowpath\w*|report_bug|\w+_bug_handler|bug_handler|brk_handler|call_break_hook|do_debug_exception|el[01]\w*|die|__die|do_trap|do_error_trap|handle_bug|exc_invalid_op|asm_exc_\w+)$/;

/** The words every line of a splat holds one of (a gate before the patterns). */
const MAY_SPLAT =
  /\+0x|CPU|Call [Tt]race|BUG: |Oops|Unable to handle kernel|general protection|blocked for more|Kernel panic|RIP: |pc : |---\[|Modules linked|Hardware name|Tainted|TASK>|lr : |sp : |pstate|RSP|RAX|RDX|RBP|R\d|FS: |CS: |CR2|x\d|Code: |hung_task|IP: \[/;

/** A line that begins a splat or is one of its frames: a line of its own, never the rest of a message before it (errors.ts join). */
export function opensSplat(body: string): boolean {
  const t = body.trim();
  return MAY_SPLAT.test(t) && (WARN_HEAD.test(t) || HUNG_HEAD.test(t) || CALL_TRACE.test(t) || KERNEL_FRAME.test(t) || OOPS_HEAD.test(t) || PANIC_HEAD.test(t));
}

export class KernelSplats {
  private readonly kept: Splat[] = [];
  private current: Splat | null = null;
  /** Distinct splats past MAX_KEPT, counted. */
  moreDistinct = 0;
  private lastLine = -Infinity;

  /**
   * Whether the log's last line, `lastNo`, is a line of the splat being read (its `---[ end trace … ]---` border included):
   * the log stops at the kernel's report, and what the kernel and the program did after it is not shown.
   */
  endsInside(lastNo: number): boolean {
    return this.lastLine >= lastNo;
  }

  /** Reads one line (its level tag off; `warned`: the line's level was WARNING); true when it is a line of a splat (it says nothing else). */
  read(no: number, body: string, warned = false): boolean {
    if (!MAY_SPLAT.test(body)) return false;
    const t = body.trim().replace(/^\[(?:warning|error|info|critical)\] /, '');
    const near = this.current !== null && no - this.lastLine <= SPLAT_GAP;
    let m: RegExpExecArray | null;
    if ((m = WARN_HEAD.exec(t))) this.begin(no, 'WARNING', m[2] ?? m[4] ?? null, m[1] ?? m[3] ?? null);
    else if ((warned || t.startsWith('WARNING: ')) && (m = ELIDED_WARN_HEAD.exec(t))) this.begin(no, 'WARNING', m[2], m[1] ?? null);
    else if ((m = BUG_HEAD.exec(t)) && !near) this.begin(no, 'BUG', null, null);
    else if (OOPS_HEAD.test(t)) {
      if (!near || this.current!.kind !== 'BUG') this.begin(no, 'Oops', null, null);
    } else if ((m = HUNG_HEAD.exec(t))) {
      this.begin(no, 'hung task', null, null);
      this.current!.comm = m[1];
    } else if (PANIC_HEAD.test(t)) this.begin(no, 'panic', null, null);
    else if (CALL_TRACE.test(t)) {
      if (!near) this.begin(no, 'call trace', null, null);
    } else if ((m = AT_PC.exec(t))) {
      if (!near) this.begin(no, 'call trace', null, null);
      const c = this.current!;
      if (c.top === null) c.top = m[1];
      if (m[2] && c.moduleFrame === null) c.moduleFrame = { fn: m[1], module: m[2] };
    } else if ((m = KERNEL_FRAME.exec(t))) {
      if (!near) this.begin(no, 'call trace', null, null);
      const c = this.current!;
      c.frames++;
      if (c.top === null && !GENERIC_FRAME.test(m[1])) c.top = m[1];
      if (m[2] && c.moduleFrame === null) c.moduleFrame = { fn: m[1], module: m[2] };
    } else if (!(near && FURNITURE.test(t))) return false;
    else if (this.current!.comm === null && (m = COMM.exec(t))) this.current!.comm = m[1];
    else if (MODULES_LINKED.test(t) && (m = MODULE_IN_TRANSIT.exec(t.slice(0, 4000)))) this.current!.moduleInTransit = { module: m[1], loading: m[2] === '+' };
    this.lastLine = no;
    if (this.current) this.current.lastLine = no;
    return true;
  }

  private begin(no: number, kind: SplatKind, top: string | null, file: string | null): void {
    this.settle();
    // The function by its name (`find_vma`), without the offset and size that vary between builds.
    this.current = {
      kind,
      top: top ? top.replace(/\+0x.*$/, '') : null,
      file,
      moduleFrame: null,
      moduleInTransit: null,
      firstLine: no,
      lastLine: no,
      count: 1,
      frames: 0,
      comm: null,
    };
  }

  /** The splat being read is complete: counted with an earlier one it repeats, else kept. */
  private settle(): void {
    const c = this.current;
    this.current = null;
    // Kept only with what makes it the kernel's: a WARNING's own header, else a stack (a `BUG: …` an author writes has none).
    if (!c || (c.kind === 'call trace' && c.frames < 2) || (c.kind !== 'WARNING' && c.frames === 0 && c.top === null)) return;
    const same = this.kept.find((k) => k.kind === c.kind && k.top === c.top && k.moduleFrame?.fn === c.moduleFrame?.fn);
    if (same) {
      same.count++;
      same.lastLine = c.lastLine;
    } else if (this.kept.length < MAX_KEPT) this.kept.push(c);
    else this.moreDistinct++;
  }

  /** The splats the log showed, in the order they first appeared. */
  all(): Splat[] {
    this.settle();
    return [...this.kept];
  }
}

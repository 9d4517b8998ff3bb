// The classes the eighteenth batch of users' logs (dfc-corpus unseen17/) showed the reader missing, each tested on lines
// from another real source than that batch's log: a compiler's `file:line:column: error:` ends a build that failed,
// whatever is being built (GCC's and clang's diagnostics, the GNU Coding Standards' "Formatting Error Messages"); a
// program's own `… threw exception: …` ends the run it is in; a parse of a framework named in more words than one
// (`TensorFlow 2.x`) is a parse; a kernel Oops names the module it was loading (`name(O+)` in `Modules linked in:`,
// kernel/module/main.c `module_flags`) and the module its instruction pointer is in; an optimize progress bar printed after
// the compile was reached (a subprocess's stderr shown after its stdout) does not start the optimize again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => d.message).join(' | ');

test("a compiler's `file:line:column: error:` line ends the build that failed, whatever it builds; its warning and note lines do not", () => {
  // AlexanderS/tbsecp3-driver#12 (a DVB driver on kernel 6.1, gcc 12), the compiler's lines only — without make's `Error 2` after them.
  const gcc = read([
    '~/tbsecp3-driver/tbsecp3/tbsecp3-core.c: In function ‘tbsecp3_probe’:',
    '~/tbsecp3-driver/tbsecp3/tbsecp3-core.c:179:12: error: implicit declaration of function ‘pci_set_dma_mask’ [-Werror=implicit-function-declaration]',
    '  179 |         if(pci_set_dma_mask(pdev, DMA_BIT_MASK(64)))',
    '      |            ^~~~~~~~~~~~~~~~',
  ]);
  assert.equal(gcc.outcome, 'failed');
  assert.match(said(gcc), /pci_set_dma_mask/);
  // sysprog21/simrupt#1 (jserv's build on Linux 5.15): the preprocessor's error, a path from the root.
  const macro = read([
    '/home/jserv.linux/simrupt/simrupt.c: In function ‘simrupt_init’:',
    '/home/jserv.linux/simrupt/simrupt.c:341:42: error: macro "class_create" requires 2 arguments, but only 1 given',
    '  341 |     simrupt_class = class_create(DEV_NAME);',
    '      |                                          ^',
  ]);
  assert.equal(macro.outcome, 'failed');
  assert.match(said(macro), /class_create/);
  // sysprog21/fibdrv#15: a warning in the same form is no failure (nor a note).
  const warned = read([
    '/home/lin/Desktop/github/fibdrv/fibdrv.c: In function ‘fib_sequence’:',
    '/home/lin/Desktop/github/fibdrv/fibdrv.c:31:5: warning: ISO C90 forbids variable length array ‘f’ [-Wvla]',
    '   31 |     long long f[k + 2];',
    './include/linux/device/class.h:273: note: macro "class_create" defined here',
  ]);
  assert.notEqual(warned.outcome, 'failed');
});

test("a program's own `… threw exception: …` ends the run it is in; an author's `it threw exception` does not", () => {
  // Quartz's SchedulerException for a listener (org.quartz.core.QuartzScheduler: `JobListener '…' threw exception: ` + its message).
  const quartz = read(["JobListener 'auditListener' threw exception: Connection refused"]);
  assert.equal(quartz.outcome, 'failed');
  assert.match(said(quartz), /auditListener/);
  // .NET's unhandled exception (the runtime's `Unhandled exception. ` before the exception's own line).
  const dotnet = read(['Unhandled exception. System.ArgumentOutOfRangeException: Specified argument was out of the range of valid values.']);
  assert.equal(dotnet.outcome, 'failed');
  assert.notEqual(read(['When I ran it with the new model it threw exception about the range.']).outcome, 'failed');
});

test('a parse of a framework named in more than one word (`TensorFlow 2.x`) is a parse that started and finished', () => {
  // dfc-corpus unseen11/51 (hailomz profile of a TensorFlow model), its first lines.
  const r = read([
    '<Hailo Model Zoo INFO> Start run for network unet_mobilenet_v2 ...',
    '<Hailo Model Zoo INFO> Initializing the hailo8 runner...',
    '[info] Translation completed on TensorFlow 2.x model unet_mobilenet_v2',
    '[info] Initialized runner for unet_mobilenet_v2',
  ]);
  assert.equal(r.stages.find((s) => s.name === 'parse')?.status, 'ok');
  assert.equal(r.outcome, 'success');
  assert.equal(r.network, 'unet_mobilenet_v2');
});

test('a kernel Oops names the module it was loading, and the module its instruction pointer is in', () => {
  // daniel-santos/mcp2210-linux#5: an Oops after `insmod mcp2210.ko`, in the kernel's own __dev_printk (x86's older `IP: [<…>]`).
  const loading = read([
    '[   46.954243] BUG: unable to handle kernel NULL pointer dereference at 00000000000000d8',
    '[   46.954245] IP: [<ffffffff81471251>] __dev_printk+0x11/0x90',
    '[   46.954251] PGD 0 ',
    '[   46.954252] Oops: 0000 [#1] SMP ',
    '[   46.954254] Modules linked in: mcp2210(OF+) pci_stub vboxpci(OF) vboxnetadp(OF) vboxnetflt(OF) vboxdrv(OF) autofs4(F) dm_crypt(F)',
    '[   46.954287] CPU: 0 PID: 2934 Comm: insmod Tainted: PF          O 3.11.0-14-generic #',
  ]);
  const splat = loading.diagnostics.find((d) => d.code === 'dfc/kernel-splat');
  assert.ok(splat, said(loading));
  assert.match(splat.message, /__dev_printk/);
  assert.match(splat.message, /loading the module mcp2210\b/);
  assert.doesNotMatch(splat.message, /vboxpci/);
  // datto/dattobd#26: the fault is in the module's own init (`[dattobd]` after the IP's symbol), itself being loaded.
  const inModule = read([
    '[  267.752739] BUG: unable to handle kernel paging request at ffff88009d5e3000',
    '[  267.761826] IP: [<ffffffffa0a42101>] agent_init+0x101/0x1000 [dattobd]',
    '[  267.770829] PGD 1d24067 PUD 13efff067 PMD 13effe067 PTE 0',
    '[  267.779723] Oops: 0000 [#1] SMP ',
    '[  267.788439] Modules linked in: dattobd(O+) nf_log_ipv4 nf_log_common xt_LOG xt_TCPMSS aufs(O) dm_crypt dm_mod',
  ]);
  const s2 = inModule.diagnostics.find((d) => d.code === 'dfc/kernel-splat');
  assert.ok(s2, said(inModule));
  assert.match(s2.message, /agent_init in the module dattobd/);
  // Neither splat is the run's failure.
  assert.notEqual(loading.outcome, 'failed');
  assert.notEqual(inModule.outcome, 'failed');
});

test("an optimize progress bar after the compile was reached is that optimize's output shown late, not the optimize running again", () => {
  // dfc-corpus unseen/02's end of a DFC 5.3 compile, then the calibration bar of heldout/32's optimize, as a notebook
  // shows a subprocess's stdout and then its stderr; and the same after a `hailo compiler` command line. (The metamorphic
  // dfc-excerpt-stages test's refusal-then-retry of unseen17/02, which draws `hailo optimize` from that bar, is its outcome's test.)
  const tail = [
    '[info] multilingual_..._v2 Successful Partition and Allocation (duration: 8m 05s)',
    '[info] multilingual_..._v2 Successful Kernel Compilation (duration: 4s)',
    '[info] multilingual_..._v2 Successful Compilation (duration: 8m 20s)',
    '',
    '----- STDERR -----',
    'Calibration: 100%|████████████████████████████████| 64/64 [00:18<00:00,  3.53entries/s]',
  ];
  const r = read(tail);
  assert.equal(r.outcome, 'success');
  assert.notEqual(r.stages.find((s) => s.name === 'optimize')?.status, 'running');
  assert.equal(read(['$ hailo compiler model_quantized.har --hw-arch hailo8', ...tail]).outcome, 'success');
  // Before any compile, the same bar is the optimize running.
  const running = read(['[info] Starting Model Optimization', tail[5]]);
  assert.equal(running.stages.find((s) => s.name === 'optimize')?.status, 'running');
});

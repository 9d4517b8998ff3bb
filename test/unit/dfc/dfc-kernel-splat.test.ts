// The kernel's splats around a runtime's failure (issue 30, the thirteenth batch: dfc-corpus unseen12/56–57, the hailo_pci
// driver's find_vma WARN flood and a hung task's call trace, then HailoRT's or the driver's own error). The class: a
// splat (`WARNING: CPU: … at …`, `BUG:`, an Oops, a hung task, `Call trace:` and `func+off/size [module]` frames, RIP/pc)
// is evidence — its top function and the module on its stack named, a flood counted once — and never the run's failure
// line nor a cause invented; the runtime's own error after it is the failure, in its words. Forms: the kernel's
// kernel/panic.c `__warn` (`WARNING: CPU: %d PID: %d at %pS`, with the file and line when known), the `%pS` symbol
// (`name+0xoff/0xsize [module]`), x86's `RIP: 0010:` and `<TASK>` markers, arm64's `pc : `/`lr : `.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

function read(lines: string[]) {
  return readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
}
const splats = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.code === 'dfc/kernel-splat');

/** One arm64 WARN splat of the hailo_pci find_vma report (hailo-ai/hailort-drivers#44: find_vma+0x6c/0x80, include/linux/rwsem.h:80, hailo_vdma_buffer_map / hailo_pcie_fops_unlockedioctl). */
function armWarn(t: number): string[] {
  const at = (k: number) => `[ ${(t + k / 1e6).toFixed(6)}] `;
  return [
    '------------[ cut here ]------------',
    'WARNING: CPU: 3 PID: 2145 at include/linux/rwsem.h:80 find_vma+0x6c/0x80',
    'Modules linked in: hailo_pci(O) rpivid_hevc(C) v4l2_mem2mem',
    'CPU: 3 PID: 2145 Comm: frigate.detecto Tainted: G        W  O       6.12.62+rpt-rpi-2712 #1  Debian 1:6.12.62-1+rpt1',
    'Hardware name: Raspberry Pi 5 Model B Rev 1.0 (DT)',
    'pstate: 60400009 (nZCv daif +PAN -UAO -TCO -DIT -SSBS BTYPE=--)',
    'pc : find_vma+0x6c/0x80',
    'lr : hailo_vdma_buffer_map+0x8c/0x5e8 [hailo_pci]',
    'sp : ffffc000853bbb20',
    'x29: ffffc000853bbb20 x28: ffff8000d6a0e000 x27: 0000000000000000',
    'Call trace:',
    ' find_vma+0x6c/0x80',
    ' hailo_vdma_buffer_map+0x8c/0x5e8 [hailo_pci]',
    ' hailo_vdma_buffer_map_ioctl+0xdc/0x340 [hailo_pci]',
    ' hailo_vdma_ioctl+0xcc/0x260 [hailo_pci]',
    ' hailo_pcie_fops_unlockedioctl+0x17c/0x610 [hailo_pci]',
    ' __arm64_sys_ioctl+0xb4/0x100',
    '---[ end trace 0000000000000000 ]---',
  ].map((l, k) => `${at(k)}${l}`);
}

test("kernel splat: unseen12/56 — a hung task's call trace beside HailoRT's timeout: the timeout is the failure, the trace names its function and the driver", () => {
  const r = read([
    'Unfortunately, while this fix silences the dmesg spamming, but it causes the hailo driver to hang after a minute or ten.',
    '',
    '[HailoRT] [error] CHECK failed - Waiting for async job to finish has failed with timeout (1000ms)',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)',
    '',
    'And the kernel:',
    '[ 1209.578099] Call trace:',
    '[ 1209.578101]  __switch_to+0xf0/0x160',
    '[ 1209.578111]  __schedule+0x32c/0xb60',
    '[ 1209.578115]  schedule+0x3c/0x148',
    '[ 1209.578119]  schedule_preempt_disabled+0x2c/0x50',
    '[ 1209.578124]  rwsem_down_read_slowpath+0x1e0/0x510',
    '[ 1209.578127]  down_read+0xb0/0xc0',
    '[ 1209.578130]  hailo_vdma_buffer_map+0x3c8/0x6b0 [hailo_pci]',
    '[ 1209.578141]  hailo_vdma_buffer_map_ioctl+0xcc/0x348 [hailo_pci]',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    ['hailort/timeout'],
  );
  const [s] = splats(r);
  assert.ok(s, JSON.stringify(r.diagnostics));
  assert.equal(s.severity, 'warning');
  assert.equal(s.logLine, 7);
  // The scheduler's frames say nothing of where: the first frame past them is the splat's function.
  assert.match(s.message, /at rwsem_down_read_slowpath\b/);
  assert.match(s.message, /hailo_vdma_buffer_map in the module hailo_pci/);
});

test("kernel splat: unseen12/57 — the driver's own line after the WARN flood is the failure, in its words", () => {
  const r = read(['```', 'hailo 0001:01:00.0: Device disconnected while opening device', '```']);
  const e = r.diagnostics.find((d) => d.severity === 'error');
  assert.ok(e && e.message.includes('Device disconnected while opening device'), JSON.stringify(r.diagnostics));
  assert.equal(r.outcome, 'failed');
});

test('kernel splat: a WARN flood is one splat, counted; the runtime error after it is the failure; no splat line is a warning of its own or an error', () => {
  const r = read([
    ...armWarn(4811.1),
    ...armWarn(4811.3),
    ...armWarn(4812.0),
    // HailoRT's own error when it next opens the device (unseen12/03's wording, another program's log).
    '[HailoRT] [error] Failed to open device file /dev/hailo0 with error 6',
  ]);
  assert.equal(r.outcome, 'failed');
  const ss = splats(r);
  assert.equal(ss.length, 1, JSON.stringify(r.diagnostics.map((d) => d.code)));
  assert.match(ss[0].message, /a WARNING at find_vma \(include\/linux\/rwsem\.h:80\), for the process frigate\.detecto — 3 times, lines 2–54/);
  assert.match(ss[0].message, /hailo_vdma_buffer_map in the module hailo_pci/);
  assert.match(ss[0].message, /for the process frigate\.detecto/);
  assert.match(ss[0].message, /The run's failure is the error after it, in its own words \(line 55\)/);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].logLine, 55);
  assert.ok(!r.diagnostics.some((d) => d.code === 'dfc/unrecognised-warning'), 'the WARN header is the splat, not a warning no entry knows');
  // A flood of 400 splats stays one diagnostic.
  const flood = read(Array.from({ length: 400 }, (_, i) => armWarn(5000 + i)).flat());
  assert.equal(splats(flood).length, 1);
  assert.match(splats(flood)[0].message, /400 times/);
});

test("kernel splat: the same class in a log unseen12 does not hold — x86's RIP and <TASK> form before a Python program's HailoRT timeout", () => {
  const r = read([
    '[ 5123.334455] ------------[ cut here ]------------',
    '[ 5123.334460] WARNING: CPU: 1 PID: 4242 at mm/mmap.c:1850 find_vma+0x5b/0x70',
    '[ 5123.334500] Modules linked in: hailo_pci(OE) snd_hda_intel',
    '[ 5123.334520] CPU: 1 PID: 4242 Comm: python3 Tainted: G           OE      6.8.0-45-generic #45-Ubuntu',
    '[ 5123.334522] Hardware name: To Be Filled By O.E.M. B660M Pro RS/B660M Pro RS, BIOS 10.02 01/01/2024',
    '[ 5123.334525] RIP: 0010:find_vma+0x5b/0x70',
    '[ 5123.334600] Call Trace:',
    '[ 5123.334602]  <TASK>',
    '[ 5123.334610]  ? show_regs+0x6d/0x80',
    '[ 5123.334615]  ? __warn+0x89/0x160',
    '[ 5123.334620]  hailo_vdma_buffer_map+0x4f/0x5e0 [hailo_pci]',
    '[ 5123.334630]  hailo_vdma_ioctl+0x1c4/0x260 [hailo_pci]',
    '[ 5123.334640]  __x64_sys_ioctl+0xa3/0xf0',
    '[ 5123.334650]  </TASK>',
    '[ 5123.334655] ---[ end trace 0000000000000000 ]---',
    // pyhailort's timeout class and message (hailo_platform's HailoRTTimeout, docs/dfc-log.md hailort/timeout).
    'hailo_platform.pyhailort.pyhailort.HailoRTTimeout: Received a timeout - hailort has failed because a timeout had occurred',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.ok(
    r.diagnostics.some((d) => d.code === 'hailort/timeout' && d.severity === 'error'),
    JSON.stringify(r.diagnostics),
  );
  const [s] = splats(r);
  assert.ok(s);
  assert.match(s.message, /a WARNING at find_vma \(mm\/mmap\.c:1850\)/);
  assert.match(s.message, /hailo_vdma_buffer_map in the module hailo_pci/);
  assert.match(s.message, /line 16/);
});

test('kernel splat: alone it ends nothing — a run that succeeded stays a success, the splat said as evidence', () => {
  const r = read([
    'Starting Measurements...',
    'Measuring FPS in hw_only mode',
    ...armWarn(100),
    'Network yolov5m_wo_spp_60p/yolov5m_wo_spp_60p: 100% | 3271 | FPS: 217.97 | ETA: 00:00:00',
    '=======',
    'Summary',
    '=======',
    'FPS     (hw_only)                 = 217.973',
  ]);
  assert.equal(r.outcome, 'success');
  assert.equal(splats(r).length, 1);
  assert.match(splats(r)[0].message, /not by itself the run's failure/);
  assert.ok(!r.diagnostics.some((d) => d.severity === 'error'));
});

test("kernel splat: a hung task (kernel/hung_task.c) right after HailoRT's error line is its own report, not the rest of that line", () => {
  // hung_task.c prints `INFO: task %s:%d blocked for more than %ld seconds.`, the taint, the `echo 0 > …` hint and the task's state.
  const r = read([
    '[HailoRT] [error] CHECK failed - Waiting for async job to finish has failed with timeout (1000ms)',
    '[ 1209.578011] INFO: task python3:2145 blocked for more than 122 seconds.',
    '[ 1209.578020]       Tainted: G         C O       6.12.25+rpt-rpi-2712 #1',
    '[ 1209.578024] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.',
    '[ 1209.578027] task:python3         state:D stack:0     pid:2145  tgid:2145  ppid:1      flags:0x00000204',
    '[ 1209.578099] Call trace:',
    '[ 1209.578101]  __switch_to+0xf0/0x160',
    '[ 1209.578111]  __schedule+0x32c/0xb60',
    '[ 1209.578124]  rwsem_down_read_slowpath+0x1e0/0x510',
    '[ 1209.578130]  hailo_vdma_buffer_map+0x3c8/0x6b0 [hailo_pci]',
  ]);
  const err = r.diagnostics.find((d) => d.severity === 'error');
  assert.ok(err && !err.message.includes('blocked for more than'), JSON.stringify(r.diagnostics));
  const [s] = splats(r);
  assert.ok(s);
  assert.equal(s.logLine, 2);
  assert.match(s.message, /hung task\) at rwsem_down_read_slowpath, for the process python3/);
});

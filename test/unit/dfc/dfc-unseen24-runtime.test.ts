// Classes the twenty-fifth batch of users' logs (dfc-corpus unseen24/) showed the reader missing at runtime: a kernel WARN
// header an author quotes with its CPU and PID elided (`WARNING: ... at file:line func+off/size`, unseen24/43). Each test
// reads lines of another source than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (lines: string[]) => read(lines).diagnostics.map((d) => `${d.code}:${d.severity}`);

test("a kernel WARN header quoted with its CPU and PID elided is the kernel's splat, at its function", () => {
  // A Linux commit message quoting the splat it fixes (hwrng: refcount_t use-after-free; library file 53867489321).
  const commit = [
    'refcount_t: addition on 0; use-after-free.',
    'WARNING: ... at lib/refcount.c:25 refcount_warn_saturate+0xec/0x1c0',
    'Call Trace:',
    ' kthread_stop+0x181/0x360',
    ' hwrng_unregister+0x288/0x380',
    ' virtrng_remove+0xe3/0x200',
  ];
  const r = read(commit);
  const s = r.diagnostics.filter((d) => d.code === 'dfc/kernel-splat');
  assert.equal(s.length, 1, JSON.stringify(r.diagnostics));
  assert.equal(s[0].severity, 'warning');
  assert.match(s[0].message, /a WARNING at refcount_warn_saturate \(lib\/refcount\.c:25\)/);
  // A session note's prose quoting the header in a code span (tailscale's TUN interface; library file 60286957214).
  const prose = [
    '`tailscaled` failed to bring up its `tailscale0` kernel TUN interface',
    '(`tstun.New("tailscale0"): invalid argument`), reproduced twice with a kernel',
    '`WARNING: ... at net/ethtool/common.c:534 ethtool_check_ops+0x18/0x30` at the moment of the',
    'failing `TUNSETIFF` ioctl.',
  ];
  const p = read(prose).diagnostics.find((d) => d.code === 'dfc/kernel-splat');
  assert.ok(p, JSON.stringify(read(prose).diagnostics));
  assert.match(p.message, /a WARNING at ethtool_check_ops \(net\/ethtool\/common\.c:534\)/);
  assert.ok(!codes(prose).includes('dfc/unrecognised-warning:warning'), codes(prose).join());
  // An elided header without the kernel's symbol form (a note's `WARNING: ... at f2fs_put_page`, library file 66498589634),
  // or any warning with an ellipsis, is no splat.
  assert.ok(!codes(['   - 不应出现 `WARNING: ... at f2fs_put_page`']).includes('dfc/kernel-splat:warning'));
  assert.ok(!codes(['WARNING: ... at the end of the calibration the range is narrow']).includes('dfc/kernel-splat:warning'));
});

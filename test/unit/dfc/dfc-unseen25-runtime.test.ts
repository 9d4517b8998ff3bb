// The classes the twenty-sixth batch's runtime, driver and application logs (dfc-corpus unseen25/ 12, 46, 72, …) showed
// the reader missing, tested on lines that batch does not contain: a program that could not learn something and goes
// on under an assumption (failureWords.ts GOES_ON: iptables' libxtables `Could not determine whether revision %u is
// supported, assuming it is.`), `hailortcli run2`'s timer track at 100% with nothing left (markers.ts run2Done:
// hailortcli/run2/timer_live_track.cpp's `[{:=>{}}{:{}}] {:>3}% {}`, a 20-wide bar; dfc-corpus unseen11/61's run), and a
// program's word of success in Chinese, Japanese or Korean as its line's last word (markers.ts CJK_SUCCEEDED: the
// `print("✅ 推理成功！")` of public inference scripts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');

test('a program that could not learn something and goes on assuming an answer has not failed; the failure after it is the one said', () => {
  // libxtables (iptables, libxtables/xtables.c compatible_revision): printed on EPERM, and the program goes on.
  const assumed = 'Could not determine whether revision 1 is supported, assuming it is.';
  const alone = read(['$ python3 detect.py --hef yolov8n.hef', assumed]);
  assert.notEqual(alone.outcome, 'failed', said(alone));
  assert.equal(alone.diagnostics.filter((d) => d.severity === 'error').length, 0, said(alone));
  // Before it, a real failure stays the run's: dpkg's heading and its reason (dpkg src/main/archives.c), not the assumption.
  const r = read([
    '$ sudo dpkg -i hailort_4.20.0_arm64.deb',
    'dpkg: error processing archive hailort_4.20.0_arm64.deb (--install):',
    " trying to overwrite '/usr/bin/hailortcli', which is also in package hailo-all 4.20.0",
    'Errors were encountered while processing:',
    ' hailort_4.20.0_arm64.deb',
    '$ sudo iptables -L',
    assumed,
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /which is also in package hailo-all/);
  assert.doesNotMatch(said(r), /revision 1 is supported/);
});

test("hailortcli run2's timer track at 100% with nothing left is its answer: the run went through its time; a frame cut before is not", () => {
  // dfc-corpus unseen11/61: HailoRT 5.1.1's run2 on a Hailo-10H, its live printer's last frame.
  const done = read([
    '$ hailortcli run2 --time-to-run 5 set-net ~/models/hailo10h/resnet_v1_50_h10.hef',
    '[===================>] 100% 00:00:00',
    'resnet_v1_50: fps: 307.46',
  ]);
  assert.equal(done.outcome, 'success', said(done));
  // The same printer half-way (timer_live_track.cpp: the bar 10 of 20 wide, 50 %, 3 seconds left): the run had not ended.
  const cut = read([
    '$ hailortcli run2 --time-to-run 5 set-net ~/models/hailo10h/resnet_v1_50_h10.hef',
    '[=========>          ]  50% 00:00:03',
    'resnet_v1_50: fps: 306.90',
  ]);
  assert.notEqual(cut.outcome, 'success');
  // An error after the bar still fails the run.
  const failed = read([
    '$ hailortcli run2 set-net yolov8s.hef',
    '[===================>] 100% 00:00:00',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)',
  ]);
  assert.equal(failed.outcome, 'failed');
});

test('a program that says it succeeded in Chinese, Japanese or Korean, as its line ends, has ended well; a heading, a condition or a negation has not', () => {
  // Public inference scripts' own words: `print("✅ 推理成功！")`, `print(f"   ✅ 推理成功!")`.
  for (const ok of ['✅ 推理成功！', '   ✅ 推理成功!', 'HEFの読み込みに成功しました。', '모델 로드 성공']) {
    const r = read(['$ python3 infer.py --hef yolov8n.hef', ok]);
    assert.equal(r.outcome, 'success', ok);
  }
  for (const no of ['推理未成功', '如果推理成功', '**成功指標**:', '成功时会看到类似：', 'HEFの読み込みに成功しませんでした', '모델 로드 실패, 성공']) {
    const r = read(['$ python3 infer.py --hef yolov8n.hef', no]);
    assert.notEqual(r.outcome, 'success', no);
  }
  // An error after it still fails the run.
  const r = read([
    '$ python3 infer.py --hef yolov8n.hef',
    '✅ 推理成功！',
    '[HailoRT] [error] Failed to create vdevice. status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
  ]);
  assert.equal(r.outcome, 'failed');
});

test("a HailoRT status or pyhailort exception an author names in a sentence is said with the author's sentence: their cause, their other errors", () => {
  // dfc-corpus unseen6/19 and unseen11/66: a changelog's problem and a README's heading, each naming the status in a span.
  const boot = read(['**Problem:** `hailo-whisper` was failing at startup with `HAILO_INVALID_ARGUMENT(2)` on every boot.']);
  assert.match(said(boot), /HAILO_INVALID_ARGUMENT/);
  assert.match(said(boot), /The author's words: «Problem: hailo-whisper was failing at startup with HAILO_INVALID_ARGUMENT\(2\) on every boot»/);
  const memory = read(['### LLM/VLM load fails with `HAILO_OUT_OF_HOST_MEMORY` or the Pi locks up']);
  assert.match(said(memory), /The author's words: «LLM\/VLM load fails with HAILO_OUT_OF_HOST_MEMORY or the Pi locks up»/);
  // A Chinese sentence ends at its full stop: the next sentence is not this one's words.
  const zh = read([
    '这个检测器起不来，会报 `HAILO_OUT_OF_PHYSICAL_DEVICES`。要同时跑多个应用，需要把板上每一个 Hailo 消费者都改成走 hailort.service 多进程调度器。',
  ]);
  assert.match(said(zh), /«这个检测器起不来，会报 HAILO_OUT_OF_PHYSICAL_DEVICES。»/);
  // A log line quoted in a span is the log itself, and a span that is only the name with too few words around says nothing more.
  for (const line of [
    'It fails with `[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)`.',
    'Got `HAILO_OUT_OF_PHYSICAL_DEVICES` again.',
  ]) {
    const r = read([line]);
    assert.match(said(r), /HAILO_OUT_OF_PHYSICAL_DEVICES/, line);
    assert.doesNotMatch(said(r), /The author's words/, line);
  }
});

test("a table of issues and their fixes says every row's failure, not only the first and the last", () => {
  // pkg-config's `No package '%s' found`, git's `fatal: unable to access '%s': %s`, and V4L2's open failing as ffmpeg prints
  // it (`%s: No such file or directory`): each row an incident of its own.
  const r = read([
    '| Symptom | Fix |',
    '|---|---|',
    "| `No package 'hailo-tappas-core' found` when building the app | Installed `hailo-tappas-core` from the Hailo apt repository |",
    "| `fatal: unable to access 'https://github.com/hailo-ai/hailo-apps.git/': Could not resolve host: github.com` in the build | Set the build's DNS |",
    '| `/dev/video0: No such file or directory` at start-up | Passed the camera into the container with `--device` |',
  ]);
  assert.equal(r.outcome, 'failed');
  const text = said(r);
  assert.match(text, /No package 'hailo-tappas-core' found/);
  assert.match(text, /unable to access 'https:\/\/github\.com\/hailo-ai\/hailo-apps\.git\/'/);
  assert.match(text, /\/dev\/video0: No such file or directory/);
});

test('source said not to compile or build is a failure told in words; a condition, a question or a script echoing it is not', () => {
  // A Linux kernel mailing list report's first line and a DKMS driver README's (rknpu-driver-dkms), each of the thing itself.
  for (const line of ['old aic7xxx driver does not compile on 2.4.10-ac4', 'WIP! The driver does not compile currently.']) {
    const r = read([line]);
    assert.equal(r.outcome, 'failed', line);
    assert.match(said(r), /does not compile/, line);
  }
  for (const line of [
    'If the module does not compile, read /var/lib/dkms/hailo_pci/4.20.0/build/make.log',
    'Why does the driver not compile on 6.15?',
    'echo "!! the census driver does not compile against the control"',
  ]) {
    const r = read([line]);
    assert.notEqual(r.outcome, 'failed', line);
  }
});

// What the Hailo-10H's driver said in the kernel log (a captured /var/log/kern.log under the root).
// After loading the firmware, hailo1x_pci asks the device's pci_ep driver its version and, unless
// major, minor and revision equal its own, logs "Mismatch Driver version pcie driver X:Y:Z pci_ep
// driver A:B:C" and refuses every SoC request from then on (hailort-drivers linux/pcie/src/soc.c
// hailo_soc_get_driver_info, driver_compatible = false, -EINVAL; v5.0.1-v5.3.0). The device keeps
// its /dev/hailo* node, so nothing else on disk shows it. Lines are the kernel's dev_printk form,
// "hailo1x 0001:01:00.0: …" (as in hailo-apps#111's log); a mismatch counts only when it follows
// the last "Init module" of the driver and the last "Probing on" of its device — a reboot, a module
// reload or a PCI reset re-probes, and an older line no longer describes the device.
import { join } from 'node:path';
import { closeFile, FileAccessError, readIntoSync } from '../common/fileAccess';
import type { DoctorFiles } from './files';
import type { Finding, KernelLogFacts, SocDriverMismatch, SystemSnapshot } from './types';

/** The tail read: kern.log rotates weekly; the last boot's driver lines are near the end. */
const TAIL_BYTES = 4 << 20;

export const KERNEL_LOG_SOURCE =
  'hailort-drivers linux/pcie/src/soc.c (hailo_soc_get_driver_info: "Mismatch Driver version pcie driver %u:%u:%u pci_ep driver %u:%u:%u", driver_compatible = false) and linux/pcie/src/pcie.c (hailo_soc_get_driver_info after the firmware load; "Init module. driver version", "Probing on")';

const INIT = /\bhailo1x: Init module\. driver version /;
const PROBE = /\bhailo1x (\S+): Probing on: /;
const MISMATCH = /\bhailo1x (\S+): Mismatch Driver version pcie driver (\d+):(\d+):(\d+) pci_ep driver (\d+):(\d+):(\d+)/;

function tail(fs: DoctorFiles, path: string): string | { unreadable: string } | undefined {
  let opened: { fd: number; size: number };
  try {
    opened = fs.openSync(path);
  } catch (err) {
    if (err instanceof FileAccessError && err.code === 'ENOENT') return undefined; // no kernel log: nothing to say
    return { unreadable: err instanceof Error ? err.message : String(err) };
  }
  try {
    const length = Math.min(opened.size, TAIL_BYTES);
    const buf = Buffer.allocUnsafe(length);
    const n = readIntoSync(opened.fd, buf, 0, length, opened.size - length);
    const text = buf.subarray(0, n).toString('utf8');
    // A cut first line is not a whole message.
    return length < opened.size ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeFile(opened.fd);
  }
}

/** The lines that name hailo1x, found by indexOf: no array of every kernel line. */
function driverLines(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('hailo1x'); at >= 0;) {
    const end = text.indexOf('\n', at);
    out.push(text.slice(text.lastIndexOf('\n', at) + 1, end < 0 ? text.length : end));
    if (end < 0) break;
    at = text.indexOf('hailo1x', end);
  }
  return out;
}

/** The standing driver/firmware mismatches of the last boot's hailo1x_pci, per device. */
export function parseKernelLog(text: string): SocDriverMismatch[] {
  const lines = driverLines(text);
  let start = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (INIT.test(lines[i])) {
      start = i;
      break;
    }
  }
  const byDevice = new Map<string, SocDriverMismatch | undefined>();
  for (const line of lines.slice(start)) {
    const probe = PROBE.exec(line);
    if (probe) {
      byDevice.set(probe[1], undefined); // re-probed: what came before is history
      continue;
    }
    const m = MISMATCH.exec(line);
    if (m)
      byDevice.set(m[1], {
        address: m[1].slice(0, 40),
        pcieDriver: `${m[2]}.${m[3]}.${m[4]}`,
        endpointDriver: `${m[5]}.${m[6]}.${m[7]}`,
        line: line.trim().slice(0, 300),
      });
  }
  return [...byDevice.values()].filter((m): m is SocDriverMismatch => !!m);
}

export function probeKernelLog(fs: DoctorFiles): KernelLogFacts | undefined {
  const rooted = 'var/log/kern.log';
  const text = tail(fs, join(fs.root, rooted));
  if (text === undefined) return undefined;
  if (typeof text !== 'string') return { path: `/${rooted}`, mismatches: [], unreadable: text.unreadable };
  return { path: `/${rooted}`, mismatches: parseKernelLog(text) };
}

export function kernelLogFindings(system: SystemSnapshot): Finding[] {
  const log = system.kernelLog;
  if (!log) return [];
  if (log.unreadable && system.pci.some((p) => p.family === 'hailo10h'))
    return [
      {
        code: 'kernel-log-unreadable',
        severity: 'info',
        sentence: `${log.path} was not read (${log.unreadable}), so a driver/firmware version mismatch the Hailo-10H's driver logged there is not checked.`,
        fix: 'Run the doctor as a member of the adm group (or with sudo), or save "journalctl -k" to a file and pass its folder layout with --root.',
        source: KERNEL_LOG_SOURCE,
      },
    ];
  return log.mismatches.map((m) => ({
    code: 'soc-driver-mismatch',
    severity: 'error' as const,
    sentence: `The Hailo-10H at ${m.address} runs firmware whose driver is ${m.endpointDriver} while the host's hailo1x_pci is ${m.pcieDriver}; the driver then refuses every request to the device (${log.path}: "${m.line}"), so HailoRT cannot open it.`,
    fix: firmwareResetFix(m.address, m.pcieDriver),
    source: `${KERNEL_LOG_SOURCE}; ${RESET_SOURCE}`,
  }));
}

/** Where the reset comes from: a live upgrade left the 5.3.0 driver talking to 5.1.1 firmware, recovered without a reboot. */
export const RESET_SOURCE =
  'github.com/hailo-ai/hailo_model_zoo_genai PR#11 (PCI reset and driver reload after a live upgrade; hailortcli fw-control identify then reports the new firmware)';

/**
 * The device keeps the firmware it booted until it is reset: after a live upgrade of hailo1x_pci a
 * PCI reset and a reload of the driver load the new firmware, no reboot needed.
 */
export function firmwareResetFix(address: string, driverVersion: string): string {
  const at = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/i.test(address) ? address : '<PCI address>';
  return `Reset the device so it loads the firmware of the ${driverVersion} driver — no reboot needed: "sudo modprobe -r hailo1x_pci && echo 1 | sudo tee /sys/bus/pci/devices/${at}/reset && sudo modprobe hailo1x_pci" (where /sys/bus/pci/devices/${at}/reset exists; otherwise reboot), with the firmware files of HailoRT ${driverVersion} in /lib/firmware/hailo/hailo10h/; "hailortcli fw-control identify" then reports firmware ${driverVersion}.`;
}

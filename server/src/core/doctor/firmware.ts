// The firmware files Hailo's PCIe driver loads into a device when it probes it. The driver reads
// them with request_firmware_direct() from the kernel's firmware folders and gives up on the device
// when a mandatory one is missing ("Failed to load mandatory firmware file …", then "Firmware load
// failed": no /dev/hailo*, nothing for HailoRT to open). hailort-drivers common/pcie_common.c lists
// them per chip (hailo8_files_stg1; hailo10h_files_stg1..3, with `is_mandatory` in 4.x and
// HAILO_FILE_F_MANDATORY in 5.x). The firmware's version is not in these files' names, and the
// Hailo-10H's version check is the driver's own (soc.c hailo_soc_get_driver_info: its version
// against the SoC's pci_ep driver), so nothing here compares versions.
import { join } from 'node:path';
import type { DoctorFiles } from './files';
import type { Finding, FirmwareFiles, SystemSnapshot } from './types';

export const FIRMWARE_SOURCE =
  'hailort-drivers common/pcie_common.c (hailo8_files_stg1, hailo10h_files_stg1-3: the mandatory files; "Failed to load mandatory firmware file") and download_firmware.sh, download_firmware_hailo10h.sh; the kernel firmware loader searches /lib/firmware/updates/<release>, /lib/firmware/updates, /lib/firmware/<release>, /lib/firmware';

/** The mandatory files per chip, relative to a firmware folder; a RegExp stands for a file named by the board (the DTB of its SKU). */
const MANDATORY: Record<'hailo8' | 'hailo10h', { module: 'hailo_pci' | 'hailo1x_pci'; files: (string | { pattern: RegExp; label: string })[] }> = {
  hailo8: { module: 'hailo_pci', files: ['hailo/hailo8_fw.bin'] },
  hailo10h: {
    module: 'hailo1x_pci',
    files: [
      'hailo/hailo10h/customer_certificate.bin',
      'hailo/hailo10h/scu_fw.bin',
      // 5.0.1: u-boot-<sku>.dtb.signed or u-boot-default.dtb.signed; 5.1+: u-boot-%s.dtb.signed, "default" without a SKU.
      { pattern: /^u-boot-[^/]+\.dtb\.signed$/, label: 'hailo/hailo10h/u-boot-<SKU or default>.dtb.signed' },
      'hailo/hailo10h/u-boot-spl.bin',
      'hailo/hailo10h/fitImage',
      'hailo/hailo10h/image-fs',
    ],
  },
};

/** The kernel's firmware folders, in its order (drivers/base/firmware_loader/main.c fw_path). */
export function firmwareDirs(fs: DoctorFiles, root = fs.root): string[] {
  const release = fs.readText(join(root, 'proc', 'sys', 'kernel', 'osrelease'), 256)?.trim();
  const dirs = ['lib/firmware/updates', 'lib/firmware'];
  return release && /^[\w.+-]+$/.test(release) ? [`lib/firmware/updates/${release}`, dirs[0], `lib/firmware/${release}`, dirs[1]] : dirs;
}

export function probeFirmware(fs: DoctorFiles, root = fs.root): FirmwareFiles {
  const out: string[] = [];
  const dirs = firmwareDirs(fs);
  for (const dir of dirs) {
    for (const sub of ['hailo', 'hailo/hailo10h']) {
      for (const name of fs.listDir(join(root, dir, sub))) if (fs.isFile(join(root, dir, sub, name))) out.push(`/${dir}/${sub}/${name}`);
    }
  }
  return { dirs, files: out };
}

/** A mandatory firmware file missing for a Hailo-8 under hailo_pci or a Hailo-10H under hailo1x_pci. Pure. */
export function firmwareFindings(system: SystemSnapshot): Finding[] {
  const out: Finding[] = [];
  const { dirs } = system.firmware;
  const present = new Set(system.firmware.files);
  for (const family of ['hailo8', 'hailo10h'] as const) {
    const devices = system.pci.filter((p) => p.family === family);
    const { module, files } = MANDATORY[family];
    const loaded = system.modules.find((m) => m.name === module);
    if (devices.length === 0 || !loaded) continue;
    const inDir = (dir: string, f: (typeof files)[number]) => {
      if (typeof f === 'string') return present.has(`/${dir}/${f}`);
      const prefix = `/${dir}/hailo/hailo10h/`;
      return [...present].some((p) => p.startsWith(prefix) && f.pattern.test(p.slice(prefix.length)));
    };
    const missing = files.filter((f) => !dirs.some((dir) => inDir(dir, f)));
    if (missing.length === 0) continue;
    const names = missing.map((f) => (typeof f === 'string' ? f : f.label));
    const chip = family === 'hailo8' ? 'Hailo-8/8L' : 'Hailo-10H';
    const version = loaded.version ? ` ${loaded.version}` : '';
    out.push({
      code: 'firmware-missing',
      severity: 'error',
      sentence: `The ${module}${version} driver loads the ${chip}'s firmware from /lib/firmware when it probes the device, and ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} in none of the kernel's firmware folders: the driver gives up on the device ("Failed to load mandatory firmware file"), so no /dev/hailo* appears for it.`,
      fix:
        family === 'hailo8'
          ? `Put the firmware of the driver's version there: hailort-drivers' download_firmware.sh fetches hailo8_fw.${loaded.version ?? '<version>'}.bin, which the driver reads as /lib/firmware/hailo/hailo8_fw.bin (on a Raspberry Pi the hailofw package, which hailo-all depends on); then reboot.`
          : `Put the firmware of the driver's version there: hailort-drivers' download_firmware_hailo10h.sh fetches hailo10h_fw.tar.gz of HailoRT ${loaded.version ?? '<version>'}, whose files the driver reads from /lib/firmware/hailo/hailo10h/; then reboot.`,
      source: FIRMWARE_SOURCE,
    });
  }
  return out;
}

// `hailo-tools doctor [--json] [--root DIR] [--no-device] [--hailort DIR] [FOLDER]`: what is
// installed and whether the pieces agree (server/src/core/doctor). Exit 0 when no finding is an error,
// 1 when one is, 2 on a usage error.
import { resolve } from 'node:path';
import { runDoctor, type DoctorOptions } from '../core/doctor';
import { doctorText } from '../core/doctor/text';
import { commandLineTrust } from '../core/common/trust';
import { DeviceClient, DeviceRequestError } from '../processes/device/client';
import { EXIT_FINDINGS, EXIT_OK, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';

const OPTIONS = {
  json: { type: 'boolean', help: 'one JSON document: components, findings (code, severity, sentence, fix, source)' },
  root: {
    type: 'string',
    arg: 'DIR',
    missing: '--root needs a folder',
    help: 'read sysfs, /dev, the library folders and site-packages under DIR instead of /\n(the devices are then asked only through HAILO_TOOLS_SHIM)',
  },
  'no-device': { type: 'boolean', help: 'do not ask the devices (no native code is loaded)' },
  hailort: { type: 'string', arg: 'DIR', missing: '--hailort needs a folder', help: 'HailoRT install prefix for asking the devices' },
} as const;

const USAGE = `usage: hailo-tools doctor [--json] [--root DIR] [--no-device] [--hailort DIR] [FOLDER]

One table of what is installed — the Hailo kernel module and its version, /dev/hailo*, the Hailo
PCI functions and their driver, every libhailort, each device's firmware (identify), the Python
wheel (hailo_platform) and the Python it is built for, hailort.service, TAPPAS / hailo-apps,
Hailo's Debian packages, the HEFs in FOLDER (default: the current folder) — and one finding with
its fix for each pair that disagrees (rules and sources: docs/doctor.md).
${helpTable(optionRows(OPTIONS))}
Exit: 0 the pieces agree (warnings allowed), 1 a finding is an error, 2 usage.
`;

export async function runDoctorCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('doctor', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, 'no-device': noDevice, hailort: hailortRoot } = parsed.values;
  const root = parsed.values.root === undefined ? undefined : resolve(parsed.values.root);
  const folders = parsed.positionals;
  if (folders.length > 1) return usageError(io, 'doctor', USAGE, `at most one FOLDER, got ${folders.length}`);
  const options: DoctorOptions = { root, folder: resolve(folders[0] ?? '.') };
  if (noDevice) options.noScanReason = '--no-device';
  else if (root && !process.env.HAILO_TOOLS_SHIM) options.noScanReason = '--root: only the files under it were read';
  else {
    const client = new DeviceClient({
      trust: commandLineTrust('doctor'),
      hailortRoot,
      env: root ? { ...process.env, HAILO_TOOLS_SYSFS_ROOT: root } : undefined,
      onEvent: (e) => {
        if (e.type === 'build') io.err(`hailo-tools: ${e.message}\n`);
      },
    });
    try {
      options.scan = await client.scan();
    } catch (err) {
      const error = err instanceof DeviceRequestError ? err.error : undefined;
      // No HailoRT to ask with: the library findings say so; any other failure is itself a finding.
      if (error && error.kind !== 'hailort-missing' && error.kind !== 'build-failed') options.scan = { error };
      else options.noScanReason = error ? error.sentence : String(err);
    } finally {
      client.dispose();
    }
  }
  const report = await runDoctor(options);
  io.out(json ? JSON.stringify(report, null, 2) + '\n' : doctorText(report));
  return report.findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
}

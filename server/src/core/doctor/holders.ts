// Who holds the Hailo device: the processes with a Hailo device node open, read from /proc the way
// `lsof /dev/hailo*` does (each /proc/<pid>/fd/<n> is a link whose text names the file; the link
// is read, never followed). Users' reports name the holders that matter (docs/research/hailo-users.md#device-sharing):
// hailo-ollama keeps the chip while it serves, a second VDevice() then fails with
// HAILO_OUT_OF_PHYSICAL_DEVICES (74), and with HailoRT 5.3+ hailo-ollama shares it when started with
// HAILO_OLLAMA_VDEVICE_GROUP_ID and the other program uses the same group id. Reads under a root
// (`/`, or a fake system in the tests), bounded in processes and descriptors.
import { join } from 'node:path';
import { FileRoots } from '../common/confined';

/** Device nodes of the Hailo drivers: hailo_pci's /dev/hailoN, hailo1x_pci's /dev/h1x-N (5.3+), the 5.x /dev/hailortN. */
const DEVICE_NODE = /^\/dev\/(hailo\d+|h1x-\d+|hailort\d*)$/;
/** At most this many processes and descriptors per process are looked at (a busy host has thousands of each). */
const MAX_PROCESSES = 32_768;
const MAX_FDS = 4_096;

export interface DeviceHolder {
  pid: number;
  /** /proc/<pid>/comm. */
  name: string;
  /** The command line, arguments joined by spaces (at most 200 characters). */
  command: string;
  /** The device nodes it holds. */
  nodes: string[];
  /** HAILO_OLLAMA_VDEVICE_GROUP_ID from its environment, where readable. */
  ollamaGroupId?: string;
}

export function deviceHolders(root = '/', selfPid = process.pid): DeviceHolder[] {
  const holders: DeviceHolder[] = [];
  const roots = FileRoots.system(root);
  const pids = roots
    .listOrEmpty(join(root, 'proc'))
    .filter((p) => /^\d+$/.test(p))
    .slice(0, MAX_PROCESSES);
  for (const pid of pids) {
    if (Number(pid) === selfPid) continue;
    const fdDir = join(root, 'proc', pid, 'fd');
    const nodes = new Set<string>();
    for (const fd of roots.listOrEmpty(fdDir).slice(0, MAX_FDS)) {
      const target = roots.readlink(join(fdDir, fd));
      if (target !== undefined && DEVICE_NODE.test(target)) nodes.add(target);
    }
    if (nodes.size === 0) continue;
    const name = (roots.readTextOrUndefined(join(root, 'proc', pid, 'comm'), 256) ?? '').trim() || '(unknown)';
    const command = (roots.readTextOrUndefined(join(root, 'proc', pid, 'cmdline'), 4096) ?? '').split('\0').filter(Boolean).join(' ').slice(0, 200);
    const environ = roots.readTextOrUndefined(join(root, 'proc', pid, 'environ'), 64 << 10) ?? '';
    const group = environ
      .split('\0')
      .find((e) => e.startsWith('HAILO_OLLAMA_VDEVICE_GROUP_ID='))
      ?.slice('HAILO_OLLAMA_VDEVICE_GROUP_ID='.length);
    holders.push({ pid: Number(pid), name, command, nodes: [...nodes].sort(), ...(group ? { ollamaGroupId: group } : {}) });
  }
  return holders.sort((a, b) => a.pid - b.pid);
}

const isOllama = (h: DeviceHolder) => /hailo-ollama/.test(h.name) || /hailo-ollama/.test(h.command);

/**
 * What the user should do about the holders, in one sentence (empty list: undefined). `groupId`
 * is the group id this side asked for; `hailort` the installed version (sharing with hailo-ollama
 * needs 5.3+).
 */
export function holderSentence(holders: DeviceHolder[], groupId: string, hailort: string): string | undefined {
  if (holders.length === 0) return undefined;
  const who = holders
    .map((h) => `${h.name} (pid ${h.pid}${h.command && h.command !== h.name ? `, \`${h.command}\`` : ''}) holds ${h.nodes.join(', ')}`)
    .join('; ');
  const ollama = holders.find(isOllama);
  if (ollama) {
    const major = Number(hailort.split('.')[0]);
    const minor = Number(hailort.split('.')[1]);
    const canShare = major > 5 || (major === 5 && minor >= 3);
    const share = ollama.ollamaGroupId
      ? `set hailo.device.groupId (CLI --group-id) to ${ollama.ollamaGroupId}, the group id hailo-ollama was started with`
      : canShare
        ? 'restart hailo-ollama with HAILO_OLLAMA_VDEVICE_GROUP_ID=SHARED and set hailo.device.groupId (CLI --group-id) to SHARED'
        : `upgrade to HailoRT 5.3 or newer to share the device with hailo-ollama (HAILO_OLLAMA_VDEVICE_GROUP_ID), this is ${hailort}`;
    return `${who}: stop it (\`sudo systemctl stop hailo-ollama\`, or end the process), or ${share}.`;
  }
  return `${who}: close that program, or give both the same group id (hailo.device.groupId, CLI --group-id, e.g. SHARED)${groupId !== 'UNIQUE' ? ` — this side asked for '${groupId}'` : ''}.`;
}

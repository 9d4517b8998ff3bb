// The machine the doctor looks at (issue 37): its model (a Raspberry Pi 5, from the device tree),
// the OS release, the kernel and its architecture, and the userland's architecture — a 32-bit
// Raspberry Pi OS on a 64-bit kernel cannot install HailoRT's arm64 packages nor run the
// linux-arm64 extension. Read from files under `root` (`--root` reads a copy of a system).
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { openRegularFileSync, readIntoSync, readSmallFileSync } from '../common/fileAccess';

export interface MachineFacts {
  /** The device tree's model ("Raspberry Pi 5 Model B Rev 1.0"); absent on a PC. */
  model?: string;
  /** os-release's PRETTY_NAME ("Debian GNU/Linux 12 (bookworm)"). */
  os?: string;
  /** The running kernel's release (`uname -r`). */
  kernel?: string;
  /** The kernel's architecture (`uname -m`: aarch64, x86_64). */
  kernelArch?: string;
  /** The userland's architecture as Debian names it (arm64, armhf, amd64), from /usr/bin/env's ELF header. */
  userland?: string;
}

const SMALL = 4096;

function text(path: string): string | undefined {
  try {
    return readSmallFileSync(path, SMALL).toString('utf8');
  } catch {
    return undefined;
  }
}

/** One printable line: file-derived, so bounded and without control characters. */
function line(raw: string | undefined): string | undefined {
  const v = raw
    ?.replace(/\0+$/, '')
    .split('\n')[0]
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 120);
  return v || undefined;
}

/** os-release(5): PRETTY_NAME, else NAME VERSION; /etc/os-release first, then /usr/lib/os-release. */
function osRelease(root: string): string | undefined {
  for (const p of ['etc/os-release', 'usr/lib/os-release']) {
    const t = text(join(root, p));
    if (t === undefined) continue;
    const field = (k: string) => {
      const m = new RegExp(`^${k}=(.*)$`, 'm').exec(t)?.[1]?.trim();
      return m?.replace(/^(["'])(.*)\1$/, '$2');
    };
    return line(field('PRETTY_NAME') ?? ([field('NAME'), field('VERSION')].filter(Boolean).join(' ') || undefined));
  }
  return undefined;
}

/** ELF class and e_machine (elf.h: EM_X86_64 62, EM_AARCH64 183, EM_ARM 40, EM_386 3, EM_RISCV 243) → Debian's name. */
const DEBIAN_ARCH: Record<string, string> = { '2:62': 'amd64', '2:183': 'arm64', '1:40': 'armhf', '1:3': 'i386', '2:243': 'riscv64' };

function userlandArch(root: string): string | undefined {
  for (const p of ['usr/bin/env', 'bin/sh']) {
    let fd: number | undefined;
    try {
      const opened = openRegularFileSync(join(root, p));
      fd = opened.fd;
      const head = Buffer.alloc(20);
      if (readIntoSync(fd, head, 0, 20, 0) < 20 || head.readUInt32BE(0) !== 0x7f454c46) continue;
      return DEBIAN_ARCH[`${head[4]}:${head.readUInt16LE(18)}`] ?? `ELF machine ${head.readUInt16LE(18)}`;
    } catch {
      continue;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return undefined;
}

export function probeMachine(root: string): MachineFacts {
  return {
    // The firmware's device tree (Raspberry Pi, most arm64 boards); /proc/device-tree links to it.
    model: line(text(join(root, 'proc', 'device-tree', 'model')) ?? text(join(root, 'sys', 'firmware', 'devicetree', 'base', 'model'))),
    os: osRelease(root),
    kernel: line(text(join(root, 'proc', 'sys', 'kernel', 'osrelease'))),
    // kernel.arch (Linux 6.1+) is what `uname -m` prints.
    kernelArch: line(text(join(root, 'proc', 'sys', 'kernel', 'arch'))),
    userland: userlandArch(root),
  };
}

/** The doctor's one line for the machine: model; OS; kernel and architectures. */
export function machineDetail(m: MachineFacts): string {
  const parts = [
    m.os ?? 'OS release unknown (no os-release)',
    m.kernel ? `kernel ${m.kernel}${m.kernelArch ? ` (${m.kernelArch})` : ''}` : m.kernelArch ? `kernel on ${m.kernelArch}` : undefined,
    m.userland ? `${m.userland} userland` : undefined,
  ];
  return parts.filter(Boolean).join('; ');
}

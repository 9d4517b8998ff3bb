// Pure part of "Hailo: Check Docker Setup": turns the outputs of `docker version` and
// `docker image ls` into one verdict for the user. No VS Code, no processes: unit-tested.
import type { ToolResult } from '../security/runTool';

export interface DockerReport {
  level: 'info' | 'warning' | 'error';
  message: string;
  clientVersion?: string;
  serverVersion?: string;
  /** repository:tag of local images whose name mentions hailo (the DFC / AI SW suite images). */
  hailoImages: string[];
}

/** `docker version --format '{{json .}}'` prints one JSON object; Server is null when the daemon is down. */
export function parseDockerVersion(stdout: string): { client?: string; server?: string } {
  const line = stdout
    .trim()
    .split('\n')
    .find((l) => l.startsWith('{'));
  if (!line) return {};
  try {
    const v = JSON.parse(line) as { Client?: { Version?: string } | null; Server?: { Version?: string } | null };
    return { client: v.Client?.Version, server: v.Server?.Version };
  } catch {
    return {};
  }
}

export function hailoImagesIn(stdout: string): string[] {
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /hailo/i.test(l));
}

export function dockerReport(dockerPath: string, version: ToolResult, images?: ToolResult): DockerReport {
  if (version.error?.code === 'ENOENT') {
    return {
      level: 'error',
      hailoImages: [],
      message: `Docker was not found ('${dockerPath}'). Install Docker, or set hailo.dfc.dockerPath in your user settings.`,
    };
  }
  if (version.error) {
    return { level: 'error', hailoImages: [], message: `Running '${dockerPath} version' failed: ${version.error.message}` };
  }
  const { client, server } = parseDockerVersion(version.stdout);
  if (!server) {
    const why = version.stderr.trim().split('\n')[0] || `exit code ${version.code}`;
    const installed = client ? `Docker ${client} is installed` : 'Docker is installed';
    return { level: 'warning', hailoImages: [], clientVersion: client, message: `${installed} but its daemon is not reachable: ${why}` };
  }
  const hailoImages = images && images.code === 0 ? hailoImagesIn(images.stdout) : [];
  if (hailoImages.length === 0) {
    return {
      level: 'warning',
      clientVersion: client,
      serverVersion: server,
      hailoImages,
      message: `Docker ${server} is reachable, but no Hailo image (Dataflow Compiler / AI SW Suite) is loaded. Load Hailo's image with 'docker load'.`,
    };
  }
  return {
    level: 'info',
    clientVersion: client,
    serverVersion: server,
    hailoImages,
    message: `Docker ${server} is reachable; Hailo images: ${hailoImages.join(', ')}.`,
  };
}

// Which local docker image runs the Dataflow Compiler when the user did not name one.
// Names seen (dfc-flow.md §7.1): hailo_sw_suite_2022_01_ubuntu_20:v1.1, hailo_ai_sw_suite_2024-10:1,
// hailo_ai_sw_suite_2025-01:1, hailo8_ai_sw_suite_2025-10:1 (DFC 3.33), hailo8_ai_sw_suite_2026-07
// (DFC 3.34), hailo_ai_sw_suite_2026-04:1 (DFC 5.3.0, Hailo-10H), hailo_ai_sw_suite_2026-08 (DFC
// 5.4.0); self-built images such as weftspun-hailo-dfc:latest (§3.1).

/** The suite that carries DFC 5.3.0 for Hailo-10H: the default when nothing local matches. */
export const DEFAULT_IMAGE = 'hailo_ai_sw_suite_2026-04:1';

const SUITE = /(^|[/_.-])hailo\d*[a-z]?_(ai_)?sw_suite/i;
const DFC = /hailo.*dfc|dfc.*hailo|dataflow.?compiler/i;

export function looksLikeDfcImage(ref: string): boolean {
  return SUITE.test(ref) || DFC.test(ref);
}

/**
 * Since 2025-10 the Hailo-8 family suites carry a `hailo8_` prefix and hold DFC 3.x, which does not
 * target Hailo-10H/15 (inferred from the release names in §7.1, not from a refusal we saw). So a
 * Hailo-8 target prefers a `hailo8_` image and any other target prefers one without the prefix.
 */
function preferred(ref: string, hwArch: string): boolean {
  const hailo8Image = /(^|[/])hailo8[a-z]?_/i.test(ref);
  return hailo8Image === /^hailo8/i.test(hwArch);
}

/**
 * The first image in `docker image ls` order (newest first) that looks like a Hailo DFC image and
 * suits the architecture family; then any DFC-looking image; else undefined (caller uses DEFAULT_IMAGE).
 */
export function pickImage(imageLsOutput: string, hwArch: string): string | undefined {
  const refs = imageLsOutput
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.includes('<none>') && looksLikeDfcImage(l));
  return refs.find((r) => preferred(r, hwArch)) ?? refs[0];
}

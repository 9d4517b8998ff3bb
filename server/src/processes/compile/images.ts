// Which local docker image runs the Dataflow Compiler when the user did not name one.
// Names seen (docs/research/dfc-flow.md#images): hailo_sw_suite_2022_01_ubuntu_20:v1.1, hailo_ai_sw_suite_2024-10:1,
// hailo_ai_sw_suite_2025-01:1, hailo8_ai_sw_suite_2025-10:1 (DFC 3.33), hailo8_ai_sw_suite_2026-07
// (DFC 3.34), hailo_ai_sw_suite_2026-04:1 (DFC 5.3.0, Hailo-10H), hailo_ai_sw_suite_2026-08 (DFC
// 5.4.0); self-built images such as weftspun-hailo-dfc:latest (docs/research/dfc-flow.md#environment).

import { DFC_SUITES, parseRelease } from '../../core/releases';

/** The suite that carries DFC 5.3.0 for Hailo-10H: the default when nothing local matches. */
export const DEFAULT_IMAGE = 'hailo_ai_sw_suite_2026-04:1';

const SUITE = /(^|[/_.-])hailo\d*[a-z]?_(ai_)?sw_suite/i;
const DFC = /hailo.*dfc|dfc.*hailo|dataflow.?compiler/i;

export function looksLikeDfcImage(ref: string): boolean {
  return SUITE.test(ref) || DFC.test(ref);
}

/**
 * Since 2025-10 the Hailo-8 family suites carry a `hailo8_` prefix and hold DFC 3.x, which does not
 * target Hailo-10H/15 (inferred from the release names in docs/research/dfc-flow.md#images, not from a refusal we saw). So a
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

/** The Dataflow Compiler an image carries, as far as its name and labels tell (never by running it). */
export interface ImageDfc {
  /** X.Y.Z, or the major alone ("3") when only the line is known. */
  version: string;
  /** How we know, for the sentence: "its label com.hailo.dfc.version", "the suite hailo_ai_sw_suite_2026-08". */
  from: string;
}

/**
 * From `docker image inspect`'s labels (a label naming the DFC or the Hailo SDK version), the suite
 * table (DFC_SUITES), the `hailo8_` suite prefix (the 3.x line), or a version-shaped tag of a DFC
 * image (e.g. hailo-compiler:5.2.0). undefined when none says.
 */
export function dfcOfImage(ref: string, labels: Record<string, string> | null | undefined): ImageDfc | undefined {
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (/dataflow|dfc|hailo.*(sdk|compiler)/i.test(key) && parseRelease(value)) return { version: normal(value), from: `its label ${key}=${value}` };
  }
  const name = ref.replace(/^.*\//, '');
  const suite = DFC_SUITES.find((s) => name === s.image || name.startsWith(`${s.image}:`));
  if (suite) return { version: suite.dfc, from: `the suite ${suite.image}` };
  if (/^hailo8[a-z]?_(ai_)?sw_suite/i.test(name)) return { version: '3', from: 'a hailo8_ suite: the Dataflow Compiler 3.x line' };
  const tag = /:v?(\d+\.\d+\.\d+)$/.exec(name)?.[1];
  if (tag && (looksLikeDfcImage(ref) || /hailo.*compiler/i.test(name)) && !SUITE.test(ref)) return { version: tag, from: `its tag ${tag}` };
  return undefined;
}

const normal = (v: string) => {
  const p = parseRelease(v)!;
  return `${p.major}.${p.minor}.${p.revision}`;
};

/** `docker image inspect --format '{{.Id}} {{json .Config.Labels}}'` → the labels (null when none). */
export function inspectLabels(stdout: string): Record<string, string> | null {
  const json = stdout.trim().replace(/^\S+\s*/, '');
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : null;
  } catch {
    return null; // an older docker or a stand-in that prints the Id alone: no labels to read
  }
}

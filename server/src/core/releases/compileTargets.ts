// Which hardware architectures a Dataflow Compiler line builds. The lines split: 3.x builds the
// Hailo-8 family and refuses hailo10h ("Please use Dataflow Compiler v5.x", DFC 3.34); 5.x builds
// Hailo-10H/15 and refuses hailo8/hailo8l (DFC 5.4) — catalogue.ts cites both. A version past the
// entries is judged by its line (judgeRelease), so a DFC 3.40 or 5.9 is held to the same split.
import { parseRelease } from './judge';

/** hailo8, hailo8l, hailo8r: the 3.x line's; everything else the DFC knows (hailo10h, hailo15h/m/l, hailo12l) the 5.x line's. */
export function isHailo8Target(hwArch: string): boolean {
  return /^hailo8[a-z]?$/i.test(hwArch.trim());
}

/**
 * One sentence when a DFC of `dfcVersion` (X.Y.Z, or just its major "3"/"5") cannot build `hwArch`;
 * undefined when it can, or when the line is unknown (the DFC itself then answers).
 */
export function dfcCannotBuild(image: string, dfcVersion: string, from: string, hwArch: string): string | undefined {
  const major = parseRelease(dfcVersion)?.major ?? (/^\d+$/.test(dfcVersion) ? Number(dfcVersion) : undefined);
  if (major === undefined) return undefined;
  const shown = /^\d+$/.test(dfcVersion) ? `${dfcVersion}.x` : dfcVersion;
  if (major <= 4 && !isHailo8Target(hwArch))
    return `The image '${image}' carries Dataflow Compiler ${shown} (${from}), which builds only Hailo-8/8L/8R and refuses ${hwArch}: use a Dataflow Compiler 5.x image (e.g. hailo_ai_sw_suite_2026-08, DFC 5.4.0) with hailo.dfc.image (CLI: --image).`;
  if (major >= 5 && isHailo8Target(hwArch))
    return `The image '${image}' carries Dataflow Compiler ${shown} (${from}), which builds only Hailo-10H/15 and refuses ${hwArch}: use a Dataflow Compiler 3.x image (e.g. hailo8_ai_sw_suite_2026-07, DFC 3.34.0) with hailo.dfc.image (CLI: --image).`;
  return undefined;
}

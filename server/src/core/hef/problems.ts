// What can be wrong with a HEF, as data. Every problem says what is wrong and where (a byte
// offset into the file when there is one), so the CLI, the Problems panel and the inspector can
// all show the same precise sentence.

export type HefProblemSeverity = 'error' | 'warning' | 'info';

/**
 * Where a problem belongs:
 * - `container`: magic, version, header, section lengths (the file as a box);
 * - `integrity`: a checksum HailoRT verifies does not match;
 * - `proto`: the protobuf body cannot be (fully) decoded;
 * - `compat`: readable, but HailoRT would refuse it (extensions) or it is inconsistent;
 * - `resource`: an external resource is out of range or fails its checksum.
 */
export type HefProblemArea = 'container' | 'integrity' | 'proto' | 'compat' | 'resource';

export interface HefProblem {
  /** Stable code, e.g. `hef/truncated`. Never reuse a code for another meaning. */
  code: string;
  severity: HefProblemSeverity;
  area: HefProblemArea;
  message: string;
  /** Absolute byte offset in the file the problem is about, when there is one. */
  offset?: number;
  /**
   * The hailo_status HailoRT answers for this fault (from its source, checked against a real
   * libhailort 5.2.0 where a file exists); the releases it holds in are `since`/`before`.
   * Container and checksum faults are judged per release in verdict.ts.
   */
  status?: number;
  /** libhailort crashes on this fault instead of answering (release builds; the process dies). */
  crash?: boolean;
  /**
   * The HailoRT releases the fault holds in (X.Y.Z, read in the tags): from `since` on, before
   * `before`; absent = every release the verdict models (4.18.0 on). A status of 91/92/93 is 26
   * before 4.21.0 (verdict.ts).
   */
  since?: string;
  before?: string;
}

/** `1234567` → `1,234,567` (byte counts and offsets in messages). */
export function n(value: number | bigint): string {
  // Not toLocaleString: this runs for every message and must stay cheap (fuzzing, big scans).
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `0x` + upper-case hex, zero-padded to `digits`. */
export function hex(value: number | bigint, digits: number): string {
  return '0x' + value.toString(16).toUpperCase().padStart(digits, '0');
}

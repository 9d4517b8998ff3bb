// The rule for a release nobody listed: a HailoRT or DFC release is judged by the newest release of
// its line (its major) that the catalogue has at or before it, plus every rule a listed release up
// to it is known to add; a release newer than every entry is judged so and says so — never refused.
// A release older than the line's first entry is judged by that first entry, and says so too.
import { DFC_RELEASES, HAILORT_RELEASES, type Product, type Release, type ReleaseRule, type RuleKey, type Topic } from './catalogue';

export interface Version {
  major: number;
  minor: number;
  revision: number;
}

const NAMES: Record<Product, string> = { hailort: 'HailoRT', dfc: 'Dataflow Compiler' };

/** `X.Y.Z` (a suffix such as `-rc1` or `+deb` is ignored) or `X.Y` (revision 0). */
export function parseRelease(text: string): Version | undefined {
  const m = /^\s*v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,5}))?(?:[-+~][0-9A-Za-z.+~-]*)?\s*$/.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]), revision: Number(m[3] ?? 0) } : undefined;
}

/** One sentence for a version string that is no release (the only thing refused). */
export function releaseUsageError(product: Product, text: string): string | undefined {
  return parseRelease(text)
    ? undefined
    : `'${text}' is not a ${NAMES[product]} version: give it as X.Y.Z, e.g. ${product === 'hailort' ? '4.23.0 or 5.3.2' : '3.34.0 or 5.4.0'}.`;
}

const number = (v: Version) => v.major * 1_000_000 + v.minor * 1000 + v.revision;
const text = (v: Version) => `${v.major}.${v.minor}.${v.revision}`;
const minorOf = (s: string) => s.split('.').slice(0, 2).join('.');

export function releasesOf(product: Product): readonly Release[] {
  return product === 'hailort' ? HAILORT_RELEASES : DFC_RELEASES;
}

export interface ReleaseJudgement {
  product: Product;
  version: string;
  /** The release's major.minor is in the catalogue (read from source or on record). */
  listed: boolean;
  /** The newest release read from its public source whose checks are applied as they are (HailoRT). */
  basis: string;
  /** Listed releases after `basis`, up to the version: what they are known to change. */
  changes: { version: string; rules: readonly ReleaseRule[] }[];
  /** Every rule in force at this version (the line's entries up to it). */
  rules: readonly ReleaseRule[];
  /** "HailoRT 5.3.2: judged by 5.2's rules plus what 5.3 is known to change: …". */
  sentence: string;
}

/** The entries of the version's line (its major; the nearest major when none is listed) up to it. */
function lineEntries(product: Product, v: Version): { entries: Release[]; ownLine: boolean } {
  const all = releasesOf(product);
  const majors = [...new Set(all.map((r) => parseRelease(r.version)!.major))];
  const own = majors.includes(v.major);
  const major = own
    ? v.major
    : majors.reduce((best, m) =>
        Math.abs(m - v.major) < Math.abs(best - v.major) || (Math.abs(m - v.major) === Math.abs(best - v.major) && m > best) ? m : best,
      );
  return { entries: all.filter((r) => parseRelease(r.version)!.major === major), ownLine: own };
}

/** Judge any release: never refused; the sentence names the rules used (of `topics`, when given). */
export function judgeRelease(product: Product, version: string, topics?: readonly Topic[]): ReleaseJudgement {
  const v = parseRelease(version);
  if (!v) throw new Error(releaseUsageError(product, version));
  const name = NAMES[product];
  const { entries, ownLine } = lineEntries(product, v);
  const upTo = entries.filter((r) => number(parseRelease(r.version)!) <= number(v));
  const inForce = upTo.length ? upTo : entries.slice(0, 1);
  const sourceRead = inForce.filter((r) => r.fromSource || product === 'dfc');
  const basisRelease = (sourceRead.length ? sourceRead : inForce)[sourceRead.length ? sourceRead.length - 1 : 0];
  const about = (rules: readonly ReleaseRule[]) => (topics ? rules.filter((r) => topics.includes(r.topic)) : rules);
  const changes = inForce
    .filter((r) => number(parseRelease(r.version)!) > number(parseRelease(basisRelease.version)!) && product !== 'dfc')
    .map((r) => ({ version: r.version, rules: about(r.rules) }))
    .filter((r) => r.rules.length > 0);
  const listed = releasesOf(product).some((r) => minorOf(r.version) === `${v.major}.${v.minor}`);
  const newest = entries[entries.length - 1];
  const label = `${name} ${version.trim()}`;
  const parts: string[] = [];
  if (!ownLine) parts.push(`no ${v.major}.x release is on record; judged by the ${minorOf(newest.version).split('.')[0]}.x line`);
  if (upTo.length === 0) parts.push(`older than the first release read here (${entries[0].version}); judged by its rules`);
  const basisMinor = minorOf(basisRelease.version);
  const exact = changes.length === 0 && basisMinor === `${v.major}.${v.minor}`;
  if (!exact && upTo.length) {
    const changed = changes.map((c) => `${changes.length > 1 ? `${minorOf(c.version)}: ` : ''}${c.rules.map((r) => r.text).join('; ')}`).join(' — ');
    parts.push(
      changes.length
        ? `judged by ${basisMinor}'s rules plus what ${changes.map((c) => minorOf(c.version)).join(' and ')} ${changes.length === 1 ? 'is' : 'are'} known to change: ${changed}`
        : `judged by ${basisMinor}'s rules`,
    );
  }
  if (number(v) > number(parseRelease(newest.version)!) && minorOf(newest.version) !== `${v.major}.${v.minor}`)
    parts.push(`nothing newer than ${minorOf(newest.version)} is on record, so a change ${v.major}.${v.minor} makes is not known here`);
  const sentence = parts.length
    ? `${label}: ${parts.join('; ')}.`
    : `${label}: judged by ${text(v) === basisRelease.version ? 'its own' : `${basisMinor}'s`} rules.`;
  return { product, version: version.trim(), listed, basis: basisRelease.version, changes, rules: about(inForce.flatMap((r) => r.rules)), sentence };
}

/** Does a keyed rule hold at this version (some entry of its line at or before it has it)? */
export function releaseHas(product: Product, version: string | Version, key: RuleKey): boolean {
  const v = typeof version === 'string' ? parseRelease(version) : version;
  if (!v) return false;
  return lineEntries(product, v).entries.some((r) => number(parseRelease(r.version)!) <= number(v) && r.rules.some((x) => x.key === key));
}

/** The release that first has a keyed rule (its entry's version), for messages. */
export function firstWith(product: Product, key: RuleKey): string | undefined {
  return releasesOf(product).find((r) => r.rules.some((x) => x.key === key))?.version;
}

export { text as versionString };

// Semantic versions (semver.org 2.0.0): MAJOR.MINOR.PATCH[-prerelease][+build], parsed and ordered
// by the `semver` package in its strict mode. Stricter than the package on two points: the text
// must be the version exactly (no leading "v", no surrounding white space), and every number
// in it must be at most Number.MAX_SAFE_INTEGER, so that numbers compare exactly.
import semver from 'semver';

export interface SemVer {
  /** Decimal text of each number. */
  major: string;
  minor: string;
  patch: string;
  prerelease: string[];
  build: string[];
}

const DIGITS = /^[0-9]+$/;

/** The package's parse, kept only when the text is exactly a version with safe numbers. */
function strictParse(text: unknown): semver.SemVer | undefined {
  if (typeof text !== 'string') return undefined;
  const v = semver.parse(text, { loose: false });
  if (!v) return undefined;
  // semver accepts "v1.2.3" and " 1.2.3 "; `version` is the canonical text without the build
  const canonical = v.build.length ? `${v.version}+${v.build.join('.')}` : v.version;
  if (canonical !== text) return undefined;
  // the package refuses MAJOR.MINOR.PATCH over MAX_SAFE_INTEGER; it keeps such pre-release numbers
  // as text and would then compare them as rounded numbers
  const unsafe = (id: string | number) =>
    typeof id === 'string' && DIGITS.test(id) && Number(id) > Number.MAX_SAFE_INTEGER;
  return v.prerelease.some(unsafe) ? undefined : v;
}

/** Parse a semantic version; undefined when the text is not one. */
export function parseSemver(text: string): SemVer | undefined {
  const v = strictParse(text);
  if (!v) return undefined;
  const [major, minor, patch] = [v.major, v.minor, v.patch].map(String);
  return { major, minor, patch, prerelease: v.prerelease.map(String), build: [...v.build] };
}

export function isSemver(text: string): boolean {
  return strictParse(text) !== undefined;
}

/**
 * Order two versions by semver precedence: negative, zero or positive.
 * Build metadata is ignored. Never throws: text that is not a semantic
 * version ranks below every valid version, and such texts order among
 * themselves by plain string comparison.
 */
export function compareSemver(a: string, b: string): number {
  const x = strictParse(a);
  const y = strictParse(b);
  if (!x || !y) {
    if (x) return 1;
    if (y) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return x.compare(y);
}

/** The highest valid version in the list (first of equals), or undefined if none is valid. */
export function latestVersion(versions: string[]): string | undefined {
  let best: string | undefined;
  for (const v of versions) {
    if (!isSemver(v)) continue;
    if (best === undefined || compareSemver(v, best) > 0) best = v;
  }
  return best;
}

// Semantic versions (semver.org 2.0.0): MAJOR.MINOR.PATCH[-prerelease][+build].
// Parsed by hand rather than with a large regex; numbers are compared as
// digit strings so arbitrarily long components keep their exact order.

export interface SemVer {
  major: string;
  minor: string;
  patch: string;
  prerelease: string[];
  build: string[];
}

const isDigits = (s: string) => s.length > 0 && /^[0-9]+$/.test(s);
const isNumeric = (s: string) => isDigits(s) && (s === '0' || s[0] !== '0');
const isIdentifier = (s: string) => s.length > 0 && /^[0-9A-Za-z-]+$/.test(s);

/** Parse a semantic version; undefined when the text is not one. */
export function parseSemver(text: string): SemVer | undefined {
  if (typeof text !== 'string') return undefined;
  const plus = text.indexOf('+');
  const build = plus === -1 ? [] : text.slice(plus + 1).split('.');
  const withoutBuild = plus === -1 ? text : text.slice(0, plus);
  const dash = withoutBuild.indexOf('-');
  const prerelease = dash === -1 ? [] : withoutBuild.slice(dash + 1).split('.');
  const core = (dash === -1 ? withoutBuild : withoutBuild.slice(0, dash)).split('.');

  if (core.length !== 3 || !core.every(isNumeric)) return undefined;
  if (!build.every(isIdentifier)) return undefined;
  // numeric pre-release identifiers must not have leading zeros
  if (!prerelease.every((id) => isIdentifier(id) && (!isDigits(id) || isNumeric(id)))) return undefined;
  return { major: core[0], minor: core[1], patch: core[2], prerelease, build };
}

export function isSemver(text: string): boolean {
  return parseSemver(text) !== undefined;
}

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a: string[], b: string[]): number {
  // a release (no pre-release) ranks above any pre-release of the same core
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const xNum = isDigits(x);
    const yNum = isDigits(y);
    let c: number;
    if (xNum && yNum) c = compareDigits(x, y);
    else if (xNum !== yNum) c = xNum ? -1 : 1; // numeric identifiers rank lower
    else c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/**
 * Order two versions by semver precedence: negative, zero or positive.
 * Build metadata is ignored. Never throws: text that is not a semantic
 * version ranks below every valid version, and such texts order among
 * themselves by plain string comparison.
 */
export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) {
    if (x) return 1;
    if (y) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return (
    compareDigits(x.major, y.major) ||
    compareDigits(x.minor, y.minor) ||
    compareDigits(x.patch, y.patch) ||
    comparePrerelease(x.prerelease, y.prerelease)
  );
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

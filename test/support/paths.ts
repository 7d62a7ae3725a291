// Where the repository and its build are, for tests at any depth under test/ (they run from dist/test/).
import { fileURLToPath } from 'node:url';

/** The repository's root folder as a URL (ends with '/'). */
export const REPO_URL = new URL('../../../', import.meta.url);
/** The build's root folder (dist/) as a URL (ends with '/'). */
export const DIST_URL = new URL('../../', import.meta.url);
/** A path under the repository root. */
export const repoPath = (rel: string): string => fileURLToPath(new URL(rel, REPO_URL));
/** A path under the build (dist/), e.g. 'server/main.js'. */
export const distPath = (rel: string): string => fileURLToPath(new URL(rel, DIST_URL));

// Public surface of the lifecycle engine (pure: no I/O).
export type {
  AllGuard,
  AnyGuard,
  CheckOp,
  EntityState,
  FieldCheck,
  Guard,
  GuardResult,
  MachineDef,
  MachineMeta,
  NotGuard,
  StateDef,
  StateType,
  TransitionDef,
  TransitionEvent,
  TransitionResult,
  ValidationResult,
} from './types.js';
export { CHECK_OPS } from './types.js';
export { validateMachine } from './validate.js';
export { MAX_GUARD_DEPTH } from './machine-schema.js';
export { evaluateGuard, evaluateGuards, describeGuard } from './guards.js';
export { transition, availableTriggers, mergeContext } from './transition.js';
export { compareSemver, latestVersion, parseSemver, isSemver, type SemVer } from './semver.js';
export { machineToSvg, escapeXml } from './diagram.js';
export { FORBIDDEN_SEGMENTS } from './paths.js';

// The schema this build's registry describes, computed: every table of the registry (engine/sql/ddl.ts)
// and what the migrations add beside the tables (substring and per-family network indexes, row
// versions, allocation hints, the change counter, cover marks, related-count triggers). Never run by
// the server: test/sql/migrated-schema compares it with what the frozen migrations build, so a
// resource, field or count added without a migration is found before a database misses it.
import type { Dialect } from '../../../engine/sql/dialect.js';
import {
  ddlStatements,
  historyPatchStatements,
  rowVersionStatements,
  spgistPerFamilyStatements,
  substringIndexStatements,
} from '../../../engine/sql/ddl.js';
import { allocationHintStatements } from '../../../engine/allocation/sql-hints.js';
import { coverMarkStatements } from '../../../engine/allocation/sql-cover-marks.js';
import { changeCounterStatements, changeNotifyStatements } from '../../../engine/sql/change-counter.js';
import { relatedCountStatements } from '../../../engine/sql/related-counts.js';

/** In the order the migrations first ran them (later parts alter what earlier ones made). */
const PARTS: readonly ((d: Dialect) => string[])[] = [
  ddlStatements,
  substringIndexStatements,
  spgistPerFamilyStatements,
  rowVersionStatements,
  historyPatchStatements,
  allocationHintStatements,
  changeCounterStatements,
  coverMarkStatements,
  changeNotifyStatements,
  relatedCountStatements,
];

export const describedStatements = (d: Dialect): string[] => PARTS.flatMap((part) => part(d));

// What each kind of path end (constraint-paths.ts) does with values, in plan nodes: the comparison,
// "no value" and the empty text. Values parse as the REST filters parse them (the planner's
// scalarValue, cfTermPlan, parseNetValue), so a value a filter refuses is refused here, with its message.
import type { NetLookup } from '../filters/lookups.js';
import type { CmpOp } from '../filters/ops.js';
import { cfAbsent, cfEmptyText, cfTermPlan } from '../plan/cf-terms.js';
import { netPlan, parseNetValue, type NetValue } from '../plan/net-terms.js';
import { cmp, fk, isNull, or, tag, type Plan, type Scalar } from '../plan/nodes.js';
import { scalarValue, type Ctx } from '../plan/planner.js';
import { idStyleOf } from '../schema/id-style.js';
import { MSG } from '../schema/messages.js';
import { resource } from '../schema/registry.js';
import { regexError } from '../text/regex.js';
import type { PathEnd } from './constraint-paths.js';

/** A plan, or the messages of the values refused. */
export type Built = Plan | string[];

export interface EndOps {
  /** The end <op> any of the values (text, as a filter parameter carries them). */
  cmp(op: CmpOp, ci: boolean, raws: readonly string[]): Built;
  /** A network lookup, any of the values. */
  net(op: NetLookup, raws: readonly string[]): Built;
  /** No value: null (a custom field: missing or null); null where the end has no such test (tags). */
  none(): Plan | null;
  /** The empty text. */
  emptyText(): Plan;
}

/** Each value parsed, or every message of the values refused. */
function parsed<T>(raws: readonly string[], parse: (raw: string) => { v: T } | string): { v: T[] } | string[] {
  const errs: string[] = [];
  const out: T[] = [];
  for (const raw of raws) {
    const r = parse(raw);
    if (typeof r === 'string') errs.push(r);
    else out.push(r.v);
  }
  return errs.length ? errs : { v: out };
}

const netValue = (raw: string): { v: NetValue } | string => {
  const r = parseNetValue(raw);
  return typeof r === 'string' ? r : { v: r };
};

/** Text compared on a text field: a regular expression is checked first. */
function textCmp(field: string, op: CmpOp, ci: boolean, raws: readonly string[]): Built {
  if (op === 'regex') {
    const errs = raws.map(regexError).filter((e): e is string => e !== null);
    if (errs.length) return errs.map(MSG.regex);
  }
  return cmp(field, 'string', op, ci, raws);
}

const noNet = (): Built => ['not a network'];

export function endOps(end: PathEnd, ctx: Ctx): EndOps {
  switch (end.kind) {
    case 'value': {
      const { spec } = end;
      return {
        cmp: (op, ci, raws) => {
          const row = { does: 'cmp', op, ci, negate: false, doc: '' } as const;
          const p = parsed<Scalar>(raws, (raw) => scalarValue(spec, row, raw, ctx));
          return Array.isArray(p) ? p : cmp(spec.field, spec.valueType, op, ci, p.v);
        },
        net: noNet,
        none: () => isNull(spec.field),
        emptyText: () => cmp(spec.field, 'string', 'eq', false, ['']),
      };
    }
    case 'ref': {
      const ids = idStyleOf(resource(end.target), ctx.ids);
      return {
        cmp: (_op, _ci, raws) => {
          const p = parsed(raws, (raw) => {
            const id = ids.parse(raw);
            return id === null ? ids.invalid(raw) : { v: id };
          });
          return Array.isArray(p) ? p : fk(end.field, end.target, p.v, false, true);
        },
        net: noNet,
        none: () => isNull(end.field),
        emptyText: () => isNull(end.field),
      };
    }
    case 'net':
      return {
        // `exact` and `in` compare network and mask (an inet's equality); the text lookups read the text.
        cmp: (op, ci, raws) => {
          if (op !== 'eq' || ci) return textCmp(end.text, op, ci, raws);
          const p = parsed(raws, netValue);
          return Array.isArray(p) ? p : netPlan(end.role, 'net_equals', p.v);
        },
        net: (op, raws) => {
          const p = parsed(raws, netValue);
          return Array.isArray(p) ? p : netPlan(end.role, op, p.v);
        },
        none: () => isNull(end.role),
        emptyText: () => isNull(end.role),
      };
    case 'tag': {
      const ids = idStyleOf(resource('tag'), ctx.ids);
      return {
        cmp: (_op, _ci, raws) => {
          if (end.by === 'slug') return or(raws.map(tag));
          const p = parsed(raws, (raw) => {
            const id = ids.parse(raw);
            return id === null ? ids.invalid(raw) : { v: id };
          });
          return Array.isArray(p) ? p : or(p.v.map(tag));
        },
        net: noNet,
        none: () => null,
        emptyText: () => or([]),
      };
    }
    case 'cf':
      return {
        cmp: (op, ci, raws) => {
          const row = { does: 'cmp', op, ci, negate: false, doc: '' } as const;
          const values = raws.map((raw) => ({ raw, kind: 'text' as const }));
          return cfTermPlan(end.def, row, false, {
            param: end.def.name,
            field: end.def.name,
            cf: true,
            lookup: op,
            values,
          });
        },
        net: noNet,
        none: () => cfAbsent(end.def),
        emptyText: () => cfEmptyText(end.def),
      };
  }
}

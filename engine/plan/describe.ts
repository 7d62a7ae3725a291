// Plans for people: one-line descriptions and a JSON form with addresses as text (for explain).
import { formatAddress } from '../net/ip.js';
import type { NetNode, Plan } from './nodes.js';

const netText = (n: NetNode) => `${formatAddress({ family: n.family, hex: n.network })}/${n.length}`;

/** "network contained 10.0.0.0/8", "not(status eq "active")". */
export function describe(plan: Plan): string {
  switch (plan.kind) {
    case 'const':
      return plan.value ? 'all objects' : 'no object';
    case 'and':
      return `and(${plan.children.map(describe).join(', ')})`;
    case 'or':
      return `or(${plan.children.map(describe).join(', ')})`;
    case 'not':
      return `not(${describe(plan.child)})`;
    case 'cmp':
      return `${plan.field} ${plan.ci ? 'i' : ''}${plan.op} ${plan.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'null':
      return `${plan.field} is null`;
    case 'fk':
      return (
        `${plan.field} in ${plan.target}${plan.byId ? ' ids' : ''}(${plan.refs.join(' | ')})` +
        (plan.tree ? ' or below' : '')
      );
    case 'tag':
      return `tagged ${plan.ref}`;
    case 'net':
      return `${plan.field} ${plan.op} ${netText(plan)}`;
    case 'cf':
      return `cf_${plan.name} ${plan.ci ? 'i' : ''}${plan.op} ${plan.values.map((v) => JSON.stringify(v)).join(' | ')}`;
    case 'via':
      return `${plan.field} where ${describe(plan.plan)}`;
  }
}

/** The plan tree as JSON, network values as text rather than internal hex keys; each node carries
 *  its one-line `text` (the words explain's execution names its predicates with). */
export function planJson(plan: Plan): unknown {
  return { text: describe(plan), ...nodeJson(plan) };
}

function nodeJson(plan: Plan): Record<string, unknown> {
  switch (plan.kind) {
    case 'and':
    case 'or':
      return { kind: plan.kind, children: plan.children.map(planJson) };
    case 'not':
      return { kind: 'not', child: planJson(plan.child) };
    case 'via':
      return { kind: 'via', field: plan.field, target: plan.target, plan: planJson(plan.plan) };
    case 'net':
      return { kind: 'net', field: plan.field, op: plan.op, family: plan.family, value: netText(plan) };
    default:
      return { ...plan };
  }
}

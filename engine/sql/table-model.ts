// How each resource of the registry maps onto SQL tables: one column per field (named as the
// field), a tags join table per taggable resource, and constraint names from which a database
// error is mapped back to the field and message the memory store would give.
import { netPartField, RESOURCES, resource } from '../schema/registry.js';
import type { FieldDef, ResourceDef } from '../schema/types.js';
import { uniqueGroups } from '../schema/unique-groups.js';
import { idSpaceOf } from '../schema/id-style.js';

/** What a column holds, as the compiler reasons about it (mirrors the JS type in memory rows). */
export type ValueClass =
  | 'text' // JS string: string, slug, choice, mac, prefix/address/ip text
  | 'uuid' // JS string holding an id (a lower-case UUID, or decimal text: id-columns.ts): id, foreign keys
  | 'datetime' // JS ISO string; stored as a timestamp
  | 'number' // integer
  | 'boolean'
  | 'json' // any JSON value (json fields)
  | 'opaque'; // arrays / objects never equal to a scalar: tags, custom_fields, string_list

export interface ColumnModel {
  readonly field: FieldDef;
  readonly name: string;
  readonly cls: ValueClass;
  readonly notNull: boolean;
  /** The resource whose ids the column holds (id: its own; fk: the target), null for other columns. */
  readonly idSpace: string | null;
}

/** Prefix or IP address table: which field holds the CIDR text the typed network columns come
 * from, and the columns of its derived length and family (the dialects' network indexes use them). */
export interface NetModel {
  readonly source: string;
  readonly kind: 'prefix' | 'address';
  readonly length: string;
  readonly family: string;
}

export interface UniqueModel {
  readonly name: string;
  readonly columns: readonly string[];
  readonly field: string;
  readonly message: string;
}
/** `deferred`: the target's table comes later (a cycle): the constraint is added after both tables. */
export interface FkModel {
  readonly name: string;
  readonly field: string;
  readonly target: string;
  readonly deferred: boolean;
}
export interface IndexModel {
  readonly name: string;
  readonly columns: readonly string[];
}

export interface TableModel {
  readonly resource: ResourceDef;
  readonly table: string;
  readonly columns: readonly ColumnModel[];
  readonly byField: ReadonlyMap<string, ColumnModel>;
  readonly tagsTable: string | null;
  readonly net: NetModel | null;
  readonly pkName: string;
  readonly uniques: readonly UniqueModel[];
  readonly fks: readonly FkModel[];
  /** Plain B-tree indexes: foreign keys, choices, names. Network indexes are the dialect's. */
  readonly indexes: readonly IndexModel[];
  /** Join table constraint names. */
  readonly tagFk: string | null;
  readonly tagObjFk: string | null;
}

const CLASS_OF: Record<FieldDef['kind'], ValueClass> = {
  uuid: 'uuid',
  fk: 'uuid',
  string: 'text',
  slug: 'text',
  choice: 'text',
  mac: 'text',
  prefix: 'text',
  address: 'text',
  ip: 'text',
  integer: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  json: 'json',
  tags: 'opaque',
  custom_fields: 'opaque',
  string_list: 'opaque',
};

function netOf(r: ResourceDef): NetModel | null {
  const f = r.fields.find((x) => x.kind === 'prefix' || x.kind === 'address');
  if (!f) return null;
  const length = netPartField(r, 'length'),
    family = netPartField(r, 'family');
  if (!length || !family) throw new Error(`${r.name}: a network field needs derived length and family fields`);
  return { source: f.name, kind: f.kind as 'prefix' | 'address', length, family };
}

/** NOT NULL only where every complete row has a value, so ordering can skip null handling. */
function notNull(r: ResourceDef, f: FieldDef, net: NetModel | null): boolean {
  if (f.nullable) return false;
  if (f.name === 'id' || f.name === 'created' || f.name === 'last_updated' || f.required || f.sequence) return true;
  if (f.kind === 'tags' || f.kind === 'custom_fields') return true;
  if (net && f.readOnly) return true; // network fields derived from the prefix / address
  return f.default !== undefined && f.default !== null;
}

function build(r: ResourceDef): TableModel {
  const net = netOf(r);
  const columns = r.fields.map((f) => ({
    field: f,
    name: f.name,
    cls: CLASS_OF[f.kind],
    notNull: notNull(r, f, net),
    idSpace: idSpaceOf(r, f),
  }));
  const t = r.name;
  const uniques: UniqueModel[] = uniqueGroups(r).map((g) => ({
    name: `uq_${t}_${g.fields.join('_')}`,
    columns: g.fields,
    field: g.field,
    message: g.message,
  }));
  const fks = r.fields
    .filter((f) => f.kind === 'fk')
    .map((f) => ({ name: `fk_${t}_${f.name}`, field: f.name, target: f.target!, deferred: !!f.deferred }));
  const leads = new Set(uniques.map((u) => u.columns[0]));
  const indexed = r.fields.filter(
    (f) =>
      !f.unique && !leads.has(f.name) && (f.kind === 'fk' || f.kind === 'choice' || f.name === 'name' || f.indexed),
  );
  const indexes = indexed.map((f) => ({ name: `ix_${t}_${f.name}`, columns: [f.name] }));
  const taggable = r.fields.some((f) => f.kind === 'tags');
  return {
    resource: r,
    table: t,
    columns,
    byField: new Map(columns.map((c) => [c.name, c])),
    tagsTable: taggable ? `${t}_tags` : null,
    net,
    pkName: `pk_${t}`,
    uniques,
    fks,
    indexes,
    tagFk: taggable ? `fk_${t}_tags_tag` : null,
    tagObjFk: taggable ? `fk_${t}_tags_obj` : null,
  };
}

const models = new Map<string, TableModel>(RESOURCES.map((r) => [r.name, build(r)]));

// Constraint and index names share one namespace per schema (PostgreSQL): a clash stops the start.
const taken = new Map<string, string>();
for (const m of models.values())
  for (const n of [
    m.table,
    m.pkName,
    ...m.uniques.map((u) => u.name),
    ...m.fks.map((f) => f.name),
    ...m.indexes.map((i) => i.name),
  ]) {
    const other = taken.get(n);
    if (other && other !== m.table)
      throw new Error(`schema: ${m.table} and ${other} both name ${n} (reorder a unique group)`);
    taken.set(n, m.table);
  }

export function tableModel(name: string): TableModel {
  const m = models.get(name);
  if (!m) {
    resource(name);
    throw new Error(`unknown resource ${name}`);
  }
  return m;
}

/** Every table model, in dependency order (referenced tables first). */
export const TABLE_MODELS: readonly TableModel[] = RESOURCES.map((r) => models.get(r.name)!);

/** Foreign keys pointing at a resource, in the order the memory store checks them on delete. */
export function inboundRefs(target: string): readonly { model: TableModel; fk: FkModel }[] {
  return TABLE_MODELS.flatMap((m) => m.fks.filter((f) => f.target === target).map((fk) => ({ model: m, fk })));
}

/** Lower-case canonical UUID: the form an id of a uuid space takes in rows (id-columns.ts: isIdOf for any space). */
export const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

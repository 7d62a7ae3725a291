// Object by object: every row of a taken NetBox table is in the store under its id, with each
// mapped column's value (the test's own reading of the column, not the importer's), its tags and
// its custom field values; the values that take more than a column (a prefix's scope, an address's
// assignment, a MAC address) are checked against SQL written out here.
import { expect } from 'chai';
import { resource } from '../../../engine/schema/registry.js';
import type { FieldDef } from '../../../engine/schema/types.js';
import { TABLES } from '../../../storage/netbox-import/mapping.js';
import type { Storage } from '../../../storage/types.js';
import type { NetboxDb } from './netbox-db.js';

function expected(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return f.nullable ? null : f.kind === 'string' ? '' : f.default;
  if (f.kind === 'fk') return String(v);
  if (f.kind === 'integer') return Number(v);
  if (f.kind === 'mac') return String(v).toUpperCase();
  return v;
}

/** Checks every taken row; returns how many were checked. */
export async function compareWithSource(db: NetboxDb, store: Storage): Promise<number> {
  const cts = new Map(
    (
      await db.sql<{ id: number; ct: string }>(`SELECT id, app_label || '_' || model AS ct FROM django_content_type`)
    ).map((r) => [r.ct, r.id]),
  );
  const tagged = await db.sql<{ ct: number; obj: number; tags: string[] }>(
    `SELECT content_type_id AS ct, object_id AS obj, array_agg(tag_id::text ORDER BY tag_id) AS tags
     FROM extras_taggeditem GROUP BY 1, 2`,
  );
  const tagsOf = new Map(tagged.map((t) => [`${t.ct}/${t.obj}`, t.tags]));
  const takenCfs = new Set(
    (await db.sql<{ name: string }>(`SELECT name FROM extras_customfield WHERE type <> 'decimal'`)).map((r) => r.name),
  );
  let checked = 0;
  for (const map of TABLES) {
    const r = resource(map.resource);
    const rows = await db.sql(`SELECT * FROM ${map.table} ORDER BY id`);
    const got = new Map(
      (
        await store.getMany(
          r.name,
          rows.map((x) => String(x.id)),
        )
      ).map((x) => [x.id, x]),
    );
    for (const row of rows) {
      const id = String(row.id);
      const mine = got.get(id);
      if (map.resource === 'custom_field' && !takenCfs.has(String(row.name))) {
        expect(mine, `${map.table} ${id} is of a type the product lacks`).to.equal(undefined);
        continue;
      }
      expect(mine, `${map.table} ${id}`).to.not.equal(undefined);
      const at = `${map.table} ${id}`;
      expect(mine!.created, `${at} created`).to.equal((row.created as Date).toISOString());
      expect(mine!.version, `${at} version`).to.equal(1);
      for (const [name, source] of Object.entries(map.fields)) {
        const col = (Array.isArray(source) ? source : [source]).find((s) => typeof s === 'string' && s in row);
        if (typeof col !== 'string') continue; // a special: checked below
        const f = r.fields.find((x) => x.name === name)!;
        expect(mine![name], `${at}.${name} (${col})`).to.deep.equal(expected(f, row[col]));
      }
      if ('tags' in mine!)
        expect(mine!.tags, `${at} tags`).to.deep.equal(tagsOf.get(`${cts.get(map.table)}/${id}`) ?? []);
      if ('custom_fields' in mine!) {
        const want = Object.fromEntries(
          Object.entries((row.custom_field_data as object) ?? {}).filter(([k]) => takenCfs.has(k)),
        );
        expect(mine!.custom_fields, `${at} custom fields`).to.deep.equal(want);
      }
      checked++;
    }
  }
  await compareSpecials(db, store);
  return checked;
}

async function compareSpecials(db: NetboxDb, store: Storage): Promise<void> {
  const layout42 = (
    await db.sql(`SELECT 1 FROM information_schema.columns WHERE table_name = 'ipam_prefix'
    AND column_name = 'scope_id'`)
  ).length;
  const prefixSite = layout42
    ? `SELECT p.id::text, CASE WHEN c.model = 'site' THEN p.scope_id::text END AS want FROM ipam_prefix p
       LEFT JOIN django_content_type c ON c.id = p.scope_type_id`
    : `SELECT id::text, site_id::text AS want FROM ipam_prefix`;
  for (const { id, want } of await db.sql<{ id: string; want: string | null }>(prefixSite))
    expect((await store.get('prefix', id))!.site, `prefix ${id} site`).to.equal(want);
  const assigned = await db.sql<{ id: string; iface: string | null; vmiface: string | null }>(
    `SELECT a.id::text,
       CASE WHEN c.model = 'interface' AND c.app_label = 'dcim' THEN a.assigned_object_id::text END AS iface,
       CASE WHEN c.model = 'vminterface' THEN a.assigned_object_id::text END AS vmiface
     FROM ipam_ipaddress a LEFT JOIN django_content_type c ON c.id = a.assigned_object_type_id`,
  );
  for (const a of assigned) {
    const row = (await store.get('ip_address', a.id))!;
    expect([row.interface, row.vminterface], `ip_address ${a.id}`).to.deep.equal([a.iface, a.vmiface]);
  }
  expect(assigned.filter((a) => a.iface).length).to.equal(20);
  expect(assigned.filter((a) => a.vmiface).length).to.equal(20);
  const macs = layout42
    ? `SELECT i.id::text, upper(m.mac_address::text) AS mac FROM dcim_interface i
       JOIN dcim_macaddress m ON m.id = i.primary_mac_address_id`
    : `SELECT id::text, upper(mac_address::text) AS mac FROM dcim_interface WHERE mac_address IS NOT NULL`;
  const withMac = await db.sql<{ id: string; mac: string }>(macs);
  expect(withMac.length).to.equal(1);
  for (const { id, mac } of withMac) expect((await store.get('interface', id))!.mac_address).to.equal(mac);
}

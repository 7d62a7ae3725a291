// NetBox's public demo database (../shared/netbox-demo, NetBox 4.2) in throw-away PostgreSQL
// databases for the import tests: loaded once with psql, then copied as a template for variants
// (the 3.7-4.1 layout, a NetBox of another version, a source the import must fail on).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

export const DEMO_SQL = fileURLToPath(
  new URL('../../../../../shared/netbox-demo/netbox-demo-v4.2.sql', import.meta.url),
);
/** The worktree's dist/ sits two levels further down than the repository's: look for it in both places. */
export function demoSqlPath(): string | null {
  const candidates = [DEMO_SQL, '/work/shared/netbox-demo/netbox-demo-v4.2.sql', process.env.NETBOX_DEMO_SQL ?? ''];
  return candidates.find((p) => p && fs.existsSync(p)) ?? null;
}

export interface NetboxDb {
  readonly url: string;
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** A copy of this database as it is now (CREATE DATABASE ... TEMPLATE). */
  copy(): Promise<NetboxDb>;
  drop(): Promise<void>;
}

function withDatabase(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(base: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

function handle(base: string, name: string): NetboxDb {
  const url = withDatabase(base, name);
  return {
    url,
    async sql(text, params = []) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end();
      }
    },
    async copy() {
      const other = `nb_${process.pid}_${randomBytes(4).toString('hex')}`;
      await admin(base, `CREATE DATABASE "${other}" TEMPLATE "${name}"`);
      return handle(base, other);
    },
    drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** The demo loaded into a new database on TEST_POSTGRES_URL's server (its OWNER TO netbox lines fail harmlessly). */
export async function loadDemo(base: string, file: string): Promise<NetboxDb> {
  const name = `nb_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  const db = handle(base, name);
  await promisify(execFile)('psql', ['-q', '-d', db.url, '-f', file], { maxBuffer: 64 * 1024 * 1024 });
  return db;
}

/** An empty database that is no NetBox. */
export async function emptyDb(base: string): Promise<NetboxDb> {
  const name = `nb_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  return handle(base, name);
}

/**
 * What the demo lacks and a NetBox holds: addresses on device and VM interfaces (the hosts' primary
 * IPs among them), one on an FHRP group, a service, a MAC address, a prefix scoped to a region, a tag on a
 * circuit, a custom field of a type the product lacks with a value.
 */
export async function addAssignments(db: NetboxDb): Promise<void> {
  const ct = async (app: string, model: string) =>
    Number((await db.sql(`SELECT id FROM django_content_type WHERE app_label=$1 AND model=$2`, [app, model]))[0].id);
  const [iface, vmiface, fhrp, region, circuit, site] = await Promise.all([
    ct('dcim', 'interface'),
    ct('virtualization', 'vminterface'),
    ct('ipam', 'fhrpgroup'),
    ct('dcim', 'region'),
    ct('circuits', 'circuit'),
    ct('dcim', 'site'),
  ]);
  const assign = (type: number, table: string, offset: number) =>
    db.sql(
      `WITH a AS (SELECT id, row_number() OVER (ORDER BY id) n
                  FROM (SELECT id FROM ipam_ipaddress ORDER BY id OFFSET ${offset} LIMIT 20) s),
            o AS (SELECT id, row_number() OVER (ORDER BY id) n FROM ${table} ORDER BY id LIMIT 20)
       UPDATE ipam_ipaddress x SET assigned_object_type_id = ${type}, assigned_object_id = o.id
       FROM a JOIN o USING (n) WHERE x.id = a.id`,
    );
  await assign(iface, 'dcim_interface', 0);
  await assign(vmiface, 'virtualization_vminterface', 20);
  await db.sql(`UPDATE ipam_ipaddress SET assigned_object_type_id = ${fhrp}, assigned_object_id = 1
                WHERE id = (SELECT max(id) FROM ipam_ipaddress)`);
  await db.sql(`UPDATE dcim_device d SET primary_ip4_id = x.id FROM ipam_ipaddress x JOIN dcim_interface i
                ON x.assigned_object_type_id = ${iface} AND x.assigned_object_id = i.id WHERE i.device_id = d.id`);
  await db.sql(`UPDATE virtualization_virtualmachine v SET primary_ip4_id = x.id FROM ipam_ipaddress x
                JOIN virtualization_vminterface i ON x.assigned_object_type_id = ${vmiface}
                AND x.assigned_object_id = i.id WHERE i.virtual_machine_id = v.id`);
  await db.sql(`INSERT INTO dcim_macaddress (created, last_updated, custom_field_data, mac_address, description,
                comments, assigned_object_type_id, assigned_object_id)
                SELECT now(), now(), '{}', 'aa:bb:cc:00:11:22', '', '', ${iface}, min(id) FROM dcim_interface`);
  await db.sql(`UPDATE dcim_interface SET primary_mac_address_id = (SELECT max(id) FROM dcim_macaddress)
                WHERE id = (SELECT min(id) FROM dcim_interface)`);
  await db.sql(`UPDATE ipam_prefix SET scope_type_id = ${region}, scope_id = (SELECT min(id) FROM dcim_region)
                WHERE id = (SELECT max(id) FROM ipam_prefix WHERE scope_type_id IS NULL)`);
  await db.sql(`INSERT INTO extras_taggeditem (object_id, content_type_id, tag_id)
                SELECT (SELECT min(id) FROM circuits_circuit), ${circuit}, min(id) FROM extras_tag`);
  await db.sql(`INSERT INTO extras_customfield (type, name, label, description, required, filter_logic, weight,
                created, last_updated, search_weight, is_cloneable, ui_editable, ui_visible, comments, "unique",
                validation_regex, group_name)
                VALUES ('decimal', 'floor_area', '', '', false, 'loose', 100, now(), now(), 1000, false, 'yes',
                'always', '', false, '', '')`);
  await db.sql(`INSERT INTO extras_customfield_object_types (customfield_id, objecttype_id)
                SELECT max(id), ${site} FROM extras_customfield`);
  await db.sql(`INSERT INTO ipam_service (created, last_updated, custom_field_data, name, protocol, ports, description,
                device_id, comments)
                SELECT now(), now(), '{}', 'ssh', 'tcp', '{22,2222}', '', min(id), '' FROM dcim_device`);
  await db.sql(`UPDATE dcim_site SET custom_field_data = custom_field_data || '{"floor_area": 12.5}'
                WHERE id = (SELECT min(id) FROM dcim_site)`);
}

/** NetBox 3.7-4.1's layout made from 4.2's: prefixes and clusters with `site_id`, MACs on the interfaces. */
export async function olderLayout(db: NetboxDb): Promise<void> {
  const site = `(SELECT id FROM django_content_type WHERE app_label='dcim' AND model='site')`;
  for (const table of ['ipam_prefix', 'virtualization_cluster'])
    await db.sql(`ALTER TABLE ${table} ADD COLUMN site_id bigint;
      UPDATE ${table} SET site_id = scope_id WHERE scope_type_id = ${site};
      ALTER TABLE ${table} DROP COLUMN scope_type_id, DROP COLUMN scope_id, DROP COLUMN _site_id,
        DROP COLUMN _region_id, DROP COLUMN _site_group_id, DROP COLUMN _location_id`);
  for (const table of ['dcim_interface', 'virtualization_vminterface'])
    await db.sql(`ALTER TABLE ${table} ADD COLUMN mac_address macaddr;
      UPDATE ${table} t SET mac_address = m.mac_address::macaddr FROM dcim_macaddress m
        WHERE m.id = t.primary_mac_address_id;
      ALTER TABLE ${table} DROP COLUMN primary_mac_address_id`);
  await db.sql(`DROP TABLE dcim_macaddress CASCADE`);
  await db.sql(`DELETE FROM django_migrations WHERE app = 'dcim' AND name >= '0191'`);
}

// A database taken back to before migration 13 (shared by the migration tests of 6 and 13).
import { MIGRATIONS_TABLE } from '../../../storage/sql/migrations.js';
import type { PgDriver } from '../../../storage/postgres/pg-driver.js';
import type { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';

type Driver = PgDriver | MysqlDriver;

/** Migration 13's references on tables made before it, and its tables (referenced ones last). */
const FIELDS_13: Readonly<Record<string, readonly string[]>> = {
  ip_address: ['vminterface', 'tenant'],
  prefix: ['tenant'],
  vlan: ['tenant'],
  device: ['tenant', 'location', 'rack', 'position', 'cluster', 'primary_ip4', 'primary_ip6', 'primary_ip'],
  site: ['group', 'tenant'],
};
const TABLES_13 = [
  'service',
  'vminterface',
  'virtual_machine',
  'cluster',
  'cluster_group',
  'cluster_type',
  'rack',
  'rack_role',
  'location',
  'tenant',
  'tenant_group',
  'site_group',
];

/**
 * Takes the database back to before migration 13: its columns (with their keys and indexes) and tables dropped, its
 * record gone.
 */
export async function before13(driver: Driver): Promise<void> {
  const d = await driver.connect();
  const q = d.quote;
  for (const [table, fields] of Object.entries(FIELDS_13))
    for (const f of fields) {
      if (f !== 'position') {
        await driver.query(
          d.name === 'postgres'
            ? `ALTER TABLE ${q(table)} DROP CONSTRAINT ${q(`fk_${table}_${f}`)}`
            : `ALTER TABLE ${q(table)} DROP FOREIGN KEY ${q(`fk_${table}_${f}`)}`,
        );
        if (d.name !== 'postgres') await driver.query(`ALTER TABLE ${q(table)} DROP INDEX ${q(`ix_${table}_${f}`)}`);
      }
      await driver.query(`ALTER TABLE ${q(table)} DROP COLUMN ${q(f)}`);
    }
  // Virtual machines and their interfaces refer to addresses and each other: their keys go first.
  for (const [table, f] of [
    ['virtual_machine', 'primary_ip4'],
    ['virtual_machine', 'primary_ip6'],
    ['virtual_machine', 'primary_ip'],
  ])
    await driver.query(
      d.name === 'postgres'
        ? `ALTER TABLE ${q(table)} DROP CONSTRAINT ${q(`fk_${table}_${f}`)}`
        : `ALTER TABLE ${q(table)} DROP FOREIGN KEY ${q(`fk_${table}_${f}`)}`,
    );
  for (const t of TABLES_13) for (const table of [`${t}_tags`, t]) await driver.query(`DROP TABLE ${q(table)}`);
  await driver.query(`DELETE FROM ${q(MIGRATIONS_TABLE)} WHERE version >= 13`);
}

// Which NetBox made a database: the highest `dcim` migration it has applied says the release (NetBox
// ships its migrations with each release, numbered). The import reads 3.7 to 4.2; the layout
// differences inside that range are told apart by the columns present (mapping.ts alternatives).

/** The first dcim migration of each release, in order. */
const RELEASES: readonly (readonly [number, string])[] = [
  [183, '3.7'], // 0183_devicetype_exclude_from_utilization
  [186, '4.0'], // 0186_location_facility
  [188, '4.1'], // 0188_racktype
  [191, '4.2'], // 0191_module_bay_rebuild
  [201, '4.3'], // past 0200_populate_mac_addresses, the last of 4.2.0
];
/** What 4.3 changed that the import reads: a service's device or VM became a generic `parent_object`. A database
 * with later migrations but without it is taken as a 4.2 (a patch release may add a migration). */
const LATER_LAYOUT: readonly [string, string] = ['ipam_service', 'parent_object_id'];
export const SUPPORTED = ['3.7', '4.0', '4.1', '4.2'];

/** Tables every NetBox database of these releases has. */
const NETBOX_TABLES = ['django_migrations', 'django_content_type', 'dcim_site', 'dcim_device', 'ipam_prefix'];

export type VersionResult = { ok: true; version: string } | { ok: false; why: string };

export function netboxVersion(
  tables: ReadonlyMap<string, ReadonlySet<string>>,
  dcimMigrations: readonly string[],
): VersionResult {
  const missing = NETBOX_TABLES.filter((t) => !tables.has(t));
  if (missing.length)
    return { ok: false, why: `the source is not a NetBox database (it has no table ${missing.join(', ')})` };
  const top = Math.max(0, ...dcimMigrations.map((n) => parseInt(n, 10)).filter(Number.isFinite));
  let at = RELEASES.filter(([first]) => top >= first).pop();
  if (at?.[1] === '4.3' && !tables.get(LATER_LAYOUT[0])?.has(LATER_LAYOUT[1])) at = RELEASES[RELEASES.length - 2];
  const range = `${SUPPORTED[0]} to ${SUPPORTED[SUPPORTED.length - 1]}`;
  if (!at)
    return { ok: false, why: `the source is a NetBox older than 3.7 (dcim migration ${top}); import reads ${range}` };
  if (!SUPPORTED.includes(at[1]))
    return { ok: false, why: `the source is NetBox ${at[1]} or later (dcim migration ${top}); import reads ${range}` };
  return { ok: true, version: at[1] };
}

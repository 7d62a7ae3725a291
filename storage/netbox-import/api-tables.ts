// Where NetBox's REST API shows each table this import reads. A column's value is found by rule
// (api-source.ts): the object's field of the column's own name (`scope_id`, `assigned_object_id`,
// `facility_id`), else the name without `_id` (`region` for `region_id`, `scope_type` for
// `scope_type_id`), else an alias below (older NetBox names); custom_field_data is `custom_fields`.

export interface ApiTable {
  /** The list endpoint, under the base URL. */
  readonly path: string;
  /** Query parameters besides limit and ordering (config_context is large and no column of ours). */
  readonly query?: Readonly<Record<string, string>>;
  /** Column -> other API field names that hold it in some NetBox version. */
  readonly aliases?: Readonly<Record<string, readonly string[]>>;
}

const NO_CONTEXT = { exclude: 'config_context' };

export const API_TABLES: Readonly<Record<string, ApiTable>> = {
  dcim_region: { path: 'api/dcim/regions/' },
  dcim_sitegroup: { path: 'api/dcim/site-groups/' },
  dcim_site: { path: 'api/dcim/sites/' },
  dcim_location: { path: 'api/dcim/locations/' },
  dcim_rack: { path: 'api/dcim/racks/' },
  dcim_rackrole: { path: 'api/dcim/rack-roles/' },
  tenancy_tenantgroup: { path: 'api/tenancy/tenant-groups/' },
  tenancy_tenant: { path: 'api/tenancy/tenants/' },
  dcim_manufacturer: { path: 'api/dcim/manufacturers/' },
  dcim_devicetype: { path: 'api/dcim/device-types/' },
  dcim_devicerole: { path: 'api/dcim/device-roles/' },
  dcim_platform: { path: 'api/dcim/platforms/' },
  // NetBox 3.6 and 3.7 show the device's role as `device_role` too (4.0 dropped it).
  dcim_device: { path: 'api/dcim/devices/', query: NO_CONTEXT, aliases: { role_id: ['device_role'] } },
  dcim_interface: { path: 'api/dcim/interfaces/' },
  ipam_vlan: { path: 'api/ipam/vlans/' },
  ipam_prefix: { path: 'api/ipam/prefixes/' },
  ipam_ipaddress: { path: 'api/ipam/ip-addresses/' },
  virtualization_clustertype: { path: 'api/virtualization/cluster-types/' },
  virtualization_clustergroup: { path: 'api/virtualization/cluster-groups/' },
  virtualization_cluster: { path: 'api/virtualization/clusters/' },
  virtualization_virtualmachine: { path: 'api/virtualization/virtual-machines/', query: NO_CONTEXT },
  virtualization_vminterface: { path: 'api/virtualization/interfaces/' },
  ipam_service: { path: 'api/ipam/services/' },
  extras_tag: { path: 'api/extras/tags/' },
  extras_customfield: { path: 'api/extras/custom-fields/' },
  extras_customfieldchoiceset: { path: 'api/extras/custom-field-choice-sets/' },
  dcim_macaddress: { path: 'api/dcim/mac-addresses/' },
};

/**
 * django_content_type's endpoints, tried in order until one exists: NetBox 4.0 to 4.3 (4.4 keeps it),
 * 4.4 and later, 3.x.
 */
export const CONTENT_TYPE_PATHS = ['api/extras/object-types/', 'api/core/object-types/', 'api/extras/content-types/'];

/** NetBox's version and a proof that the URL is NetBox. */
export const STATUS_PATH = 'api/status/';

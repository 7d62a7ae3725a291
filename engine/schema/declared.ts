// Every resource of the registry: one import and one entry each. The order is the order of
// presentation (OpenAPI, menus) where references leave a choice; registry.ts derives the dependency
// order from the references, so a new resource may be added anywhere.
import type { ResourceDef } from './types.js';
import { tag } from './resources/tag.js';
import { customField } from './resources/custom-field.js';
import { region } from './resources/region.js';
import { siteGroup } from './resources/site-group.js';
import { tenantGroup } from './resources/tenant-group.js';
import { tenant } from './resources/tenant.js';
import { site } from './resources/site.js';
import { location } from './resources/location.js';
import { rackRole } from './resources/rack-role.js';
import { rack } from './resources/rack.js';
import { clusterType } from './resources/cluster-type.js';
import { clusterGroup } from './resources/cluster-group.js';
import { cluster } from './resources/cluster.js';
import { virtualMachine } from './resources/virtual-machine.js';
import { vmInterface } from './resources/vm-interface.js';
import { service } from './resources/service.js';
import { manufacturer } from './resources/manufacturer.js';
import { deviceType } from './resources/device-type.js';
import { deviceRole } from './resources/device-role.js';
import { platform } from './resources/platform.js';
import { device } from './resources/device.js';
import { iface } from './resources/interface.js';
import { vlan } from './resources/vlan.js';
import { prefix } from './resources/prefix.js';
import { ipAddress } from './resources/ip-address.js';
import { token } from './resources/token.js';
import { group, objectPermission, user } from './resources/users.js';
import { entity, history, idempotency, machine } from './resources/lifecycle.js';
import { objectChange } from './resources/object-change.js';
import { webhook, webhookCursor, webhookDelivery } from './resources/webhook.js';
import { job, jobInput } from './resources/job.js';

export const DECLARED: readonly ResourceDef[] = [
  tag,
  customField,
  region,
  siteGroup,
  tenantGroup,
  tenant,
  site,
  location,
  rackRole,
  rack,
  manufacturer,
  deviceType,
  deviceRole,
  platform,
  clusterType,
  clusterGroup,
  cluster,
  device,
  iface,
  virtualMachine,
  vmInterface,
  vlan,
  prefix,
  ipAddress,
  service,
  group,
  user,
  objectPermission,
  token,
  machine,
  entity,
  history,
  idempotency,
  objectChange,
  webhook,
  webhookDelivery,
  webhookCursor,
  job,
  jobInput,
];

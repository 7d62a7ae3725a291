// NetBox models the import does not read (circuits, VRFs, cables, ...), counted through the API for the
// take/leave table, as a database import counts their tables: each content type's app root (`GET
// api/circuits/`) names the app's list endpoints, and the endpoint named for the model's plural
// (`circuit-terminations` for circuittermination) answers `?limit=1` with its count. A model no endpoint
// is named for (a through table, a model served under another name) is not listed: the API does not
// show it. One the token may not read is listed without a count.
import { NetboxApiError, type NetboxHttpClient } from './http-client.js';

export interface OtherTables {
  /** NetBox table (`circuits_circuit`) -> rows. */
  readonly counts: Map<string, number>;
  /** Tables whose endpoint refused the token. */
  readonly unreadable: string[];
}

/** Whether a list endpoint's name is a model's plural: `vlan-translation-policies` names vlantranslationpolicy. */
export function namesModel(endpoint: string, model: string): boolean {
  const e = endpoint.replace(/-/g, '');
  return (
    e === model || e === `${model}s` || e === `${model}es` || (model.endsWith('y') && e === `${model.slice(0, -1)}ies`)
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The app's root: endpoint name -> its URL; null when NetBox serves no API for the app (auth, taggit, ...). */
async function appRoot(client: NetboxHttpClient, app: string): Promise<Record<string, unknown> | null> {
  try {
    const { body } = await client.get(`api/${app}/`);
    return isObject(body) ? body : null;
  } catch (e) {
    if (e instanceof NetboxApiError && (e.failure === 'not-found' || e.failure === 'token')) return null;
    throw e;
  }
}

export async function countOtherTables(
  client: NetboxHttpClient,
  types: readonly Readonly<Record<string, unknown>>[],
  known: ReadonlySet<string>,
): Promise<OtherTables> {
  const out: OtherTables = { counts: new Map(), unreadable: [] };
  const apps = new Map<string, string[]>();
  for (const t of types) {
    const [app, model] = [String(t.app_label), String(t.model)];
    if (!known.has(`${app}_${model}`)) apps.set(app, [...(apps.get(app) ?? []), model]);
  }
  for (const [app, models] of [...apps].sort(([a], [b]) => a.localeCompare(b))) {
    const root = await appRoot(client, app);
    if (!root) continue;
    for (const model of models) {
      const endpoint = Object.keys(root).find((e) => namesModel(e, model));
      if (!endpoint || typeof root[endpoint] !== 'string') continue;
      const table = `${app}_${model}`;
      try {
        out.counts.set(table, await client.count(root[endpoint]));
      } catch (e) {
        if (!(e instanceof NetboxApiError)) throw e;
        if (e.failure === 'token') out.unreadable.push(table);
        else if (e.failure !== 'not-found' && e.failure !== 'not-netbox') throw e;
      }
    }
  }
  return out;
}

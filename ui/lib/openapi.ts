// What the UI knows about the inventory comes from the API's own OpenAPI document: every list path
// with an object path beside it is a resource with list, detail and form pages; its columns are the
// properties of the list's item schema, its filters the list operation's query parameters.

export interface Schema {
  readonly [k: string]: any;
}
export interface OpenApiDoc {
  readonly paths: Record<string, Record<string, any>>;
  readonly components: { schemas: Record<string, Schema> };
  readonly tags?: readonly { name: string; description?: string }[];
}

export interface Column {
  readonly name: string;
  readonly title: string;
  /** the schema name of the object a foreign key points at (`BriefSite` -> `Site`), if it is one */
  readonly ref?: string;
  readonly readOnly: boolean;
}

export interface FilterParam {
  readonly name: string;
  readonly description: string;
  readonly choices: readonly string[];
}

export interface Resource {
  readonly key: string; // 'ipam/prefixes': the UI's route and the document's tag
  readonly app: string;
  readonly plural: string;
  readonly label: string; // 'Prefix'
  readonly title: string; // 'Prefixes'
  readonly listPath: string; // '/api/ipam/prefixes/'
  readonly schema: string; // 'Prefix'
  readonly columns: readonly Column[];
  readonly filters: readonly FilterParam[];
  readonly orderable: readonly string[];
  readonly permission: string; // 'ipam.view_prefix'
  readonly contentType: string; // 'ipam.prefix': the change log's changed_object_type
  /** Its ids are JSON numbers (a store with integer ids), not UUIDs: references to it are sent as numbers. */
  readonly integerIds: boolean;
}

/** Parameters of a list that shape the answer rather than filter it. */
export const CONTROL_PARAMS = new Set([
  'limit',
  'offset',
  'start',
  'ordering',
  'brief',
  'fields',
  'omit',
  'exclude',
  'exclude_m2m',
  'depth',
  'explain',
  'include',
  'format',
  'api_version',
]);

const LIST_PATH = /^\/api\/([a-z0-9-]+)\/([a-z0-9-]+)\/$/;

export function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? ref.replace(/^#\/components\/schemas\//, '') : undefined;
}

function itemSchemaName(doc: OpenApiDoc, op: any): string | undefined {
  const list = refName(op?.responses?.['200']?.content?.['application/json']?.schema?.$ref);
  const items = list ? doc.components.schemas[list]?.properties?.results?.items : undefined;
  const refs: unknown[] = items?.$ref ? [items.$ref] : (items?.anyOf ?? []).map((a: any) => a.$ref);
  return refs.map(refName).find((n) => n && !n.startsWith('Brief'));
}

function columnOf(name: string, s: Schema): Column {
  const brief = refName((s.anyOf ?? []).find((a: any) => a.$ref)?.$ref ?? s.$ref);
  return {
    name,
    title: s.title ?? name,
    ref: brief?.startsWith('Brief') ? brief.slice(5) : undefined,
    readOnly: !!s.readOnly,
  };
}

/** The label and content type a list's tag describes: `Site: A place … (\`dcim.site\`)`. */
function tagInfo(
  doc: OpenApiDoc,
  tag: string,
  fallback: string,
  permission: string,
): { label: string; contentType: string } {
  const d = doc.tags?.find((t) => t.name === tag)?.description ?? '';
  const label = /^([^:]+):/.exec(d)?.[1].trim() ?? fallback;
  const ct = /\(`([a-z0-9_]+\.[a-z0-9_]+)`\)\s*$/.exec(d)?.[1] ?? permission.replace('.view_', '.');
  return { label, contentType: ct };
}

/** Fields named in the ordering parameter's description (`Fields: \`id\`, \`name\`.`). */
function orderableOf(params: readonly any[]): string[] {
  const d: string = params.find((p) => p.name === 'ordering')?.description ?? '';
  const tail = d.split('Fields:')[1] ?? '';
  return [...tail.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]);
}

function filtersOf(params: readonly any[]): FilterParam[] {
  return params
    .filter((p) => p.in === 'query' && !CONTROL_PARAMS.has(p.name))
    .map((p) => ({
      name: p.name,
      description: p.description ?? '',
      choices: p.schema?.items?.enum ?? p.schema?.enum ?? [],
    }));
}

/** Every inventory resource of the document, in the document's order; aliases of one endpoint once. */
export function resourcesOf(doc: OpenApiDoc): Resource[] {
  const out: Resource[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const m = LIST_PATH.exec(path);
    const op = item.get;
    if (!m || !op || !doc.paths[`${path}{id}/`]?.get) continue;
    const schema = itemSchemaName(doc, op);
    if (!schema || seen.has(schema)) continue;
    seen.add(schema);
    const [, app, plural] = m;
    const props: Record<string, Schema> = doc.components.schemas[schema]?.properties ?? {};
    const params = op.parameters ?? [];
    const permission: string = op['x-permission'] ?? '';
    const { label, contentType } = tagInfo(doc, `${app}/${plural}`, schema, permission);
    out.push({
      key: `${app}/${plural}`,
      app,
      plural,
      label,
      schema,
      listPath: path,
      contentType,
      permission,
      integerIds: props.id?.type === 'integer',
      title: plural
        .split('-')
        .map((w, i) => (i === 0 ? w[0].toUpperCase() + w.slice(1) : w))
        .join(' ')
        .replace(/^Ip /, 'IP ')
        .replace(/^Vlans/, 'VLANs'),
      // A deprecated property is another name of a column already there (a device's `device_role`).
      columns: Object.entries(props)
        .filter(([, s]) => !s.deprecated)
        .map(([n, s]) => columnOf(n, s)),
      filters: filtersOf(params),
      orderable: orderableOf(params),
    });
  }
  return out;
}

/** Columns a list shows by default: the display first, then the short scalar and foreign-key fields. */
export function listColumns(r: Resource, max = 7): Column[] {
  const skip = new Set([
    'id',
    'url',
    'display',
    'created',
    'last_updated',
    'custom_fields',
    'tags',
    'comments',
    'description',
    'physical_address',
  ]);
  return r.columns.filter((c) => !skip.has(c.name)).slice(0, max);
}

/** Resources with a foreign key to `schema`, and the filter that finds the objects pointing at one. */
export function relatedTo(all: readonly Resource[], schema: string): { resource: Resource; field: string }[] {
  const out: { resource: Resource; field: string }[] = [];
  for (const r of all) {
    for (const c of r.columns) {
      if (c.ref === schema && r.filters.some((f) => f.name === `${c.name}_id` || f.name === c.name))
        out.push({ resource: r, field: r.filters.some((f) => f.name === `${c.name}_id`) ? `${c.name}_id` : c.name });
    }
  }
  return out;
}

/** The UI route of an object from its API url (`…/api/dcim/sites/<id>/` -> `#/dcim/sites/<id>`). */
export function routeOfUrl(url: string): string | null {
  const m = /\/api\/([a-z0-9-]+)\/([a-z0-9-]+)\/([^/]+)\/$/.exec(url);
  return m ? `#/${m[1]}/${m[2]}/${m[3]}` : null;
}

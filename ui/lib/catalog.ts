// The OpenAPI document, read once per page load, and the resources found in it.
import { request } from './api.js';
import { resourcesOf, type OpenApiDoc, type Resource } from './openapi.js';

export interface Catalog {
  readonly doc: OpenApiDoc;
  readonly resources: readonly Resource[];
}

let loading: Promise<Catalog> | null = null;

export function loadCatalog(): Promise<Catalog> {
  loading ??= fetch('/openapi.json').then(async (r) => {
    if (!r.ok) throw new Error(`/openapi.json: ${r.status}`);
    const doc = (await r.json()) as OpenApiDoc;
    return { doc, resources: resourcesOf(doc) };
  });
  return loading.catch((e) => {
    loading = null;
    throw e;
  });
}

export function findResource(c: Catalog, key: string): Resource | undefined {
  return c.resources.find((r) => r.key === key);
}

export function resourceOfSchema(c: Catalog, schema: string): Resource | undefined {
  return c.resources.find((r) => r.schema === schema);
}

/** OPTIONS of a path: field metadata and, when the token may write, `actions`. */
export interface FieldMeta {
  type: string;
  required: boolean;
  read_only: boolean;
  label: string;
  choices?: { value: string; display: string }[];
  max_length?: number;
  min_value?: number;
  max_value?: number;
}
export interface OptionsBody {
  name: string;
  actions?: Record<string, Record<string, FieldMeta>>;
}

const optionsCache = new Map<string, Promise<OptionsBody | null>>();
export function loadOptions(path: string): Promise<OptionsBody | null> {
  let p = optionsCache.get(path);
  if (!p) {
    p = request<OptionsBody>('OPTIONS', path).then((r) => (r.ok ? r.body : null));
    optionsCache.set(path, p);
  }
  return p;
}

/** Forget OPTIONS answers: they depend on the token. */
export function forgetOptions(): void {
  optionsCache.clear();
}

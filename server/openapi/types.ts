// The subset of OpenAPI 3.1 this service writes, and small helpers shared by the document builders.
export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'form' | 'simple';
  explode?: boolean;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: {
    required: boolean;
    description?: string;
    content: {
      'application/json': { schema: JsonSchema; examples?: Record<string, { summary?: string; value: unknown }> };
      'application/yaml'?: { schema: JsonSchema };
      'text/csv'?: { schema: JsonSchema };
    };
  };
  responses: Record<string, Response | RefObject>;
  security?: Record<string, string[]>[];
  /** The permission the route checks (`lifecycle.add_entity`); enforced again by the validator. */
  'x-permission'?: string;
  /** Permissions the route checks besides `x-permission` (allocating in a prefix needs view on it too). */
  'x-also-permissions'?: string[];
}

export interface RefObject {
  $ref: string;
}

export interface Response {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
export type PathItem = Partial<Record<Method, Operation>> & { parameters?: Parameter[] };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers?: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, unknown>;
    responses: Record<string, Response>;
  };
  security: Record<string, string[]>[];
}

export const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete', 'options'];

/** Where the component schemas are; a `$ref` to one is this and its name. */
export const COMPONENTS = '#/components/schemas/';
export const ref = (name: string): JsonSchema => ({ $ref: `${COMPONENTS}${name}` });

export const json = (schema: JsonSchema, description: string): Response => ({
  description,
  content: { 'application/json': { schema } },
});

/** `ip_address` -> `IpAddress`, `custom_field` -> `CustomField`. */
export const pascal = (name: string): string =>
  name
    .split(/[_-]/)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/** A schema that also accepts null (JSON Schema 2020-12: a type list, or anyOf for a $ref). */
export function orNull(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string') {
    const out: JsonSchema = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
    return out;
  }
  return { anyOf: [s, { type: 'null' }] };
}

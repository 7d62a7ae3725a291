// The OpenAPI document as the authority on lifecycle request bodies: one ajv validator per POST
// operation under /api/v1, compiled once from the document. A request it refuses is answered 400
// (`invalid_body`, or `invalid_<parameter>` for a path or header parameter) and never reaches
// the handler. Authentication and the operation's permission are checked first, so a caller
// without a token still gets 401 and one without the permission 403. A machine definition is the
// exception: its handler checks it against the same schema (see CHECKED_BY_HANDLER).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { isSemver } from '../../engine/lifecycle/semver.js';
import type { Tokens } from '../../app/tokens.js';
import { authenticate, requirePermission } from '../auth.js';
import { COMPONENTS, type JsonSchema, type OpenApiDocument, type Operation, type Parameter } from './types.js';

const DOC_ID = 'openapi.json';
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

export interface RequestError {
  readonly in: 'body' | 'path' | 'header';
  readonly path: string;
  readonly message: string;
}

interface CompiledParam {
  readonly p: Parameter;
  readonly check: ValidateFunction;
}
interface CompiledOperation {
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly permission: string | undefined;
  readonly params: readonly CompiledParam[];
  /** Null where the handler checks the body (CHECKED_BY_HANDLER). */
  readonly body: ValidateFunction | null;
}

/**
 * Bodies whose handler checks them against the document's own schema, with the limits the server
 * runs with: a machine definition (MachineDefinition, engine/lifecycle/machine-schema.ts) is
 * refused by validateMachine, which adds the rules across fields, as 400 `invalid_machine` with
 * every problem listed, never `invalid_body`. A missing body is still `invalid_body` here.
 */
const CHECKED_BY_HANDLER: ReadonlySet<string> = new Set(['POST /api/v1/machines']);

/**
 * The document's component schemas become `$defs` of one schema (`openapi.json`); references are
 * rewritten to point there: relative inside it, absolute (`openapi.json#/$defs/X`) from outside.
 */
function rebased(schema: unknown, prefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebased(s, prefix));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS)
        ? `${prefix}#/$defs/${v.slice(COMPONENTS.length)}`
        : rebased(v, prefix),
    ]),
  );
}
const anchored = (schema: unknown): unknown => rebased(schema, DOC_ID);

/** Formats the document names: semantic versions are checked (the `semver` package); the others only name. */
const FORMATS = { semver: { type: 'string', validate: isSemver }, 'date-time': true, uri: true, uuid: true } as const;

export function createAjv(doc: OpenApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, formats: FORMATS });
  ajv.addSchema({ $id: DOC_ID, $defs: rebased(doc.components.schemas, '') as JsonSchema });
  return ajv;
}

export function templateRegex(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const body = template
    .replace(/\/$/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{(.+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+)';
    })
    .join('');
  // Express routing here is case-insensitive and not strict about a trailing slash.
  return { pattern: new RegExp(`^${body}/?$`, 'i'), names };
}

/** The operations to guard: every operation with a request body under /api/v1. */
export function compileOperations(doc: OpenApiDocument, ajv: Ajv2020): CompiledOperation[] {
  const out: CompiledOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/v1/')) continue;
    for (const method of ['post', 'put', 'patch'] as const) {
      const op: Operation | undefined = item[method];
      if (!op?.requestBody) continue;
      const merged = new Map<string, Parameter>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) merged.set(`${p.in}:${p.name}`, p);
      const params = [...merged.values()]
        .filter((p) => p.in === 'path' || p.in === 'header')
        .map((p) => ({ p, check: ajv.compile(anchored(p.schema) as JsonSchema) }));
      const body = CHECKED_BY_HANDLER.has(`${method.toUpperCase()} ${template}`)
        ? null
        : ajv.compile(anchored(op.requestBody.content['application/json'].schema) as JsonSchema);
      out.push({
        method: method.toUpperCase(),
        template,
        ...templateRegex(template),
        permission: op['x-permission'],
        params,
        body,
      });
    }
  }
  return out;
}

function bodyErrors(errors: readonly ErrorObject[]): RequestError[] {
  return errors.map((e) => {
    if (e.keyword === 'required')
      return {
        in: 'body',
        path: `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`,
        message: 'is required',
      };
    if (e.keyword === 'additionalProperties')
      return {
        in: 'body',
        path: `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`,
        message: 'is not allowed here (unknown property)',
      };
    return { in: 'body', path: e.instancePath || '/', message: e.message ?? 'is invalid' };
  });
}

/** A path or header value as its schema types it: the text of an integer (an id in an integer store,
 * `/sites/17/`) is checked as the number it spells. */
const asTyped = (p: Parameter, v: string): unknown =>
  p.schema.type === 'integer' && /^-?\d{1,16}$/.test(v) ? Number(v) : v;

/** Errors of one request against one compiled operation; empty when it conforms. */
export function checkRequest(
  op: CompiledOperation,
  values: { path: Record<string, string>; header: (name: string) => string | undefined; body: unknown },
): { code: string; errors: RequestError[] } | null {
  for (const { p, check } of op.params) {
    const v = p.in === 'path' ? values.path[p.name] : values.header(p.name);
    if (v === undefined) {
      if (p.required)
        return {
          code: `invalid_${p.name.toLowerCase().replace(/-/g, '_')}`,
          errors: [{ in: p.in as 'path' | 'header', path: p.name, message: 'is required' }],
        };
      continue;
    }
    if (!check(asTyped(p, v)))
      return {
        code: `invalid_${p.name.toLowerCase().replace(/-/g, '_')}`,
        errors: (check.errors ?? []).map((e) => ({
          in: p.in as 'path' | 'header',
          path: p.name,
          message: e.message ?? 'is invalid',
        })),
      };
  }
  if (values.body === undefined)
    return {
      code: 'invalid_body',
      errors: [{ in: 'body', path: '/', message: 'a JSON body is required (Content-Type: application/json)' }],
    };
  if (op.body && !op.body(values.body)) return { code: 'invalid_body', errors: bodyErrors(op.body.errors ?? []) };
  return null;
}

function refuse(res: Response, op: CompiledOperation, code: string, errors: RequestError[]): void {
  const where = code === 'invalid_body' ? 'The request body does not match' : 'A parameter does not match';
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  res.status(400).json({
    detail: `${where} the OpenAPI document for ${op.method} ${op.template}: ${first.path} ${first.message}${more}.`,
    code,
    errors,
  });
}

export function validateRequests(doc: OpenApiDocument, tokens: Tokens): RequestHandler {
  // Compiled at the first request that may need them, not at start (~0.15 s of CPU a start needs
  // not wait for); every guarded operation is under /api/v1/ and has a body.
  let ops: CompiledOperation[] | null = null;
  const auth = authenticate(tokens);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !/^\/api\/v1\//i.test(req.path)) {
      next();
      return;
    }
    ops ??= compileOperations(doc, createAjv(doc));
    let op: CompiledOperation | undefined;
    let m: RegExpExecArray | null = null;
    for (const o of ops)
      if (o.method === req.method && (m = o.pattern.exec(req.path))) {
        op = o;
        break;
      }
    if (!op || !m) {
      next();
      return;
    }
    const hit = op;
    const path: Record<string, string> = {};
    try {
      hit.names.forEach((n, i) => {
        path[n] = decodeURIComponent(m![i + 1]);
      });
    } catch {
      refuse(res, hit, 'invalid_path', [{ in: 'path', path: req.path, message: 'is not valid percent-encoding' }]);
      return;
    }
    const validate = () => {
      const bad = checkRequest(hit, { path, header: (h) => req.get(h), body: req.body });
      if (bad) refuse(res, hit, bad.code, bad.errors);
      else next();
    };
    const afterAuth = (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      if (!hit.permission) {
        validate();
        return;
      }
      requirePermission(hit.permission)(req, res, (e?: unknown) => (e ? next(e) : validate()));
    };
    Promise.resolve(auth(req, res, afterAuth)).catch(next);
  };
}

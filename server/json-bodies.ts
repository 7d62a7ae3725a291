// Request bodies are JSON (or YAML where a route takes it, see yaml-body.ts): a POST, PUT or PATCH
// whose body no parser read (curl's -d sends application/x-www-form-urlencoded) is a 415 saying what
// to send, as REST framework answers, rather than a validation error about a missing body.
import type { RequestHandler } from 'express';
import { hasBody } from './auth.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Mounted after the body parsers: a parser that took the body set req.body. */
export const jsonBodiesOnly: RequestHandler = (req, res, next) => {
  if (!WRITES.has(req.method) || !hasBody(req) || req.body !== undefined) {
    next();
    return;
  }
  const type = req.get('content-type');
  const detail =
    `Unsupported media type ${type ? `"${type}"` : '(no Content-Type)'} in request. ` +
    'Send the body as JSON with the header Content-Type: application/json.';
  res.status(415).json({ detail, code: 'unsupported_media_type' });
};

// YAML request bodies where the API takes them (machine definitions, as in machinesDir files):
// read as text and parsed to the value a JSON body would give, then checked like one.
import express, { type RequestHandler } from 'express';
import YAML from 'yaml';
import { LIMITS } from './limits.js';

export const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

export function yamlBody(): RequestHandler[] {
  return [
    express.text({ type: YAML_TYPES, limit: LIMITS.bodyBytes }),
    (req, res, next) => {
      if (typeof req.body !== 'string' || !req.is(YAML_TYPES)) {
        next();
        return;
      }
      try {
        req.body = YAML.parse(req.body); // the library caps alias expansion (no "billion laughs")
        next();
      } catch (e) {
        res
          .status(400)
          .json({ detail: `YAML parse error - ${(e as Error).message.split('\n')[0]}`, code: 'invalid_yaml' });
      }
    },
  ];
}

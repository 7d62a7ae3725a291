// The scheme and host a request was made to: what object URLs in its answer start with.
import type { Request } from 'express';

export const baseUrl = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

// The source an import reads, from its --from: a NetBox PostgreSQL database (postgres://…) or a NetBox
// REST API (https://…, with --token).
import { NetboxApiSource, type NetboxApiOptions } from './api-source.js';
import { PgNetboxSource } from './pg-source.js';
import type { NetboxSource } from './row-source.js';

export interface SourceOptions extends Partial<Omit<NetboxApiOptions, 'url'>> {
  /** postgres://… or postgresql://… (a NetBox database), http(s)://… (a NetBox). */
  readonly from: string;
}

export async function openNetboxSource(options: SourceOptions): Promise<NetboxSource> {
  const { from, token, ...rest } = options;
  const scheme = /^([a-z]+):/i.exec(from)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return PgNetboxSource.open(from);
  if (scheme === 'http' || scheme === 'https') {
    if (!token) throw new Error('--from names a NetBox API: --token is needed (a NetBox API token that can read)');
    return NetboxApiSource.open({ url: from, token, ...rest });
  }
  throw new Error(`--from must be postgres://… (a NetBox database) or https://… (a NetBox API): ${from}`);
}

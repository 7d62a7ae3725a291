// How MySQL / MariaDB spell names, placeholders (`?`, lists expanded) and the bytes of an address.
import type { Dialect } from '../dialect.js';

export const quote = (id: string): string => `\`${id.replace(/`/g, '``')}\``;
export const placeholder = (): string => '?';

export const inList: Dialect['inList'] = (b, expr, values) => {
  if (values.length === 1) {
    b.emit(`${expr} = `).param(values[0], 'text');
    return;
  }
  b.emit(`${expr} IN (`);
  values.forEach((v, i) => {
    if (i) b.emit(', ');
    b.param(v, 'text');
  });
  b.emit(')');
};

export const hexBytes = (hex: string): Buffer => Buffer.from(hex, 'hex');

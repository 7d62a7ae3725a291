// Values written into MySQL / MariaDB statement text, for the multi-row INSERTs of bulk writes.
// Bound as ~18,000 parameters of a prepared statement, a bulk create's values cost the server
// process most of its CPU in mysql2's encoding; as text they cost a string concatenation.
//
// One rule, the same under every sql_mode: a text holding no quote, backslash or NUL goes between
// single quotes as it is (inside '...' only ' and \ mean anything, and \ only without
// NO_BACKSLASH_ESCAPES); any other text goes as its UTF-8 bytes in hex with a utf8mb4 introducer,
// in which no character is special. UTF-8 bytes of a multi-byte character are all >= 0x80, so no
// character of a utf8mb4 text can end a literal.

const NEEDS_HEX = /['\\\0]/;

/** `v` (a value as the MySQL dialect encodes it for a column) as an SQL literal. */
export function mysqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'string':
      return NEEDS_HEX.test(v) ? `_utf8mb4 X'${Buffer.from(v, 'utf8').toString('hex')}'` : `'${v}'`;
    case 'number':
      // NaN and Infinity would be read as names; a finite number's shortest form is a numeric literal.
      if (!Number.isFinite(v)) throw new RangeError(`cannot write ${v} to MySQL`);
      return String(v);
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? '1' : '0';
  }
  if (Buffer.isBuffer(v)) return `X'${v.toString('hex')}'`;
  throw new TypeError(`no MySQL literal for a ${Object.prototype.toString.call(v)}`);
}

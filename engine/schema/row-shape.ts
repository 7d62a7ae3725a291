// Objects with many keys, kept fast. V8 turns an object whose keys are written one by one under
// computed names (`out[name] = v`) into a dictionary past about 18 of them; a dictionary is slow to
// fill, to read, to stringify and to collect. An object JSON.parse makes stays in fast mode, and so
// do its copies (`{ ...shape }`) when their keys are then assigned in place.

/** An object with these keys, in this order, each null: copy it, then assign every key. */
export function rowShape(keys: readonly string[]): Readonly<Record<string, null>> {
  return JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, null])))) as Record<string, null>;
}

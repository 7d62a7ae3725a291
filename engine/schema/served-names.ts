// The keys a field is served and written under: its name, and its alias when it has one (a device's
// `role` is `device_role` too). Its own module so that validation can use it without the registry.
import type { FieldDef } from './types.js';

export const servedNames = (f: FieldDef): readonly string[] => (f.alias ? [f.name, f.alias] : [f.name]);

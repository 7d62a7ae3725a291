// Machine definitions shipped as files (JSON or YAML) in machinesDir, installed at start.
// A bad file stops the start with the file name and every problem.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { Lifecycle } from '../app/lifecycle.js';

export class MachineFileError extends Error {}

export async function installMachineFiles(dir: string, lc: Lifecycle): Promise<number> {
  if (!fs.existsSync(dir)) return 0;
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.(json|ya?ml)$/i.test(f))
    .sort();
  for (const f of files) {
    const file = path.join(dir, f);
    let raw: unknown;
    try {
      const text = fs.readFileSync(file, 'utf8');
      raw = f.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
    } catch (e) {
      throw new MachineFileError(`machine file ${file}: cannot parse: ${(e as Error).message.split('\n')[0]}`);
    }
    const r = await lc.installMachine(raw);
    if (!r.ok) {
      const problems = (r.errors.problems as string[] | undefined) ?? [r.errors.detail];
      throw new MachineFileError(`machine file ${file}: ${problems.join('; ')}`);
    }
  }
  return files.length;
}

// The repository root, found from wherever a bundle runs (tests bundle into out/test-<pid>/<dir>/,
// benches into out/bench-<pid>/): the nearest folder above with this project's package.json.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function find(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && /"name":\s*"hailo-tools"/.test(readFileSync(pkg, 'utf8'))) return dir;
  }
  throw new Error(`no hailo-tools package.json above ${__dirname}`);
}

export const projectRoot = find();

// Packs the package with `npm pack` and installs the tarball into a fresh folder, as a user would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export function run(cwd, command, args) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Returns the new project's folder; embedlab is installed in its node_modules. */
export function installPackedPackage(prefix) {
  const project = mkdtempSync(join(tmpdir(), prefix));
  const tarball = run(repoRoot, 'npm', ['pack', '--silent', '--pack-destination', project]).trim().split('\n').pop();
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run(project, 'npm', ['install', '--no-audit', '--no-fund', '--offline', join(project, tarball)]);
  return project;
}

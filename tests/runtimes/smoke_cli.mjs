// Runs smoke_core.mjs in a command-line runtime (node, Bun, Deno) from a project where embedlab is installed,
// and prints its report as one JSON line on stdout.
import { smoke } from './smoke_core.mjs';

const report = await smoke(() => import('embedlab'));
console.log(JSON.stringify(report));

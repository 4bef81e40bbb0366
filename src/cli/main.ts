// The `codrail` command (bin/codrail, and the single executable through sea-main.ts): the program
// of program.ts on this process's command line.
import { run } from './program.ts';

const sea = (globalThis as { __codrailSea?: { version: string } }).__codrailSea;
await run(process.argv, sea?.version);

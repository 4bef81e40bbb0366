// `codrail secrets rotate`: re-seal stored secrets with the current key (README "Secrets at rest").
import type { Command } from 'commander';
import { globals, print, withApp } from './output.ts';

const load = () => import('../use-cases/secrets.use-case.ts');

export function register(program: Command): void {
  const secrets = program.command('secrets').description('secrets at rest (platform credentials): rotate the key that seals them');
  secrets
    .command('rotate')
    .description('re-seal every stored secret with the current key (CODRAIL_SECRET_KEY, else the key file); older keys must still be configured (CODRAIL_SECRET_KEY_PREVIOUS)')
    .action(async (_o: unknown, cmd: Command) => {
      const result = await withApp(cmd, async (app) => (await load()).rotateSecrets(app));
      print(
        globals(cmd),
        result,
        `key ${result.key_id} (${result.key}): re-sealed ${result.resealed}, already current ${result.already_current}${result.failed.length ? `, ${result.failed.length} could not be opened (enter those credentials again)` : ''}`,
      );
      if (result.failed.length) process.exitCode = 1;
    });
}

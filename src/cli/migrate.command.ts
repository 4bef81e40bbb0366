import type { Command } from 'commander';
import { print, withApp, globals } from './output.ts';
import { databaseLabel } from '../config.ts';

// Use-cases load when a command runs, so `codrail --help` starts fast (SPEC 14).
const loadApp = () => import('../app.ts');

export function register(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations and load the bundled city catalogs')
    .action(async (_opts, cmd: Command) => {
      const result = await withApp(cmd, async (app) => ({ database: databaseLabel(app.config), ...(await (await loadApp()).migrate(app)) }), { migrate: false });
      print(
        globals(cmd),
        result,
        `database ${result.database}: ${result.migrations.length} migration(s) applied, ${result.catalogs.length} catalog(s) loaded; up to date`,
      );
    });
}

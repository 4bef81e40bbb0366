// `codrail console` (issue 24; SPEC 12): the support console, an ink terminal app beside a running
// `serve` on the same database (WAL). It signs a user in (`--email`, the password asked without
// echo) or runs as the local operator (`--local`). ink and React load only when it starts.
import type { Command } from 'commander';
import { AppError } from '../errors.ts';
import { withApp } from './output.ts';
import { prepareInteractiveTerminal, terminalPreferences } from '../config.ts';

/** Reads a line from the terminal without echoing it (the password). */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    if (!input.isTTY) return reject(new AppError('invalid_input', 'The console needs a terminal to ask the password', [{ field: 'email', message: 'run it in a terminal, or use --local' }]));
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.resume();
    let text = '';
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stderr.write('\n');
          return resolve(text);
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') text = text.slice(0, -1);
        else text += ch;
      }
    };
    input.on('data', onData);
  });
}

export function register(program: Command): void {
  program
    .command('console')
    .description('the support console: orders, the city review queue, an order’s detail and timeline (keyboard, live)')
    .option('--local', 'run as the local operator: every account (whoever can read the database file)')
    .option('--email <email>', 'sign in as this account user (the password is asked); its role decides what it sees')
    .option('--lang <es|en>', 'language (default: the locale)')
    .action(async (opts: { local?: boolean; email?: string; lang?: string }, cmd: Command) => {
      if (!opts.local && !opts.email) throw new AppError('invalid_input', 'Say who is at the keyboard: --email EMAIL, or --local for the local operator', [{ field: 'email', message: 'required without --local' }]);
      if (opts.lang !== undefined && opts.lang !== 'es' && opts.lang !== 'en') throw new AppError('invalid_input', '--lang is es or en', [{ field: 'lang', message: 'es or en' }]);
      prepareInteractiveTerminal(process.stdout.isTTY === true);
      // The terminal app's modules load while the database opens (start-up under a second, issue 24).
      const ui = Promise.all([
        import('../console/console-session.ts'),
        import('../console/console-text.ts'),
        import('ink'),
        import('react'),
        import('../console/components/console-app.tsx'),
      ]);
      await withApp(cmd, async (app) => {
        // React is CommonJS: its exports are the module's default (a bundle has no other view of them).
        const [{ localSession, userSession }, { CONSOLE_TEXT, consoleLang }, { render }, { default: React }, { ConsoleApp }] = await ui;
        const session = opts.local ? localSession(app) : await userSession(app, opts.email!, await askHidden(`password for ${opts.email}: `));
        const terminal = terminalPreferences();
        const text = CONSOLE_TEXT[consoleLang(opts.lang, terminal.locale)];
        const color = !terminal.noColor;
        const instance = render(React.createElement(ConsoleApp, { session, text, color }), { maxFps: 60 });
        await instance.waitUntilExit();
      });
    });
}

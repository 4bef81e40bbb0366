// jose (46 modules) loads on the first token signed or verified, not with the app: the CLI and the
// console open the app without ever touching OAuth, and their start-up pays for every module.
let loading: Promise<typeof import('jose')> | undefined;

export const jose = (): Promise<typeof import('jose')> => (loading ??= import('jose'));

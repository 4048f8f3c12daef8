/**
 * The operator commands of `enterprise-search <command>` (besides serving, `--help`,
 * `--version` and `connector run <id>`, see src/cli.ts): their arguments parsed with
 * node:util `parseArgs` (built in, strict about unknown options and missing values, so no
 * parser package is needed), and the usage lines `--help` prints for them.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ROLES } from './accounts/state.ts';
import type { Role } from './accounts/principal.ts';

export type AdminCommand =
  | { name: 'backup'; dir: string }
  | { name: 'restore'; dir: string }
  | { name: 'stats' }
  | { name: 'reindex' }
  | { name: 'account-create'; email: string; displayName?: string; roles: Role[] }
  | { name: 'account-password'; email: string }
  | { name: 'key-create'; email: string; expiresAt?: string }
  | { name: 'service-account-create'; serviceName: string; expiresAt?: string };

/** One line per command for `--help`. */
export const COMMAND_USAGE = [
  'backup DIR                          online snapshot of DATA_DIR into DIR (new or empty)',
  'restore DIR                         restore the backup in DIR into DATA_DIR (new or empty)',
  'stats                               documents, queue, index and disk figures as JSON',
  'reindex                             rebuild the index from the stored documents',
  'account create EMAIL [--name NAME] [--role administrator|developer]...',
  'account password EMAIL              set the password (read from stdin; prompted on a TTY)',
  'key create EMAIL [--expires-at ISO] issue a personal key (printed once)',
  'service-account create NAME [--expires-at ISO]   create a service account (key printed once)',
];

/** A command line the operator got wrong; the message says how. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const COMMANDS: Record<string, (rest: string[]) => AdminCommand> = {
  backup: (rest) => ({ name: 'backup', dir: one(rest, 'backup DIR') }),
  restore: (rest) => ({ name: 'restore', dir: one(rest, 'restore DIR') }),
  stats: (rest) => (none(rest, 'stats'), { name: 'stats' }),
  reindex: (rest) => (none(rest, 'reindex'), { name: 'reindex' }),
  'account create': (rest) => {
    const { values, positionals } = parse(rest, { name: { type: 'string' }, role: { type: 'string', multiple: true } });
    const roles = (values.role as string[] | undefined) ?? [];
    for (const r of roles)
      if (!(ROLES as readonly string[]).includes(r)) throw new UsageError(`unknown role ${JSON.stringify(r)}`);
    return {
      name: 'account-create',
      email: one(positionals, 'account create EMAIL'),
      displayName: values.name as string | undefined,
      roles: roles as Role[],
    };
  },
  'account password': (rest) => ({ name: 'account-password', email: one(rest, 'account password EMAIL') }),
  'key create': (rest) => {
    const { values, positionals } = parse(rest, { 'expires-at': { type: 'string' } });
    return {
      name: 'key-create',
      email: one(positionals, 'key create EMAIL'),
      expiresAt: values['expires-at'] as string | undefined,
    };
  },
  'service-account create': (rest) => {
    const { values, positionals } = parse(rest, { 'expires-at': { type: 'string' } });
    return {
      name: 'service-account-create',
      serviceName: one(positionals, 'service-account create NAME'),
      expiresAt: values['expires-at'] as string | undefined,
    };
  },
};

/** The operator command of `args`, undefined when `args` names none; UsageError when it is malformed. */
export function parseAdminCommand(args: readonly string[]): AdminCommand | undefined {
  const two = COMMANDS[`${args[0]} ${args[1]}`];
  if (two) return two(args.slice(2));
  const single = COMMANDS[args[0] ?? ''];
  return single ? single(args.slice(1)) : undefined;
}

function parse(
  args: string[],
  options: ParseArgsConfig['options'],
): { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] } {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true }) as {
      values: Record<string, string | string[] | boolean | undefined>;
      positionals: string[];
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function one(args: readonly string[], usage: string): string {
  if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError(`usage: ${usage}`);
  return args[0];
}

function none(args: readonly string[], usage: string): void {
  if (args.length !== 0) throw new UsageError(`usage: ${usage} (no arguments)`);
}

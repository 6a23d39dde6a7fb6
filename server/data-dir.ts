import os from 'node:os';
import path from 'node:path';

/** The bits of the environment the default depends on (tests pass their own). */
export interface DataDirHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

const currentHost = (): DataDirHost => ({
  platform: process.platform,
  env: process.env,
  home: os.homedir(),
});

/**
 * The OS's per-user application-data folder for Hearth: the one data
 * directory the CLI and the desktop app share, so both open the same
 * organization. Kept free of side effects so main/ can import it without
 * starting anything.
 */
export function defaultDataDir(host: DataDirHost = currentHost()): string {
  const { platform, env, home } = host;
  // The host's own path rules, so a Windows path is built right on any machine.
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'win32')
    return p.join(env.APPDATA || p.join(home, 'AppData', 'Roaming'), 'Hearth');
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support', 'Hearth');
  // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(home, '.local', 'share'), 'hearth');
}

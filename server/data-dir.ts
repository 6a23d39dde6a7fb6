import os from 'node:os';
import path from 'node:path';

/** The OS's per-user application-data folder for Hearth. */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (process.platform === 'win32') {
    return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Hearth');
  }
  if (process.platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Hearth');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'hearth');
}

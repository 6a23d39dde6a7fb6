import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the desktop shell remembers between runs (not server settings). */
export interface UiState {
  /** The notice that closing the window keeps the server running was shown. */
  closeNoticeShown: boolean;
}

export const UI_STATE_FILE = 'desktop-ui.json';

export function readUiState(dataDir: string): UiState {
  const file = path.join(dataDir, UI_STATE_FILE);
  try {
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<UiState>;
      return { closeNoticeShown: parsed.closeNoticeShown === true };
    }
  } catch {
    // A damaged file: show the notice again rather than fail.
  }
  return { closeNoticeShown: false };
}

export function writeUiState(dataDir: string, state: UiState): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, UI_STATE_FILE);
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * The display settings that change the whole page (`color_scheme`,
 * `web_font_size_px`, `emojiset`), applied to <html>: `data-color-scheme`
 * (always set, "light" or "dark": the chat's stylesheets pick their colours
 * by it), the root font size, and `data-emojiset="text"`. The scheme chosen
 * is remembered in this browser until log-out, so the next page load
 * starts in it before register answers; `boot.ts` applies it first.
 */
import { ColorScheme, effectiveScheme, rootFontSizePx } from './settings-model.js';

const SCHEME_KEY = 'hearth.colorScheme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function rememberedScheme(): unknown {
  try {
    const stored = Number(localStorage.getItem(SCHEME_KEY));
    return Object.values(ColorScheme).includes(stored as 1) ? stored : ColorScheme.automatic;
  } catch {
    return ColorScheme.automatic;
  }
}

const systemDark = () => typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;

function applyScheme(setting: unknown): void {
  document.documentElement.dataset.colorScheme = effectiveScheme(setting, systemDark());
}

/**
 * The page's first scheme (the remembered one), and following the system's
 * while the setting is automatic. Called once, by the page's first script.
 */
export function startColorScheme(): void {
  applyScheme(rememberedScheme());
  if (typeof matchMedia === 'function') {
    matchMedia(DARK_QUERY).addEventListener('change', () => applyScheme(rememberedScheme()));
  }
}

/** Applies the user's display settings to the page (on register and on every change). */
export function applyAppearance(settings: Record<string, unknown>): void {
  const scheme = settings.color_scheme ?? ColorScheme.automatic;
  try {
    // Only a choice is kept: automatic, the default, leaves the browser's storage alone.
    if (scheme === ColorScheme.automatic) localStorage.removeItem(SCHEME_KEY);
    else localStorage.setItem(SCHEME_KEY, String(scheme));
  } catch {
    // Storage refused (a private window): this page still follows the setting.
  }
  applyScheme(scheme);
  const root = document.documentElement;
  root.style.fontSize = `${rootFontSizePx(settings.web_font_size_px)}px`;
  if (settings.emojiset === 'text') root.dataset.emojiset = 'text';
  else delete root.dataset.emojiset;
}

/**
 * Back to the browser's own look, the choice forgotten (log-out: the log-in
 * page is nobody's, and a log-out leaves nothing of the person in the browser).
 */
export function resetAppearance(): void {
  try {
    localStorage.removeItem(SCHEME_KEY);
  } catch {
    // Nothing was stored.
  }
  applyScheme(ColorScheme.automatic);
  const root = document.documentElement;
  root.style.fontSize = '';
  delete root.dataset.emojiset;
}

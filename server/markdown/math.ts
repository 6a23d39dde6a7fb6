import { createRequire } from 'node:module';
import type Katex from 'katex';
import { escapeHtml } from '../shared/html.js';
import { escapeTextStrict } from './escape.js';

const require = createRequire(import.meta.url);
let katex: typeof Katex | undefined;

/**
 * KaTeX is pinned to the exact release Zulip's Markdown fixtures were rendered
 * with (package.json): its HTML changes between patch releases (0.16.47
 * renders two of the fixtures' nine formulas differently), and messages must
 * match Zulip's byte for byte. Move the pin with the fixtures.
 *
 * KaTeX renders untrusted input safely as long as `trust` stays off (no
 * \href, \url or raw HTML commands get through), and it escapes the TeX
 * source it embeds in the MathML annotation.
 */
function render(tex: string, displayMode: boolean): string | null {
  // Loaded at the first formula: most starts render none.
  katex ??= require('katex') as typeof Katex;
  try {
    return katex.renderToString(tex, {
      displayMode,
      throwOnError: true,
      trust: false,
      output: 'htmlAndMathml',
    });
  } catch {
    return null;
  }
}

/** `$$…$$` inside a paragraph. */
export function renderInlineTex(body: string): string {
  return render(body, false) ?? `<span class="tex-error">$$${escapeTextStrict(body)}$$</span>`;
}

/** ```math blocks; Zulip puts the display span in its own paragraph. */
export function renderDisplayTex(body: string): string {
  const html = render(body, true) ?? `<span class="tex-error">${escapeHtml(body)}</span>`;
  return `<p>${html}</p>`;
}

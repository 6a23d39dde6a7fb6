import { parseTemplate } from 'url-template';

/**
 * What Zulip's web app adds to a message's code blocks (rendered_markdown.ts):
 * a button that copies the code, and for a block whose language has code
 * playgrounds in the organization (register's `realm_playgrounds`), a
 * "View in …" link per playground, its URL the playground's RFC 6570
 * template expanded with `{code}`.
 */

/** One of the organization's code playgrounds (`realm_playgrounds`). */
export interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

/** The organization's playgrounds from the realm settings (register and `realm_playgrounds` events). */
export function playgroundsOf(settings: Record<string, unknown>): readonly Playground[] {
  const list = settings.realm_playgrounds;
  // The same empty list each time, so memoised rows compare equal.
  return Array.isArray(list) ? (list as Playground[]) : NO_PLAYGROUNDS;
}
const NO_PLAYGROUNDS: readonly Playground[] = Object.freeze([]);

/** Playgrounds for a block's language: its `data-code-language` equals `pygments_language`, as in Zulip. */
export function playgroundsFor(language: string, playgrounds: readonly Playground[]): Playground[] {
  if (language === '') return [];
  return playgrounds.filter((p) => p.pygments_language === language);
}

/** The playground's link for this code, or null when the template makes no web address. */
export function playgroundUrl(template: string, code: string): string | null {
  try {
    const url = parseTemplate(template).expand({ code });
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

const COPY_ICON = 'M9 9h10v12H9zM5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1';
const OPEN_ICON = 'M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5';

function icon(path: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '15');
  svg.setAttribute('height', '15');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('icon');
  const line = document.createElementNS(ns, 'path');
  line.setAttribute('d', path);
  svg.append(line);
  return svg;
}

/** The code as text: what the copy button copies and the playground receives. */
export function codeOf(block: Element): string {
  return block.querySelector('code')?.textContent ?? block.querySelector('pre')?.textContent ?? '';
}

/**
 * Adds the buttons to every code block under `root` (again after the
 * playgrounds change: the old buttons go first). Only blocks get work: a
 * message without one costs a single query.
 */
export function addCodeButtons(root: HTMLElement, playgrounds: readonly Playground[]): void {
  const blocks = root.querySelectorAll<HTMLElement>('.codehilite');
  for (const block of Array.from(blocks)) {
    block.querySelector(':scope > .code-buttons')?.remove();
    const buttons = document.createElement('div');
    buttons.className = 'code-buttons';
    const language = block.dataset.codeLanguage ?? '';
    if (language !== '') {
      const label = document.createElement('span');
      label.className = 'code-language';
      label.textContent = language;
      buttons.append(label);
    }
    for (const playground of playgroundsFor(language, playgrounds)) {
      const url = playgroundUrl(playground.url_template, codeOf(block));
      if (url === null) continue;
      const link = document.createElement('a');
      link.className = 'code-button code-playground';
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.title = `View in ${playground.name}`;
      link.setAttribute('aria-label', `View in ${playground.name}`);
      link.append(icon(OPEN_ICON));
      buttons.append(link);
    }
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'code-button copy-code';
    copy.title = 'Copy code';
    copy.setAttribute('aria-label', 'Copy code');
    copy.append(icon(COPY_ICON));
    buttons.append(copy);
    block.classList.add('has-code-buttons');
    block.prepend(buttons);
  }
}

/** Copies the block's code; the button says so for a moment. */
export function copyCodeFrom(button: HTMLElement, copy: (text: string) => Promise<void>): void {
  const block = button.closest('.codehilite');
  if (!block) return;
  const container = button.parentElement;
  const say = (text: string) => {
    container?.querySelector('.code-copied')?.remove();
    const note = document.createElement('span');
    note.className = 'code-copied';
    note.setAttribute('role', 'status');
    note.textContent = text;
    button.before(note);
    setTimeout(() => note.remove(), 1500);
  };
  copy(codeOf(block)).then(
    () => say('Copied!'),
    () => say('Could not copy'),
  );
}

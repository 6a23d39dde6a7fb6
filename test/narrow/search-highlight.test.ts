import { describe, expect, it } from 'vitest';
import {
  highlightHtml,
  mergeSearchQueries,
  parseSearchOperand,
} from '../../server/narrow/search-highlight.js';

/*
 * ASCII messages are highlighted with a pattern that finds only the
 * matching words (search-highlight.ts); anything else takes the general
 * word-by-word scan. Both must mark exactly the same words.
 */

const hl = (html: string, ...operands: string[]) =>
  highlightHtml(html, mergeSearchQueries(operands.map(parseSearchOperand))!);

/** The general scan's answer for ASCII html: a trailing non-ASCII word forces it. */
const general = (html: string, ...operands: string[]) => hl(`${html} é`, ...operands).slice(0, -2);

const CASES: Array<[string, string[]]> = [
  ['<p>ship the release today</p>', ['release']],
  ['<p>Release RELEASE released prerelease release2</p>', ['release']],
  ['<p>Release RELEASE released prerelease release2</p>', ['release ']],
  ['<p>rel released Relay</p>', ['rel']],
  ['<p><a href="https://release.example/release">the release</a></p>', ['release']],
  ['<p>&amp;release &release; r&amp;elease release&gt;x</p>', ['release']],
  ['<p>deploy the build, then review</p>', ['deploy review']],
  ['<p>deploy the build</p>', ['"deploy the"', 'build']],
  ['<p>v2 2024 x2y</p>', ['2024']],
  ['<p>nothing here</p>', ['absent']],
  ['<p>foo-bar foo bar</p>', ['foo-bar']],
  ['<span class="release">release</span>', ['release']],
  ['a<b', ['b']],
  ['', ['release']],
];

describe('highlighting ASCII html', () => {
  it.each(CASES)('%s with %j marks what the general scan marks', (html, operands) => {
    expect(hl(html, ...operands)).toBe(general(html, ...operands));
  });

  it('marks whole words and the last word as a prefix, in any case', () => {
    expect(hl('<p>Release released prerelease</p>', 'release')).toBe(
      '<p><span class="highlight">Release</span> <span class="highlight">released</span> prerelease</p>',
    );
    expect(hl('<p>Release released</p>', 'release ')).toBe(
      '<p><span class="highlight">Release</span> released</p>',
    );
  });

  it('leaves tags, attributes and character references alone', () => {
    expect(hl('<a title="release">&amp;release</a>', 'release')).toBe(
      '<a title="release">&amp;<span class="highlight">release</span></a>',
    );
  });

  it('still folds diacritics in html that is not ASCII', () => {
    expect(hl('<p>Réléase release</p>', 'release')).toBe(
      '<p><span class="highlight">Réléase</span> <span class="highlight">release</span></p>',
    );
    expect(hl('<p>café cafe</p>', 'café')).toBe(
      '<p><span class="highlight">café</span> <span class="highlight">cafe</span></p>',
    );
  });
});

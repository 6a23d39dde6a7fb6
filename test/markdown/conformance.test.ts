import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../server/markdown/markdown.js';
import type { MarkdownCase, MarkdownFixture } from '../fixtures/types.js';
import { makeLookups } from './lookups.js';

/**
 * Runs every case of Zulip's own Markdown fixtures (reduced to input and
 * expected HTML in test/fixtures/markdown-cases.json by `npm run
 * fixtures:update`) and compares our HTML byte for byte with Zulip's server
 * output (not the web client's variant).
 */

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/markdown-cases.json', import.meta.url), 'utf8'),
) as MarkdownFixture;

/** The fixtures were generated on Zulip's test server. */
const OPTIONS = { realmUrl: 'http://zulip.testserver' };

/**
 * Cases we knowingly render differently, each with the reason. Empty today:
 * every regular and linkify case matches. Add an entry (name → reason) if a
 * deliberate divergence is ever introduced; the test fails on any failure
 * that is not listed here.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

describe('Zulip Markdown fixtures', () => {
  const lookups = makeLookups();
  const failures: string[] = [];
  let passed = 0;
  let total = 0;

  const render = (c: MarkdownCase) =>
    renderMarkdown(c.input, lookups, { ...OPTIONS, translateEmoticons: !!c.translateEmoticons })
      .html;
  for (const c of [...fixtures.regular, ...fixtures.linkify]) {
    total++;
    if (render(c) === c.expected) passed++;
    else failures.push(c.name);
  }

  it('matches at least 90% of the cases byte for byte', () => {
    console.log(
      `Markdown conformance: ${passed}/${total} cases match (${((100 * passed) / total).toFixed(1)}%)` +
        (failures.length ? `; differing: ${failures.join(', ')}` : ''),
    );
    expect(total).toBeGreaterThan(200);
    expect(passed / total).toBeGreaterThanOrEqual(0.9);
  });

  it('lists every differing case with a reason', () => {
    expect(failures.filter((name) => !(name in KNOWN_DIFFERENCES))).toEqual([]);
  });

  for (const c of fixtures.regular) {
    it.skipIf(c.name in KNOWN_DIFFERENCES)(`regular: ${c.name}`, () => {
      expect(render(c)).toBe(c.expected);
    });
  }
});

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../server/markdown/markdown.js';
import { makeLookups } from './lookups.js';

/**
 * Runs every case of Zulip's own Markdown fixtures and compares our HTML byte
 * for byte with Zulip's `expected_output` (not `marked_expected_output`,
 * which is the web client's variant).
 */

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
}

interface Fixtures {
  regular_tests: RegularCase[];
  linkify_tests: Array<[string, string, string]>;
}

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = JSON.parse(
  readFileSync(resolve(here, '../../../shared/reference/markdown_test_cases.json'), 'utf8'),
) as Fixtures;

/** The fixtures were generated on Zulip's test server. */
const OPTIONS = { realmUrl: 'http://zulip.testserver' };

/**
 * Cases we knowingly render differently, each with the reason. Empty today:
 * every regular and linkify case matches. Add an entry (name → reason) if a
 * deliberate divergence is ever introduced; the test fails on any failure
 * that is not listed here.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

function linkifyExpected([_input, template, url]: [string, string, string]): string {
  if (!template.includes('%s')) return template;
  let href = `http://${url}`;
  if (url.startsWith('http')) href = url;
  else if (url.includes('@')) href = `mailto:${url}`;
  return template.replace('%s', `<a href="${href}">${url}</a>`);
}

describe('Zulip Markdown fixtures', () => {
  const lookups = makeLookups();
  const failures: string[] = [];
  let passed = 0;
  let total = 0;

  for (const c of fixtures.regular_tests) {
    total++;
    const html = renderMarkdown(c.input, lookups, {
      ...OPTIONS,
      translateEmoticons: !!c.translate_emoticons,
    }).html;
    if (html === c.expected_output) passed++;
    else failures.push(c.name);
  }
  for (const t of fixtures.linkify_tests) {
    total++;
    const html = renderMarkdown(t[0], lookups, OPTIONS).html;
    if (html === linkifyExpected(t)) passed++;
    else failures.push(`linkify:${t[0]}`);
  }

  it('matches at least 90% of the cases byte for byte', () => {
    console.log(
      `Markdown conformance: ${passed}/${total} cases match (${((100 * passed) / total).toFixed(1)}%)` +
        (failures.length ? `; differing: ${failures.join(', ')}` : ''),
    );
    expect(total).toBe(fixtures.regular_tests.length + fixtures.linkify_tests.length);
    expect(passed / total).toBeGreaterThanOrEqual(0.9);
  });

  it('lists every differing case with a reason', () => {
    expect(failures.filter((name) => !(name in KNOWN_DIFFERENCES))).toEqual([]);
  });

  for (const c of fixtures.regular_tests) {
    it.skipIf(c.name in KNOWN_DIFFERENCES)(`regular: ${c.name}`, () => {
      const html = renderMarkdown(c.input, lookups, {
        ...OPTIONS,
        translateEmoticons: !!c.translate_emoticons,
      }).html;
      expect(html).toBe(c.expected_output);
    });
  }
});

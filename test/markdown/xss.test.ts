import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderTopicLinks } from '../../server/markdown/markdown.js';
import { makeLookups } from './lookups.js';

/** Strings that would run script if they reached the HTML unescaped. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '" onmouseover="alert(1)',
  "' onfocus='alert(1)' autofocus='",
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

/** Ways of smuggling a script URL into a link. */
const URL_PAYLOADS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\u0000script:alert(1)',
  'javascript&colon;alert(1)',
  'javascript&#58;alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
];

/** Everything the renderer may legitimately emit, including KaTeX's MathML. */
const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'div',
  'span',
  'a',
  'img',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'time',
  'math',
  'semantics',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'msub',
  'msup',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mspace',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'mtable',
  'mtr',
  'mtd',
  'annotation',
  'svg',
  'path',
  'line',
]);

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function assertSafe(html: string, context: string): void {
  const where = `${context}\n${html}`;
  expect(html, where).not.toMatch(/<script/i);
  for (const m of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const tag = m[1]!.toLowerCase();
    expect(ALLOWED_TAGS.has(tag), `unexpected <${tag}> in ${where}`).toBe(true);
    const attrs = m[2] ?? '';
    // Every attribute must be a well-formed name="value" pair, none of them an event handler.
    const rest = attrs.replace(/\s+[a-zA-Z_:][\w:.-]*="[^"]*"/g, '').trim();
    expect(rest.replace(/\/$/, ''), `malformed attributes in ${where}`).toBe('');
    for (const a of attrs.matchAll(/\s([a-zA-Z_:][\w:.-]*)="([^"]*)"/g)) {
      const name = a[1]!.toLowerCase();
      expect(name.startsWith('on'), `event handler ${name} in ${where}`).toBe(false);
      if (name === 'href' || name === 'src' || name.startsWith('data-src')) {
        const value = decodeEntities(a[2]!)
          .replace(/[\u0000-\u0020]/g, '')
          .toLowerCase();
        expect(value, `unsafe URL in ${where}`).not.toMatch(/^(?:javascript|vbscript|data):/);
      }
    }
  }
}

function hostileLookups(payload: string) {
  return makeLookups({
    users: [
      { id: 1, fullName: payload },
      { id: 2, fullName: 'Normal' },
    ],
    groups: [{ id: 1, name: payload }],
    channels: [{ id: 1, name: payload }],
    emoji: [
      { id: '1', name: 'evil', sourceUrl: `x" onerror="alert(1)` },
      { id: '2', name: 'evil2', sourceUrl: '/e.gif', stillUrl: `"><script>alert(1)</script>` },
    ],
    linkifiers: [
      { id: 1, pattern: 'BUG-(?P<id>\\d+)', urlTemplate: 'javascript:alert({id})' },
      { id: 2, pattern: 'T-(?P<id>[^ ]+)', urlTemplate: 'https://tracker.example/{id}' },
    ],
  });
}

function contentsFor(p: string): string[] {
  return [
    p,
    `**${p}**`,
    `*${p}*`,
    `~~${p}~~`,
    `\`${p}\``,
    `\`\`\`\n${p}\n\`\`\``,
    `\`\`\`python\n${p}\n\`\`\``,
    `\`\`\`${p}\ncode\n\`\`\``,
    `    ${p}`,
    `> ${p}`,
    `\`\`\`quote\n${p}\n\`\`\``,
    `\`\`\`spoiler ${p}\n${p}\n\`\`\``,
    `$$${p}$$`,
    `\`\`\`math\n${p}\n\`\`\``,
    `<time:${p}>`,
    `# ${p}`,
    `* ${p}`,
    `a | b\n--- | ---\n${p} | ${p}`,
    `[${p}](https://example.com)`,
    `[x](${p})`,
    `[x](https://example.com/${p})`,
    `https://example.com/${p}`,
    `:${p}:`,
    `@**${p}**`,
    `@_**${p}**`,
    `@**${p}|1**`,
    `@*${p}*`,
    `#**${p}**`,
    `#**${p}>${p}**`,
    `#**${p}>${p}@5**`,
    `T-${p} BUG-12`,
    `:evil: :evil2:`,
  ];
}

describe('XSS', () => {
  it('escapes HTML payloads in every construct, name and lookup', () => {
    for (const p of PAYLOADS) {
      const lookups = hostileLookups(p);
      for (const content of contentsFor(p)) {
        const r = renderMarkdown(content, lookups, {
          realmUrl: 'https://chat.example.com',
          translateEmoticons: true,
        });
        assertSafe(r.html, JSON.stringify(content));
      }
    }
  });

  it('never emits script URLs from links or autolinks', () => {
    const lookups = hostileLookups('x');
    for (const u of URL_PAYLOADS) {
      for (const content of [`[click](${u})`, `[click](<${u}>)`, u, `see ${u}`, `<${u}>`]) {
        const html = renderMarkdown(content, lookups, {
          realmUrl: 'https://chat.example.com',
        }).html;
        assertSafe(html, JSON.stringify(content));
      }
    }
  });

  it('renders payload user names as text inside the mention', () => {
    const lookups = hostileLookups('<img src=x onerror=alert(1)>');
    const html = renderMarkdown('@**<img src=x onerror=alert(1)>**', lookups, {
      realmUrl: 'https://chat.example.com',
    }).html;
    expect(html).toBe(
      '<p><span class="user-mention" data-user-id="1">@&lt;img src=x onerror=alert(1)&gt;</span></p>',
    );
  });

  it('keeps topic links free of script URLs', () => {
    for (const p of [...PAYLOADS, ...URL_PAYLOADS]) {
      for (const topic of [p, `BUG-1 ${p}`, `T-${p}`, `https://x.example/${p}`]) {
        for (const link of renderTopicLinks(topic, hostileLookups(p))) {
          expect(link.url.replace(/[\u0000-\u0020]/g, '').toLowerCase()).not.toMatch(
            /^(?:javascript|vbscript|data):/,
          );
        }
      }
    }
  });
});

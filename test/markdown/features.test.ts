import { describe, expect, it } from 'vitest';
import {
  type MarkdownOptions,
  renderMarkdown,
  renderTopicLinks,
} from '../../server/markdown/markdown.js';
import { parseTime } from '../../server/markdown/time.js';
import { makeLookups, ZULIP_TEST_REALM } from './lookups.js';

const OPTIONS: MarkdownOptions = { realmUrl: 'https://chat.example.com' };
const lookups = makeLookups({
  ...ZULIP_TEST_REALM,
  users: [
    ...(ZULIP_TEST_REALM.users ?? []),
    { id: 20, fullName: 'Twin' },
    { id: 21, fullName: 'twin' },
    { id: 22, fullName: 'Gone Person', isActive: false },
  ],
  linkifiers: [
    {
      id: 1,
      pattern: '#(?P<id>[0-9]+)',
      urlTemplate: 'https://github.com/zulip/zulip/issues/{id}',
    },
    { id: 2, pattern: 'RT-(?P<ticket>\\d+)', urlTemplate: 'javascript:alert({ticket})' },
  ],
  emoji: [
    { id: '1', name: 'green_tick', sourceUrl: '/user_avatars/2/emoji/images/1.png' },
    {
      id: '2',
      name: 'party_parrot',
      sourceUrl: '/user_avatars/2/emoji/images/2.gif',
      stillUrl: '/user_avatars/2/emoji/images/still/2.png',
    },
    { id: '3', name: 'retired', sourceUrl: '/x.png', deactivated: true },
  ],
});

function render(content: string, options: Partial<MarkdownOptions> = {}) {
  return renderMarkdown(content, lookups, { ...OPTIONS, ...options });
}
const html = (content: string, options: Partial<MarkdownOptions> = {}) =>
  render(content, options).html;

describe('paragraphs and inline formatting', () => {
  it('turns single newlines into <br>', () => {
    expect(html('a\nb\n\nc')).toBe('<p>a<br>\nb</p>\n<p>c</p>');
  });
  it('renders emphasis, strong, strikethrough and nesting', () => {
    expect(html('*a* **b** ***c*** ~~d~~ **x *y* z**')).toBe(
      '<p><em>a</em> <strong>b</strong> <strong><em>c</em></strong> <del>d</del> <strong>x <em>y</em> z</strong></p>',
    );
  });
  it('ignores underscores for emphasis', () => {
    expect(html('_a_ __b__ snake_case_name')).toBe('<p>_a_ __b__ snake_case_name</p>');
  });
  it('renders inline code literally', () => {
    expect(html('`**not bold** <b>`')).toBe('<p><code>**not bold** &lt;b&gt;</code></p>');
  });
  it('supports backslash escapes', () => {
    expect(html('\\*not em\\*')).toBe('<p>*not em*</p>');
  });
  it('detects /me messages', () => {
    expect(render('/me waves').isMeMessage).toBe(true);
    expect(render('me /me').isMeMessage).toBe(false);
  });
});

describe('code blocks', () => {
  it('highlights fenced code with Pygments classes and the language name', () => {
    expect(html('```python\nprint("hi")\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="nb">print</span><span class="p">(</span><span class="s2">&quot;hi&quot;</span><span class="p">)</span>\n</code></pre></div>',
    );
  });
  it('accepts ~~~ fences and leaves unknown languages unhighlighted', () => {
    expect(html('~~~ foolang\n<x>\n~~~')).toBe(
      '<div class="codehilite" data-code-language="foolang"><pre><span></span><code>&lt;x&gt;\n</code></pre></div>',
    );
  });
  it('renders four-space indented code', () => {
    expect(html('    a < b')).toBe(
      '<div class="codehilite"><pre><span></span><code>a &lt; b\n</code></pre></div>',
    );
  });
  it('runs an unclosed fence to the end of the message', () => {
    expect(html('```\nopen')).toBe(
      '<div class="codehilite"><pre><span></span><code>open\n</code></pre></div>',
    );
  });
});

describe('quotes and spoilers', () => {
  it('renders > quotes and ```quote blocks', () => {
    expect(html('> quoted\n\n```quote\nalso\n```')).toBe(
      '<blockquote>\n<p>quoted</p>\n</blockquote>\n<blockquote>\n<p>also</p>\n</blockquote>',
    );
  });
  it('renders spoilers with a Markdown header', () => {
    expect(html('```spoiler **Title**\nhidden\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p><strong>Title</strong></p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>',
    );
  });
});

describe('lists, headings and tables', () => {
  it('nests lists with two-space indents', () => {
    expect(html('* a\n  * b\n* c')).toBe(
      '<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ul>',
    );
  });
  it('keeps ordered list start numbers', () => {
    expect(html('3. x\n4. y')).toBe('<ol start="3">\n<li>x</li>\n<li>y</li>\n</ol>');
  });
  it('renders headings only with a space after #', () => {
    expect(html('## Title\n#tag')).toBe('<h2>Title</h2>\n<p>#tag</p>');
  });
  it('renders tables with alignment', () => {
    expect(html('a | b\n:-- | --:\n1 | 2')).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align: left;">a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style="text-align: left;">1</td>\n<td style="text-align: right;">2</td>\n</tr>\n</tbody>\n</table>',
    );
  });
});

describe('links', () => {
  it('renders Markdown links, autolinks and e-mail addresses', () => {
    const r = render('[site](https://example.com) www.example.org/x a@b.com');
    expect(r.html).toBe(
      '<p><a href="https://example.com">site</a> <a href="http://www.example.org/x">www.example.org/x</a> <a href="mailto:a@b.com">a@b.com</a></p>',
    );
    expect(r.hasLink).toBe(true);
  });
  it('links a URL written in angle brackets', () => {
    expect(html('<https://example.com>')).toBe(
      '<p>&lt;<a href="https://example.com">https://example.com</a>&gt;</p>',
    );
  });
  it('does not support reference links', () => {
    expect(html('[a][r]\n\n[r]: https://x.com')).toBe(
      '<p>[a][r]</p>\n<p>[r]: <a href="https://x.com">https://x.com</a></p>',
    );
  });
  it('makes links into the organisation relative', () => {
    expect(html('https://chat.example.com/#narrow/channel/1-Denmark')).toBe(
      '<p><a href="#narrow/channel/1-Denmark">https://chat.example.com/#narrow/channel/1-Denmark</a></p>',
    );
  });
  it('flags uploads as attachments and previews images', () => {
    const r = render('[f.pdf](/user_uploads/1/ab/f.pdf)');
    expect(r.hasAttachment).toBe(true);
    expect(r.hasImage).toBe(false);
    const img = render('https://example.com/cat.png');
    expect(img.hasImage).toBe(true);
    expect(img.html).toContain('class="message_inline_image"');
  });
  it('can turn image previews off', () => {
    expect(html('https://example.com/cat.png', { inlineImagePreviews: false })).toBe(
      '<p><a href="https://example.com/cat.png">https://example.com/cat.png</a></p>',
    );
  });
  it('applies linkifiers but never emits unsafe linkifier URLs', () => {
    expect(html('see #123 and RT-5')).toBe(
      '<p>see <a href="https://github.com/zulip/zulip/issues/123">#123</a> and RT-5</p>',
    );
  });
  it('reports topic links', () => {
    expect(renderTopicLinks('fix #42 per https://example.com/a.', lookups)).toEqual([
      { text: '#42', url: 'https://github.com/zulip/zulip/issues/42' },
      { text: 'https://example.com/a', url: 'https://example.com/a' },
    ]);
  });
});

describe('mentions', () => {
  it('renders user mentions by name and by id and reports them', () => {
    const r = render('@**King Hamlet** @**Iago|8** @**iago**');
    expect(r.html).toBe(
      '<p><span class="user-mention" data-user-id="10">@King Hamlet</span> <span class="user-mention" data-user-id="8">@Iago</span> <span class="user-mention" data-user-id="8">@Iago</span></p>',
    );
    expect([...r.mentionedUserIds].sort()).toEqual([10, 8].sort());
  });
  it('does not notify for silent mentions', () => {
    const r = render('@_**King Hamlet**');
    expect(r.html).toBe(
      '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>',
    );
    expect(r.mentionedUserIds.size).toBe(0);
  });
  it('needs the |id form for ambiguous names', () => {
    const r = render('@**twin** @**Twin|21**');
    expect(r.html).toBe(
      '<p>@<strong>twin</strong> <span class="user-mention" data-user-id="21">@twin</span></p>',
    );
    expect([...r.mentionedUserIds]).toEqual([21]);
  });
  it('renders but does not notify deactivated users', () => {
    const r = render('@**Gone Person**');
    expect(r.html).toContain('data-user-id="22"');
    expect(r.mentionedUserIds.size).toBe(0);
  });
  it('leaves unknown mentions as bold text', () => {
    const r = render('@**Nobody Here**');
    expect(r.html).toBe('<p>@<strong>Nobody Here</strong></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });
  it('handles wildcard mentions', () => {
    for (const w of ['all', 'everyone', 'channel', 'stream']) {
      const r = render(`@**${w}**`);
      expect(r.streamWildcard).toBe(true);
      expect(r.html).toBe(
        `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`,
      );
    }
    const t = render('@**topic**');
    expect(t.topicWildcard).toBe(true);
    expect(t.streamWildcard).toBe(false);
    expect(t.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    const silent = render('@_**all**');
    expect(silent.streamWildcard).toBe(false);
  });
  it('renders group mentions', () => {
    const r = render('@*support* @_*hamletcharacters*');
    expect(r.html).toBe(
      '<p><span class="user-group-mention" data-user-group-id="2">@support</span> <span class="user-group-mention silent" data-user-group-id="1">hamletcharacters</span></p>',
    );
    expect([...r.mentionedGroupIds]).toEqual([2]);
  });
  it('needs a separator before the @', () => {
    expect(render('mail@**King Hamlet**').mentionedUserIds.size).toBe(0);
  });
});

describe('channel, topic and message links', () => {
  it('links channels', () => {
    expect(html('#**Denmark**')).toBe(
      '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>',
    );
  });
  it('links topics with Zulip hash encoding', () => {
    expect(html('#**Denmark>a b.c**')).toBe(
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/a.20b.2Ec">#Denmark &gt; a b.c</a></p>',
    );
  });
  it('links messages', () => {
    expect(html('#**Denmark>t@42**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/t/near/42">#Denmark &gt; t @ 💬</a></p>',
    );
  });
  it('leaves unknown channels alone', () => {
    expect(html('#**Atlantis**')).toBe('<p>#<strong>Atlantis</strong></p>');
  });
});

describe('emoji', () => {
  it('renders names with Zulip markup', () => {
    expect(html(':octopus:')).toBe(
      '<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
    );
  });
  it('renders Unicode emoji under their Zulip name', () => {
    expect(html('🐙')).toBe(
      '<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
    );
  });
  it('renders custom emoji, using the still image for animated ones', () => {
    expect(html(':green_tick: :party_parrot: :retired:')).toBe(
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"> <img alt=":party_parrot:" class="emoji" data-animated="true" src="/user_avatars/2/emoji/images/still/2.png" title="party parrot"> :retired:</p>',
    );
  });
  it('translates emoticons only when asked', () => {
    expect(html(':) <3')).toBe('<p>:) &lt;3</p>');
    expect(html(':) <3', { translateEmoticons: true })).toContain('emoji-2764');
  });
});

describe('global times', () => {
  it('renders parseable times in UTC', () => {
    expect(html('<time:2024-03-01T10:00:00+02:00>')).toBe(
      '<p><time datetime="2024-03-01T08:00:00Z">2024-03-01T10:00:00+02:00</time></p>',
    );
    expect(html('<time:1700000000>')).toBe(
      '<p><time datetime="2023-11-14T22:13:20Z">1700000000</time></p>',
    );
  });
  it('reports unparseable times', () => {
    expect(html('<time:soon>')).toBe(
      '<p><span class="timestamp-error">Invalid time format: soon</span></p>',
    );
  });
  it('parses loose English dates', () => {
    expect(parseTime('March 3rd 2021 5pm PST')?.toISOString()).toBe('2021-03-04T01:00:00.000Z');
    expect(parseTime('Feb 30 2021')).toBeNull();
  });
});

describe('math', () => {
  it('renders inline and display math with KaTeX', () => {
    expect(html('$$x^2$$')).toMatch(/^<p><span class="katex">/);
    expect(html('```math\nx^2\n```')).toMatch(/^<p><span class="katex-display">/);
  });
  it('shows TeX errors as text', () => {
    expect(html('$$\\foo{$$')).toBe('<p><span class="tex-error">$$\\foo{$$</span></p>');
  });
});

describe('robustness', () => {
  it('survives pathological nesting without overflowing', () => {
    expect(() => render('>'.repeat(10_000))).not.toThrow();
    expect(() => render('```quote\n'.repeat(3_000))).not.toThrow();
    const nested = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i * 2)}* x`).join('\n');
    expect(() => render(nested)).not.toThrow();
  });
  it('treats placeholder-like private-use characters in input as text', () => {
    expect(html('a\uE000\uE100\uE001b')).toBe('<p>a\uFFFD\uE100\uFFFDb</p>');
  });
});

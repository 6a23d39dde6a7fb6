import { describe, expect, it } from 'vitest';
import { type MarkdownLookups, renderMarkdown } from '../../server/markdown/markdown.js';
import { previewOf } from '../../server/shared/uploads.js';
import { makeLookups, ZULIP_TEST_REALM } from '../markdown/lookups.js';

// The renderer's side of uploads, without a server: which links count as
// uploads (the path ids a message may claim) and how image previews look.

const REALM = 'https://chat.example.com';
const IMAGE = '1/ab/abcdefghijklmnopqrstuvwx/Grüße.png';

const lookups: MarkdownLookups = {
  ...makeLookups(ZULIP_TEST_REALM),
  uploadPreview: (pathId) =>
    pathId === IMAGE
      ? previewOf({
          pathId,
          contentType: 'image/png',
          width: 1920,
          height: 1080,
          frames: 1,
          thumbnailNames: ['840x560.webp'],
        })
      : undefined,
};
const render = (content: string) => renderMarkdown(content, lookups, { realmUrl: REALM });
const encoded = `/user_uploads/1/ab/abcdefghijklmnopqrstuvwx/${encodeURIComponent('Grüße.png')}`;

describe('upload links', () => {
  it('collects each upload once, relative or on the realm’s own host, without query', () => {
    const r = render(
      `[a](/user_uploads/1/aa/x/a.txt) [again](/user_uploads/1/aa/x/a.txt?download=1) ` +
        `${REALM}/user_uploads/1/bb/y/b.pdf https://elsewhere.example.com/user_uploads/1/cc/z/c.txt`,
    );
    expect(r.uploadPathIds).toEqual(['1/aa/x/a.txt', '1/bb/y/b.pdf']);
    expect(r.hasAttachment).toBe(true);
  });

  it('decodes percent-encoded names, as path ids are stored', () => {
    expect(render(`[x](${encoded})`).uploadPathIds).toEqual([IMAGE]);
  });

  it('counts links in quotes but does not preview them', () => {
    const r = render(`> [Grüße.png](${encoded})`);
    expect(r.uploadPathIds).toEqual([IMAGE]);
    expect(r.hasImage).toBe(false);
    expect(r.html).not.toContain('message_inline_image');
  });

  it('ignores links in code', () => {
    expect(render(`\`[x](${encoded})\``).uploadPathIds).toEqual([]);
  });
});

describe('upload previews', () => {
  it('Zulip’s thumbnailed markup, once per image', () => {
    const r = render(`[Grüße.png](${encoded}) and [again](${encoded})`);
    expect(r.hasImage).toBe(true);
    expect(r.html).toBe(
      `<p><a href="${encoded}">Grüße.png</a> and <a href="${encoded}">again</a></p>\n` +
        `<div class="message_inline_image"><a href="${encoded}" title="Grüße.png">` +
        `<img data-original-content-type="image/png" data-original-dimensions="1920x1080"` +
        ` src="/user_uploads/thumbnail/${encoded.slice('/user_uploads/'.length)}/840x560.webp"></a></div>`,
    );
  });

  it('an upload the server does not know as an image gets no preview, whatever its name', () => {
    const r = render('[cat.png](/user_uploads/1/aa/x/cat.png)');
    expect(r.hasImage).toBe(false);
    expect(r.html).toBe('<p><a href="/user_uploads/1/aa/x/cat.png">cat.png</a></p>');
  });

  it('animated and transcoded images carry their extra attributes last', () => {
    const gif = previewOf({
      pathId: '1/aa/x/a.gif',
      contentType: 'image/gif',
      width: 10,
      height: 10,
      frames: 3,
      thumbnailNames: ['840x560-anim.webp', '840x560.webp'],
    });
    expect(gif).toMatchObject({
      thumbnailUrl: '/user_uploads/thumbnail/1/aa/x/a.gif/840x560-anim.webp',
      animated: true,
      transcodedImage: null,
    });
    const tiff = previewOf({
      pathId: '1/aa/x/a.tiff',
      contentType: 'image/tiff',
      width: 10,
      height: 20,
      frames: 1,
      thumbnailNames: ['840x560.webp', '3024x4032.webp'],
    });
    expect(tiff).toMatchObject({ animated: false, transcodedImage: '3024x4032.webp' });
  });
});

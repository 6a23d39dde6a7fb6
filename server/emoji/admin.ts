import { readFileSync } from 'node:fs';
import type { AppContext } from '../core/context.js';
import { storedFilePath } from '../core/file-store.js';
import { allRealmEmoji } from '../db/queries/realm-emoji.js';
import type { UserRow } from '../db/queries/users.js';
import { emojiFileKey } from '../shared/emoji-urls.js';
import { requireRole } from '../shared/roles.js';
import { emojiContentType } from './images.js';

/** A custom emoji as the admin UI shows it. */
export interface EmojiPreview {
  id: number;
  name: string;
  deactivated: boolean;
  authorId: number | null;
  /**
   * The image inline: the desktop's window is a file:// page whose CSP allows
   * only its own and data: images, not the server's URLs.
   */
  imageDataUrl: string | null;
}

/** Every custom emoji with its (64x64, small) image, newest first. */
export function emojiPreviews(ctx: AppContext, actor: UserRow): EmojiPreview[] {
  requireRole(actor, 'member');
  return allRealmEmoji(ctx.db)
    .map((row) => {
      const file = storedFilePath(ctx, emojiFileKey(row.file_name));
      let imageDataUrl: string | null = null;
      try {
        if (file !== null) {
          const data = readFileSync(file).toString('base64');
          imageDataUrl = `data:${emojiContentType(row.file_name)};base64,${data}`;
        }
      } catch {
        // A lost file: the name still shows, without its picture.
      }
      return {
        id: row.id,
        name: row.name,
        deactivated: row.deactivated === 1,
        authorId: row.author_id,
        imageDataUrl,
      };
    })
    .sort((a, b) => b.id - a.id);
}

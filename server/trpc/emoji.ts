import { rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { newIncomingFilePath } from '../core/file-store.js';
import { addCustomEmoji, deactivateCustomEmoji, emojiPreviews } from '../emoji/index.js';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../shared/limits.js';
import { blame, procedure, router } from './init.js';

/** Base64 of the largest image allowed, plus one byte: the area gives the size error. */
const MAX_BASE64_LENGTH = Math.ceil(((MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 + 1) * 4) / 3) + 4;

/** Custom emoji, through the same operations as /api/v1/realm/emoji. */
export const emojiRouter = router({
  list: procedure.query(({ ctx }) => emojiPreviews(ctx.app, ctx.actor)),
  /** The image travels in base64 (a file picker's bytes), with the type the browser claims. */
  add: blame({ image: /file|image|upload/i, name: /name|emoji/i })
    .input(
      z.object({
        name: z.string().max(200),
        fileName: z.string().max(255).default('emoji'),
        contentType: z.string().max(255),
        image: z
          .string()
          .max(MAX_BASE64_LENGTH)
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64'),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // The area reads uploads from disk, as an HTTP form part arrives.
      const data = Buffer.from(input.image, 'base64');
      const file = newIncomingFilePath(ctx.app);
      writeFileSync(file, data, { mode: 0o600 });
      try {
        return await addCustomEmoji(ctx.app, ctx.actor, input.name, [
          {
            field: 'file',
            fileName: input.fileName,
            contentType: input.contentType,
            path: file,
            size: data.length,
            truncated: false,
          },
        ]);
      } finally {
        rmSync(file, { force: true });
      }
    }),
  deactivate: procedure
    .input(z.object({ name: z.string().max(200) }))
    .mutation(({ ctx, input }) => deactivateCustomEmoji(ctx.app, ctx.actor, input.name)),
});

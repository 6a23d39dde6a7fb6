import { createHash } from 'node:crypto';
import type { AppContext } from '../core/context.js';
import { badRequest, insufficientPermission } from '../core/errors.js';
import { type UserRow, userById } from '../db/queries/users.js';
import { loadRealm } from '../shared/realm.js';
import { isAdmin } from '../shared/roles.js';
import { accessChannelById, checkCanPost } from './rules.js';

/**
 * GET /streams/{stream_id}/email_address.
 *
 * Hearth has no e-mail gateway: nothing receives mail at these addresses.
 * The endpoint exists because clients ask for it (zulip-terminal shows the
 * address in its channel info), so it answers an address of Zulip's form,
 * `<channel-name-slug>.<token>@<organization e-mail domain>`, stable for the
 * same channel, caller and sender, and different when any of them differs.
 * The token is derived, not stored, and is no secret; a future gateway
 * would have to store random tokens instead.
 *
 * As in Zulip since feature level 448, only someone who may post in the
 * channel gets its address.
 */
export function getChannelEmailAddress(
  ctx: AppContext,
  user: UserRow,
  streamId: number,
  senderId: number | undefined,
): { email: string } {
  const stream = accessChannelById(ctx, user, streamId);
  checkCanPost(ctx, user, stream);
  const sender = emailSender(ctx, user, senderId);
  const realm = loadRealm(ctx);
  const token = createHash('sha256')
    .update(
      ['hearth channel e-mail', realm.row.date_created, stream.id, user.id, sender].join('\0'),
    )
    .digest('hex')
    .slice(0, 32);
  const slug = channelSlug(stream.name);
  return { email: `${slug ? `${slug}.` : ''}${token}@${realm.row.email_domain}` };
}

/**
 * Who messages mailed to the address would appear to come from: by default
 * the e-mail gateway (Zulip's bot; here only a name in the token), else the
 * caller or a bot the caller may administer (Zulip's access_bot_by_id).
 */
function emailSender(ctx: AppContext, user: UserRow, senderId: number | undefined): string {
  if (senderId === undefined) return 'email-gateway';
  if (senderId === user.id) return String(user.id);
  const bot = userById(ctx.db, senderId);
  if (!bot?.is_bot) throw badRequest('No such bot');
  if (bot.bot_owner_id !== user.id && !isAdmin(user)) throw insufficientPermission();
  return String(bot.id);
}

/**
 * Zulip's rule: runs of non-word characters become "-", then Django's
 * slugify (ASCII, lower case, no leading or trailing "-" or "_"). If that
 * dropped characters the name would come out mangled, so it is left out and
 * the address is the token alone.
 */
export function channelSlug(name: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphenated
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return [...slug].length === [...hyphenated].length ? slug : '';
}

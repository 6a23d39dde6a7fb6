import type { AppContext, Tx } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import {
  activeChannelFolderNamed,
  allChannelFolders,
  type ChannelFolderRow,
  channelFolderById,
  channelFolderInUse,
  insertChannelFolder,
  setChannelFolderArchived,
  setChannelFolderDescription,
  setChannelFolderName,
  setChannelFolderOrder,
} from '../db/queries/channel-folders.js';
import { activeUserIds, type UserRow } from '../db/queries/users.js';
import { renderContent } from '../markdown/index.js';
import { firstUnprintablePosition } from '../shared/printable.js';
import { requireRole } from '../shared/roles.js';
import type { ChannelFolder, EventBody, EventFields } from '../shared/zulip-api/index.js';

/** Zulip's ChannelFolderDict. */
export function formatChannelFolder(folder: ChannelFolderRow): ChannelFolder {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.rendered_description,
    order: folder.sort_order,
    date_created: folder.date_created,
    creator_id: folder.creator_id,
    is_archived: folder.is_archived === 1,
  };
}

export const invalidChannelFolder = () => badRequest('Invalid channel folder ID');

/** Zulip's get_channel_folder_by_id. */
export function accessChannelFolder(ctx: AppContext, id: number): ChannelFolderRow {
  const folder = channelFolderById(ctx.db, id);
  if (!folder) throw invalidChannelFolder();
  return folder;
}

/** Zulip's check_channel_folder_name. */
function checkFolderName(ctx: AppContext, name: string): void {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  const position = firstUnprintablePosition(name);
  if (position !== undefined) {
    throw badRequest(`Invalid character in channel folder name, at position ${position}.`);
  }
  if (activeChannelFolderNamed(ctx.db, name)) {
    throw badRequest('Channel folder name already in use');
  }
}

const render = (ctx: AppContext, description: string) =>
  description === '' ? '' : renderContent(ctx, description);

/** Everyone in the organization hears of every folder change. */
function emitFolderEvent(ctx: AppContext, tx: Tx, payload: EventFields<'channel_folder'>): void {
  tx.emit({
    type: 'channel_folder',
    users: activeUserIds(ctx.db),
    payload: { type: 'channel_folder', ...payload } satisfies EventBody<'channel_folder'>,
  });
}

/** POST /channel_folders/create (administrators). */
export function createChannelFolder(
  ctx: AppContext,
  actor: UserRow,
  input: { name: string; description: string },
): { channel_folder_id: number } {
  requireRole(actor, 'admin');
  checkFolderName(ctx, input.name);
  const rendered = render(ctx, input.description);
  return ctx.transaction((tx) => {
    const id = insertChannelFolder(ctx.db, {
      name: input.name,
      description: input.description,
      rendered_description: rendered,
      creator_id: actor.id,
      date_created: Math.floor(ctx.now() / 1000),
    });
    emitFolderEvent(ctx, tx, {
      op: 'add',
      channel_folder: formatChannelFolder(channelFolderById(ctx.db, id)!),
    });
    return { channel_folder_id: id };
  });
}

/** GET /channel_folders: by their order, archived ones only when asked. */
export function listChannelFolders(ctx: AppContext, includeArchived: boolean) {
  return {
    channel_folders: allChannelFolders(ctx.db)
      .filter((f) => includeArchived || !f.is_archived)
      .map(formatChannelFolder),
  };
}

/**
 * PATCH /channel_folders (administrators): the new order, which must name
 * every folder (archived ones too); ids beyond them are let through, as Zulip does.
 */
export function reorderChannelFolders(
  ctx: AppContext,
  actor: UserRow,
  order: readonly number[],
): Record<string, never> {
  requireRole(actor, 'admin');
  ctx.transaction((tx) => {
    const position = new Map(order.map((id, index) => [id, index]));
    const folders = allChannelFolders(ctx.db);
    if (folders.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
    for (const f of folders) setChannelFolderOrder(ctx.db, f.id, position.get(f.id)!);
    emitFolderEvent(ctx, tx, { op: 'reorder', order: [...order] });
  });
  return {};
}

/**
 * PATCH /channel_folders/{channel_folder_id} (administrators): name,
 * description, archiving (only when no channel is in the folder). Each
 * change that changes something is its own `update` event.
 */
export function updateChannelFolder(
  ctx: AppContext,
  actor: UserRow,
  id: number,
  input: { name?: string; description?: string; isArchived?: boolean },
): Record<string, never> {
  requireRole(actor, 'admin');
  ctx.transaction((tx) => {
    const folder = accessChannelFolder(ctx, id);
    const update = (data: Record<string, unknown>) =>
      emitFolderEvent(ctx, tx, { op: 'update', channel_folder_id: id, data });
    if (input.name !== undefined && input.name !== folder.name) {
      checkFolderName(ctx, input.name);
      setChannelFolderName(ctx.db, id, input.name);
      update({ name: input.name });
    }
    if (input.description !== undefined && input.description !== folder.description) {
      const rendered = render(ctx, input.description);
      setChannelFolderDescription(ctx.db, id, input.description, rendered);
      update({ description: input.description, rendered_description: rendered });
    }
    if (input.isArchived !== undefined && input.isArchived !== (folder.is_archived === 1)) {
      if (input.isArchived && channelFolderInUse(ctx.db, id)) {
        throw badRequest('You need to remove all the channels from this folder to archive it.');
      }
      setChannelFolderArchived(ctx.db, id, input.isArchived);
      update({ is_archived: input.isArchived });
    }
  });
  return {};
}

/**
 * Where custom emoji images live: Zulip's local-storage paths
 * (`/user_avatars/{realm_id}/emoji/images/{file_name}` and the still PNG under
 * `still/`), and the file-store keys behind them. A stored file name is
 * `{id}.{extension}`, made by the server; a request's path is only ever
 * matched against names in the database.
 */

const baseName = (fileName: string) => fileName.slice(0, fileName.lastIndexOf('.'));

export const emojiSourceUrl = (realmId: number, fileName: string) =>
  `/user_avatars/${realmId}/emoji/images/${fileName}`;

export const emojiStillUrl = (realmId: number, fileName: string) =>
  `/user_avatars/${realmId}/emoji/images/still/${baseName(fileName)}.png`;

export const emojiFileKey = (fileName: string) => `emoji/${fileName}`;

export const stillFileKey = (fileName: string) => `emoji/still/${baseName(fileName)}.png`;

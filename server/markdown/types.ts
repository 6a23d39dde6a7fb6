export interface MarkdownUser {
  id: number;
  fullName: string;
  isActive?: boolean;
}

export interface MarkdownGroup {
  id: number;
  name: string;
}

export interface MarkdownChannel {
  id: number;
  name: string;
}

export interface MarkdownRealmEmoji {
  id: string;
  name: string;
  sourceUrl: string;
  stillUrl?: string | null;
  deactivated?: boolean;
}

export interface MarkdownLinkifier {
  id: number;
  /** Python-flavoured regex as stored by Zulip (named groups use `(?P<name>...)`). */
  pattern: string;
  /** RFC 6570 URL template. */
  urlTemplate: string;
}

/**
 * Everything the renderer needs to know about the organisation. Kept as plain
 * synchronous callbacks so the renderer stays pure and the caller decides how
 * to back them (SQLite, in-memory caches, fixtures).
 */
export interface MarkdownLookups {
  userById(id: number): MarkdownUser | undefined;
  /** Case-insensitive; several results mean the name is ambiguous. */
  usersByName(fullName: string): MarkdownUser[];
  groupByName(name: string): MarkdownGroup | undefined;
  channelByName(name: string): MarkdownChannel | undefined;
  channelById?(id: number): MarkdownChannel | undefined;
  realmEmoji(name: string): MarkdownRealmEmoji | undefined;
  linkifiers?(): MarkdownLinkifier[];
  /**
   * How the upload at `/user_uploads/{pathId}` previews, or undefined when it
   * is not an image (or no such upload). Without this lookup, upload links
   * preview by their extension, unthumbnailed.
   */
  uploadPreview?(pathId: string): MarkdownUploadPreview | undefined;
}

/** An uploaded image as a message shows it (Zulip's MarkdownImageMetadata). */
export interface MarkdownUploadPreview {
  /** `/user_uploads/thumbnail/{pathId}/{format}`. */
  thumbnailUrl: string;
  animated: boolean;
  /** After EXIF rotation. */
  width: number;
  height: number;
  contentType: string;
  /** The large still of a type browsers cannot show (e.g. "4032x3024.webp"), if any. */
  transcodedImage: string | null;
}

export interface MarkdownOptions {
  /** e.g. `https://chat.example.com` (no trailing slash needed). */
  realmUrl: string;
  translateEmoticons?: boolean;
  /** Zulip adds previews for links to images; on by default like Zulip. */
  inlineImagePreviews?: boolean;
}

export interface RenderResult {
  html: string;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Path ids of every link into /user_uploads/ (Zulip's potential_attachment_path_ids), once each. */
  uploadPathIds: string[];
  isMeMessage: boolean;
}

/** Mutable state shared by every stage of one render. */
export interface RenderContext {
  lookups: MarkdownLookups;
  options: MarkdownOptions;
  realmUrl: string;
  result: RenderResult;
  /** Zulip previews each image URL once per message. */
  seenPreviews: Set<string>;
  /** Cached per render because callers may build the list on each call. */
  linkifierCache?: CompiledLinkifier[] | undefined;
}

export interface CompiledLinkifier {
  re: RegExp;
  expand(groups: Record<string, string>): string;
}

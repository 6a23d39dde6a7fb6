import {
  customEmojiImage,
  customEmojiStill,
  emojiApiJson,
  emojiPickerJson,
  emojiSpriteCss,
  emojiSpriteSheet,
  zulipEmojiPng,
} from '../../emoji/index.js';
import { outsideApi, WHY } from '../api-link.js';
import { p } from '../params.js';
import { publicRoute } from '../route.js';

/**
 * Files Zulip serves at the site root without authentication (nginx there):
 * custom emoji images and the generated emoji data. Pages show many of them
 * at once, so they do not count against the per-address rate limit.
 */
export const staticFileRoutes = [
  publicRoute({
    method: 'GET',
    path: '/user_avatars/:realm_id/emoji/images/:file_name',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    rateLimitExempt: true,
    params: { realm_id: p.str(), file_name: p.str() },
    handler: (ctx, _user, params) => customEmojiImage(ctx, params.realm_id, params.file_name),
  }),
  publicRoute({
    method: 'GET',
    path: '/user_avatars/:realm_id/emoji/images/still/:file_name',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    rateLimitExempt: true,
    params: { realm_id: p.str(), file_name: p.str() },
    handler: (ctx, _user, params) => customEmojiStill(ctx, params.realm_id, params.file_name),
  }),
  publicRoute({
    method: 'GET',
    path: '/static/generated/emoji/emoji_api.json',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    rateLimitExempt: true,
    params: {},
    handler: () => emojiApiJson(),
  }),
  ...(
    [
      ['/static/generated/emoji/google-sprite.css', emojiSpriteCss],
      ['/static/generated/emoji/sheet-google-32.png', emojiSpriteSheet],
      ['/static/generated/emoji/emoji_picker.json', emojiPickerJson],
    ] as const
  ).map(([path, handler]) =>
    publicRoute({
      method: 'GET',
      path,
      api: outsideApi(WHY.files),
      atRoot: true,
      auth: 'none',
      rateLimitExempt: true,
      params: {},
      handler: () => handler(),
    }),
  ),
  publicRoute({
    method: 'GET',
    path: '/static/generated/emoji/images/emoji/unicode/zulip.png',
    api: outsideApi(WHY.files),
    atRoot: true,
    auth: 'none',
    rateLimitExempt: true,
    params: {},
    handler: () => zulipEmojiPng(),
  }),
];

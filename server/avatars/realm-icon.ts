import { FileAnswer } from '../shared/files.js';
import { sharp } from '../shared/sharp.js';
import { AVATAR_SIZE } from './images.js';

/**
 * The organization's icon and logo (realm_icon_url, realm_logo_url): Hearth's
 * flame, the same drawing as renderer/icon.svg, rendered once at Zulip's
 * realm-icon size.
 */
const HEARTH_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" viewBox="0 0 64 64">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fb923c"/><stop offset="1" stop-color="#c2410c"/></linearGradient></defs>
<path fill="url(#g)" d="M32 4c4 10 16 18 16 34a16 16 0 0 1-32 0c0-8 4-13 8-17 0 6 3 10 6 10-2-9 2-19 2-27z"/>
</svg>`;

let icon: Promise<Buffer> | undefined;

/** GET /static/images/logo/hearth-icon.png (and the logo path, which shows the same mark). */
export async function hearthIconPng(): Promise<FileAnswer> {
  icon ??= sharp(Buffer.from(HEARTH_ICON_SVG)).png().toBuffer();
  return new FileAnswer({
    body: await icon,
    contentType: 'image/png',
    cacheControl: 'public, max-age=86400',
  });
}

/** A grey head and shoulders: the picture of a user one may not see (Zulip's unknown-user-avatar.png). */
const UNKNOWN_USER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#d4d4d4"/>
<circle cx="50" cy="38" r="18" fill="#8a8a8a"/>
<path fill="#8a8a8a" d="M16 100c0-20 15-34 34-34s34 14 34 34z"/>
</svg>`;

let unknownUser: Promise<Buffer> | undefined;

/** GET /static/images/unknown-user-avatar.png (user-access/'s INACCESSIBLE_USER_AVATAR_URL). */
export async function unknownUserAvatarPng(): Promise<FileAnswer> {
  unknownUser ??= sharp(Buffer.from(UNKNOWN_USER_SVG)).png().toBuffer();
  return new FileAnswer({
    body: await unknownUser,
    contentType: 'image/png',
    cacheControl: 'public, max-age=86400',
  });
}

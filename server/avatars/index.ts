/** Pictures of people and of the organization: uploaded and generated default avatars, POST/DELETE /users/me/avatar, the /avatar/ redirects, the realm icon. */
export { userAvatarImage } from './files.js';
export { resizeAvatar } from './images.js';
export { removeOwnAvatar, setOwnAvatar } from './own-avatar.js';
export { hearthIconPng, unknownUserAvatarPng } from './realm-icon.js';
export { avatarRedirect } from './redirect.js';
export { avatarFileKey } from './storage.js';

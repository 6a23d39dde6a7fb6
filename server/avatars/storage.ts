/** File-store keys of uploaded avatars: one pair per user and version, made by the server. */
export const avatarFileKey = (userId: number, version: number, medium: boolean) =>
  `avatars/${userId}-${version}${medium ? '-medium' : ''}.png`;

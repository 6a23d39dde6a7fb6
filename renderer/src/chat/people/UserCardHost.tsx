/** Renders the user card opened by `openUserCard` (mounted once by the app). STUB. */
export function UserCardHost() {
  return null;
}

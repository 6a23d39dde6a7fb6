/** The right-hand list of users with presence and status. STUB: replaced by the people work. */
export function UserList() {
  return null;
}

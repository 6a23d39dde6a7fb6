import type { User } from '../data/model.js';

/** Up to two initials, for a user without a picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => [...word][0]?.toUpperCase() ?? '').join('');
}

/** A user's picture (decorative: the name is always next to it), or their initials. */
export function Avatar({ user, size = 'small' }: { user: User; size?: 'small' | 'large' }) {
  if (user.avatar_url) {
    return (
      <img
        className={`person-avatar person-avatar-${size}`}
        src={user.avatar_url}
        alt=""
        loading="lazy"
      />
    );
  }
  return (
    <span
      className={`person-avatar person-avatar-${size} person-avatar-initials`}
      aria-hidden="true"
    >
      {initials(user.full_name)}
    </span>
  );
}

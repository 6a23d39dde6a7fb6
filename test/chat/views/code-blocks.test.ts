/** Code blocks' playground links: which playgrounds fit a block, and their URLs. */
import { describe, expect, it } from 'vitest';
import {
  type Playground,
  playgroundsFor,
  playgroundsOf,
  playgroundUrl,
} from '../../../renderer/src/chat/views/feed/code-blocks.js';

const rust: Playground = {
  id: 1,
  name: 'Rust playground',
  pygments_language: 'Rust',
  url_template: 'https://play.rust-lang.org/?edition=2021&code={code}',
};
const python: Playground = {
  id: 2,
  name: 'Python tutor',
  pygments_language: 'Python',
  url_template: 'https://pythontutor.com/visualize.html#code={code}',
};
const python2: Playground = {
  id: 3,
  name: 'Pyodide',
  pygments_language: 'Python',
  url_template: 'https://pyodide.example/{#code}',
};

describe('code playgrounds', () => {
  it('reads the organization’s playgrounds, an empty list when register had none', () => {
    expect(playgroundsOf({ realm_playgrounds: [rust] })).toEqual([rust]);
    // The same list each time, so rows memoised on it stay equal.
    expect(playgroundsOf({})).toBe(playgroundsOf({ realm_name: 'x' }));
    expect(playgroundsOf({})).toEqual([]);
  });

  it('matches a block’s language to pygments_language exactly, as Zulip does', () => {
    const all = [rust, python, python2];
    expect(playgroundsFor('Python', all)).toEqual([python, python2]);
    expect(playgroundsFor('Rust', all)).toEqual([rust]);
    expect(playgroundsFor('python', all)).toEqual([]);
    expect(playgroundsFor('', all)).toEqual([]);
  });

  it('expands {code} as RFC 6570 does, percent-encoding reserved characters', () => {
    expect(playgroundUrl(rust.url_template, 'fn main() { println!("a&b"); }\n')).toBe(
      'https://play.rust-lang.org/?edition=2021&code=fn%20main%28%29%20%7B%20println%21%28%22a%26b%22%29%3B%20%7D%0A',
    );
    // A fragment expansion keeps reserved characters.
    expect(playgroundUrl(python2.url_template, 'a/b?c')).toBe('https://pyodide.example/#a/b?c');
  });

  it('gives no link for a template that makes no web address', () => {
    expect(playgroundUrl('javascript:alert({code})', 'x')).toBeNull();
    expect(playgroundUrl('{code}', 'https://evil.example')).toBeNull();
    expect(playgroundUrl('not a url {code}', 'x')).toBeNull();
  });
});

import { createRequire } from 'node:module';
import type { HLJSApi, LanguageFn } from 'highlight.js';

const require = createRequire(import.meta.url);

/** The grammars a code block's language may select (codehilite.ts maps names to them). */
const LANGUAGES = [
  'bash',
  'c',
  'clojure',
  'coffeescript',
  'cpp',
  'csharp',
  'css',
  'dart',
  'diff',
  'dockerfile',
  'elixir',
  'elm',
  'erlang',
  'fsharp',
  'go',
  'graphql',
  'groovy',
  'haskell',
  'ini',
  'java',
  'javascript',
  'json',
  'julia',
  'kotlin',
  'latex',
  'less',
  'lisp',
  'lua',
  'makefile',
  'markdown',
  'matlab',
  'nginx',
  'objectivec',
  'ocaml',
  'perl',
  'pgsql',
  'php',
  'powershell',
  'protobuf',
  'python',
  'python-repl',
  'r',
  'ruby',
  'rust',
  'scala',
  'scheme',
  'scss',
  'shell',
  'sql',
  'swift',
  'typescript',
  'vim',
  'xml',
  'yaml',
];

let highlighter: HLJSApi | undefined;

/**
 * highlight.js with those grammars, loaded at the first code block rather
 * than at start-up: 55 grammars are a noticeable share of starting the
 * server, and many servers start without rendering any code.
 */
export function hljs(): HLJSApi {
  if (!highlighter) {
    const core = require('highlight.js/lib/core') as HLJSApi;
    for (const name of LANGUAGES) {
      core.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as LanguageFn);
    }
    highlighter = core;
  }
  return highlighter;
}

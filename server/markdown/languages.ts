/**
 * Code-block language aliases → the lexer display name Zulip puts in
 * `data-code-language` (Pygments' lexer names) and the highlight.js grammar
 * used to tokenize it. Unknown aliases are kept verbatim and not highlighted,
 * which is what Zulip does for languages Pygments lacks.
 */
export interface LanguageInfo {
  displayName: string;
  /** highlight.js grammar id; absent means "no highlighting". */
  hljs?: string;
}

const TABLE: Array<[string[], string, string | undefined]> = [
  [['python', 'py', 'python3', 'py3', 'sage', 'bazel', 'starlark'], 'Python', 'python'],
  [['python2', 'py2'], 'Python 2.x', 'python'],
  [['pycon'], 'Python console session', 'python-repl'],
  [['javascript', 'js'], 'JavaScript', 'javascript'],
  [['typescript', 'ts'], 'TypeScript', 'typescript'],
  [['jsx', 'react'], 'JSX', 'javascript'],
  [['tsx'], 'TSX', 'typescript'],
  [['json', 'json-object'], 'JSON', 'json'],
  [['java'], 'Java', 'java'],
  [['c'], 'C', 'c'],
  [['cpp', 'c++', 'cxx', 'hpp'], 'C++', 'cpp'],
  [['csharp', 'c#', 'cs'], 'C#', 'csharp'],
  [['go', 'golang'], 'Go', 'go'],
  [['rust', 'rs'], 'Rust', 'rust'],
  [['ruby', 'rb', 'duby'], 'Ruby', 'ruby'],
  [['php', 'php3', 'php4', 'php5'], 'PHP', 'php'],
  [['bash', 'sh', 'ksh', 'zsh', 'shell', 'openrc'], 'Bash', 'bash'],
  [['console', 'shell-session'], 'Bash Session', 'shell'],
  [['html'], 'HTML', 'xml'],
  [['xml'], 'XML', 'xml'],
  [['css'], 'CSS', 'css'],
  [['scss'], 'SCSS', 'scss'],
  [['less'], 'LessCss', 'less'],
  [['sql'], 'SQL', 'sql'],
  [['postgresql', 'postgres'], 'PostgreSQL SQL dialect', 'pgsql'],
  [['mysql'], 'MySQL', 'sql'],
  [['yaml', 'yml'], 'YAML', 'yaml'],
  [['toml'], 'TOML', 'ini'],
  [['ini', 'cfg', 'dosini'], 'INI', 'ini'],
  [['diff', 'udiff', 'patch'], 'Diff', 'diff'],
  [['markdown', 'md'], 'Markdown', 'markdown'],
  [['tex', 'latex'], 'TeX', 'latex'],
  [['kotlin', 'kt'], 'Kotlin', 'kotlin'],
  [['swift'], 'Swift', 'swift'],
  [['scala'], 'Scala', 'scala'],
  [['haskell', 'hs'], 'Haskell', 'haskell'],
  [['perl', 'pl'], 'Perl', 'perl'],
  [['lua'], 'Lua', 'lua'],
  [['r', 'splus', 's'], 'S', 'r'],
  [['matlab'], 'Matlab', 'matlab'],
  [['objective-c', 'objectivec', 'obj-c', 'objc'], 'Objective-C', 'objectivec'],
  [['docker', 'dockerfile'], 'Docker', 'dockerfile'],
  [['nginx'], 'Nginx configuration file', 'nginx'],
  [['powershell', 'pwsh', 'posh', 'ps1', 'psm1'], 'PowerShell', 'powershell'],
  [['elixir', 'ex', 'exs'], 'Elixir', 'elixir'],
  [['erlang'], 'Erlang', 'erlang'],
  [['clojure', 'clj'], 'Clojure', 'clojure'],
  [['dart'], 'Dart', 'dart'],
  [['julia', 'jl'], 'Julia', 'julia'],
  [['ocaml'], 'OCaml', 'ocaml'],
  [['fsharp', 'f#'], 'F#', 'fsharp'],
  [['groovy'], 'Groovy', 'groovy'],
  [['graphql'], 'GraphQL', 'graphql'],
  [['protobuf', 'proto'], 'Protocol Buffer', 'protobuf'],
  [['coffeescript', 'coffee-script', 'coffee'], 'CoffeeScript', 'coffeescript'],
  [['scheme', 'scm'], 'Scheme', 'scheme'],
  [['common-lisp', 'cl', 'lisp'], 'Common Lisp', 'lisp'],
  [['elm'], 'Elm', 'elm'],
  [['makefile', 'make', 'mf', 'bsdmake'], 'Makefile', 'makefile'],
  [['vim'], 'VimL', 'vim'],
  [['text', 'plain', 'txt', 'none', 'plaintext'], 'Text only', undefined],
];

const BY_ALIAS = new Map<string, LanguageInfo>();
for (const [aliases, displayName, hljs] of TABLE) {
  for (const alias of aliases) {
    BY_ALIAS.set(alias, hljs ? { displayName, hljs } : { displayName });
  }
}

export function lookupLanguage(lang: string): LanguageInfo | undefined {
  return BY_ALIAS.get(lang.toLowerCase());
}

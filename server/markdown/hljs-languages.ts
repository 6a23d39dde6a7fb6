import hljs from 'highlight.js/lib/core';
import lang_bash from 'highlight.js/lib/languages/bash';
import lang_c from 'highlight.js/lib/languages/c';
import lang_clojure from 'highlight.js/lib/languages/clojure';
import lang_coffeescript from 'highlight.js/lib/languages/coffeescript';
import lang_cpp from 'highlight.js/lib/languages/cpp';
import lang_csharp from 'highlight.js/lib/languages/csharp';
import lang_css from 'highlight.js/lib/languages/css';
import lang_dart from 'highlight.js/lib/languages/dart';
import lang_diff from 'highlight.js/lib/languages/diff';
import lang_dockerfile from 'highlight.js/lib/languages/dockerfile';
import lang_elixir from 'highlight.js/lib/languages/elixir';
import lang_elm from 'highlight.js/lib/languages/elm';
import lang_erlang from 'highlight.js/lib/languages/erlang';
import lang_fsharp from 'highlight.js/lib/languages/fsharp';
import lang_go from 'highlight.js/lib/languages/go';
import lang_graphql from 'highlight.js/lib/languages/graphql';
import lang_groovy from 'highlight.js/lib/languages/groovy';
import lang_haskell from 'highlight.js/lib/languages/haskell';
import lang_ini from 'highlight.js/lib/languages/ini';
import lang_java from 'highlight.js/lib/languages/java';
import lang_javascript from 'highlight.js/lib/languages/javascript';
import lang_json from 'highlight.js/lib/languages/json';
import lang_julia from 'highlight.js/lib/languages/julia';
import lang_kotlin from 'highlight.js/lib/languages/kotlin';
import lang_latex from 'highlight.js/lib/languages/latex';
import lang_less from 'highlight.js/lib/languages/less';
import lang_lisp from 'highlight.js/lib/languages/lisp';
import lang_lua from 'highlight.js/lib/languages/lua';
import lang_makefile from 'highlight.js/lib/languages/makefile';
import lang_markdown from 'highlight.js/lib/languages/markdown';
import lang_matlab from 'highlight.js/lib/languages/matlab';
import lang_nginx from 'highlight.js/lib/languages/nginx';
import lang_objectivec from 'highlight.js/lib/languages/objectivec';
import lang_ocaml from 'highlight.js/lib/languages/ocaml';
import lang_perl from 'highlight.js/lib/languages/perl';
import lang_pgsql from 'highlight.js/lib/languages/pgsql';
import lang_php from 'highlight.js/lib/languages/php';
import lang_powershell from 'highlight.js/lib/languages/powershell';
import lang_protobuf from 'highlight.js/lib/languages/protobuf';
import lang_python from 'highlight.js/lib/languages/python';
import lang_python_repl from 'highlight.js/lib/languages/python-repl';
import lang_r from 'highlight.js/lib/languages/r';
import lang_ruby from 'highlight.js/lib/languages/ruby';
import lang_rust from 'highlight.js/lib/languages/rust';
import lang_scala from 'highlight.js/lib/languages/scala';
import lang_scheme from 'highlight.js/lib/languages/scheme';
import lang_scss from 'highlight.js/lib/languages/scss';
import lang_shell from 'highlight.js/lib/languages/shell';
import lang_sql from 'highlight.js/lib/languages/sql';
import lang_swift from 'highlight.js/lib/languages/swift';
import lang_typescript from 'highlight.js/lib/languages/typescript';
import lang_vim from 'highlight.js/lib/languages/vim';
import lang_xml from 'highlight.js/lib/languages/xml';
import lang_yaml from 'highlight.js/lib/languages/yaml';

const GRAMMARS = {
  bash: lang_bash,
  c: lang_c,
  clojure: lang_clojure,
  coffeescript: lang_coffeescript,
  cpp: lang_cpp,
  csharp: lang_csharp,
  css: lang_css,
  dart: lang_dart,
  diff: lang_diff,
  dockerfile: lang_dockerfile,
  elixir: lang_elixir,
  elm: lang_elm,
  erlang: lang_erlang,
  fsharp: lang_fsharp,
  go: lang_go,
  graphql: lang_graphql,
  groovy: lang_groovy,
  haskell: lang_haskell,
  ini: lang_ini,
  java: lang_java,
  javascript: lang_javascript,
  json: lang_json,
  julia: lang_julia,
  kotlin: lang_kotlin,
  latex: lang_latex,
  less: lang_less,
  lisp: lang_lisp,
  lua: lang_lua,
  makefile: lang_makefile,
  markdown: lang_markdown,
  matlab: lang_matlab,
  nginx: lang_nginx,
  objectivec: lang_objectivec,
  ocaml: lang_ocaml,
  perl: lang_perl,
  pgsql: lang_pgsql,
  php: lang_php,
  powershell: lang_powershell,
  protobuf: lang_protobuf,
  python: lang_python,
  'python-repl': lang_python_repl,
  r: lang_r,
  ruby: lang_ruby,
  rust: lang_rust,
  scala: lang_scala,
  scheme: lang_scheme,
  scss: lang_scss,
  shell: lang_shell,
  sql: lang_sql,
  swift: lang_swift,
  typescript: lang_typescript,
  vim: lang_vim,
  xml: lang_xml,
  yaml: lang_yaml,
};
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

export { hljs };

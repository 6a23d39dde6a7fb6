# Sourced by .ci/run. `node_runtime MAJOR` prints the folder of a Node.js
# runtime of that major version: the machine's own when it is that major,
# else the newest release of it from the npm registry (the node-linux-<arch>
# package carries bin/node and include/node, the headers), unpacked once
# into a cache folder and reused by later runs.

node_runtime() {
  local major=$1 own
  own=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)
  if [[ $own == "$major" ]]; then
    dirname "$(dirname "$(command -v node)")"
    return
  fi
  local arch
  case $(uname -m) in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "no Node.js $major package for $(uname -m)" >&2; return 1 ;;
  esac
  local cache=${HEARTH_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth-ci}
  mkdir -p "$cache"
  local work
  work=$(mktemp -d "$cache/.node-$major-XXXXXX")
  # npm pack resolves the newest $major.x and checks the tarball's integrity.
  local tarball
  if ! tarball=$(cd "$work" && npm pack "node-linux-$arch@$major" --silent 2>/dev/null | tail -1) ||
    [[ -z $tarball || ! -f $work/$tarball ]]; then
    rm -rf "$work"
    echo "could not fetch node-linux-$arch@$major from the npm registry" >&2
    return 1
  fi
  local version=${tarball#"node-linux-$arch-"}
  version=${version%.tgz}
  local dir=$cache/node-v$version-linux-$arch
  if [[ ! -x $dir/bin/node ]]; then
    # Unpacked beside, then renamed into place: a stopped run leaves no half runtime.
    mkdir "$work/unpacked"
    tar -xzf "$work/$tarball" -C "$work/unpacked" --strip-components=1
    "$work/unpacked/bin/node" --version >/dev/null
    mv -T "$work/unpacked" "$dir" 2>/dev/null || [[ -x $dir/bin/node ]]
  fi
  rm -rf "$work"
  echo "$dir"
}

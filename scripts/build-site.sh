#!/usr/bin/env bash
# Assembles the static site: web/ with its chapters built into index.html, the package (dist/) under embedlab/,
# section 7's corpus excerpt, the Hugging Face vocabularies (vocab/hf/, from the dev dependencies) and the service
# worker's precache list. `bash scripts/build-site.sh [LINK]` (default build/site); scripts/build.sh runs it after
# the package. Expects dist/ (and build/corpus/brown.txt for the race).
#
# Atomic, so that a server (npm start) or a browser test can read the site while it is rebuilt (npm test beside
# npm start): each run assembles a new generation, LINK.gen-XXXXXX, and only then points the symlink LINK at it by a
# rename, which readers see happen all at once: a file they open is the old generation's or the new one's, each
# whole, never missing or half written. Old generations are removed, except the one LINK pointed at until now (a
# request that resolved LINK an instant before the switch still finds its files) and those that a running process
# pinned: LINK.pins/PID.GENERATION, written by pinSite() in scripts/serve.mjs (the browser tests serve and read one
# generation throughout a test file), stale once PID has exited.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
link=$(realpath -ms "${1:-$root/build/site}") # absolute, LINK itself (not what it points at)
cd "$root"

# One build at a time: a site copied from a dist/ that a build is writing would hold a .js without its .wasm.
# scripts/build.sh holds this lock already and says so in EMBEDLAB_BUILD_LOCKED.
if [ -z "${EMBEDLAB_BUILD_LOCKED:-}" ]; then
  mkdir -p build
  exec 9>build/.build.lock
  flock 9
fi

mkdir -p "$(dirname "$link")"
site=$(mktemp -d "$link.gen-XXXXXX")
trap 'rm -rf "$site" "$link.next-$$"' EXIT # a failed run leaves no half generation behind
chmod 755 "$site"
mkdir -p "$site/embedlab"
cp -r web/. "$site/"
(cd dist && cp -r --parents $(find . -name '*.js' ! -path './torch/*') ./*.wasm vocab "$site/embedlab/")
node scripts/build-page.mjs web "$site" # index.html: its chapters from web/sections/, its modules to preload
node scripts/corpus-excerpt.mjs build/corpus/brown.txt "$site/corpus/brown-excerpt.txt" # section 7's race
node scripts/build-hf-vocabularies.mjs "$site" # vocab/hf/: section 1's Hugging Face vocabularies, fetched on demand
node scripts/build-service-worker.mjs "$site" # sw.js with the list of the site's files: keep this last

# The switch. A site built before generations existed is a directory: it moves aside first (once; LINK is missing
# for that instant) and counts as the previous generation.
previous=$(readlink "$link" || true)
if [ -d "$link" ] && [ ! -L "$link" ]; then
  previous=$(basename "$(mktemp -u "$link.gen-XXXXXX")")
  mv -T "$link" "$(dirname "$link")/$previous"
fi
ln -sfn "$(basename "$site")" "$link.next-$$" # relative: the checkout can move
mv -T "$link.next-$$" "$link"
trap - EXIT

# Old generations: kept while pinned by a live process, or when LINK pointed at them until now.
keep=" $(basename "$site") $(basename "${previous:-none}") "
if [ -d "$link.pins" ]; then
  for pin in "$link.pins"/*; do
    [ -e "$pin" ] || continue
    name=$(basename "$pin")
    pid=${name%%.*}
    if [[ $pid =~ ^[0-9]+$ ]] && [ -d "/proc/$pid" ]; then
      keep+="${name#*.} "
    else
      rm -f "$pin"
    fi
  done
fi
for dir in "$link".gen-*; do
  [ -d "$dir" ] || continue
  [[ $keep == *" $(basename "$dir") "* ]] || rm -rf "$dir"
done

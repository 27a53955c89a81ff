#!/usr/bin/env bash
# The manual pages are the program's own option definitions (app/ManPages.h): `scalelab
# --man-pages DIR` writes one page per command, every option `--help` lists (each of its names)
# is in its command's page, and groff reads every page without a warning.
# Usage: man_pages_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"

"$scalelab" --man-pages "$work/man" || fail "--man-pages"
# The option is the build's, not the user's: --help does not list it.
"$scalelab" --help | grep -q -- '--man-pages' && fail "--help lists the hidden --man-pages"

# Every command, from --help's "Subcommands:" lists, recursively ("server start" ...).
commands=("")
for ((i = 0; i < ${#commands[@]}; i++)); do
  cmd=${commands[$i]}
  # shellcheck disable=SC2086
  while read -r sub; do commands+=("${cmd:+$cmd }$sub"); done < <("$scalelab" $cmd --help | awk '/^Subcommands:/ {s=1; next} s && /^  [a-z]/ {print $1} /^$/ {s=0}')
done
[[ ${#commands[@]} -ge 15 ]] || fail "only ${#commands[@]} commands found: ${commands[*]}"

for cmd in "${commands[@]}"; do
  page=$work/man/scalelab${cmd:+-${cmd// /-}}.1
  [[ -s $page ]] || { fail "no page for '$cmd' ($page)"; continue; }
  # groff's own check: no warning of any kind (-ww), nothing printed (-z).
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  [[ -z $warnings ]] || fail "groff on $page: $warnings"
  text=$(groff -man -Tutf8 -P-cbou "$page" 2>/dev/null)
  # shellcheck disable=SC2086
  for name in $("$scalelab" $cmd --help | grep -E '^  -' | grep -oE '(^|,| )--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ', '); do
    grep -qF -- "$name" <<<"$text" || fail "'$name' of 'scalelab $cmd' is not in $(basename "$page")"
  done
done
groff -man -Tutf8 -P-cbou "$work/man/scalelab.1" 2>/dev/null | grep -q 'scalelab-sweep(1)' || fail "scalelab(1) names scalelab-sweep(1)"

echo "${#commands[@]} pages"
finish man_pages

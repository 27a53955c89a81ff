#!/usr/bin/env bash
# Shell completion written from the option definitions (app/Completions.h): commands, options,
# an option's fixed values, and files by kind, asked as bash asks (COMP_WORDS, COMP_CWORD) of the
# script `scalelab --completion bash` prints; zsh's is bash's behind bashcompinit.
# Usage: completion_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"

"$scalelab" --completion bash >"$work/scalelab" || fail "--completion bash"
"$scalelab" --completion zsh >"$work/_scalelab" || fail "--completion zsh"
bash -n "$work/scalelab" || fail "the bash script does not parse"
head -1 "$work/_scalelab" | grep -qx '#compdef scalelab' || fail "zsh script lacks #compdef"
"$scalelab" --completion fish >/dev/null 2>"$work/err" && fail "fish accepted"
grep -q 'bash or zsh' "$work/err" || fail "fish refusal: $(cat "$work/err")"

mkdir -p "$work/files/plans"
touch "$work/files/plan.json" "$work/files/e.slab" "$work/files/notes.txt"
cd "$work/files" || exit 1
# complete WORDS...: what bash would offer for the last word (an empty last word: after a space).
complete_words() {
  # shellcheck disable=SC1091
  source "$work/scalelab"
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _scalelab
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
expect() { # description expected-words... -- words...
  local what=$1; shift
  local want=()
  while [[ $1 != -- ]]; do want+=("$1"); shift; done
  shift
  local got
  got=$(complete_words "$@")
  local w
  for w in "${want[@]}"; do
    [[ " $got " == *" $w "* ]] || fail "$what: '$w' not offered; got: $got"
  done
}
expect "commands" sweep server report -- scalelab ""
expect "a command by its start" sweep -- scalelab sw
expect "nested commands" start stop status -- scalelab server ""
expect "options of run" --metrics-host --load-hosts -- scalelab run --
expect "options of server start after its command" --data -- scalelab server start --d
expect "a validator's values" markdown text -- scalelab report e.slab --format ""
expect "a pattern's values" smt-off smt-on -- scalelab run --placement smt
expect "metrics" cpu_busy tps -- scalelab report e.slab --metric ""
expect "a plan file" plan.json plans -- scalelab sweep ""
expect "an experiment file" e.slab -- scalelab report ""
got=$(complete_words scalelab report "")
[[ $got != *plan.json* && $got != *notes.txt* ]] || fail "report offers files that are not experiments: $got"
got=$(complete_words scalelab sweep --resume "")
[[ $got == *plan.json* ]] || fail "a flag takes no value: the plan after it: $got"

finish completion

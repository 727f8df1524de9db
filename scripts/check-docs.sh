#!/usr/bin/env bash
# The generated man page and completions work where they are used (docs/creative-tool.1,
# docs/completions/; that they are not stale is Tests/CreativeCLITests/GeneratedDocsTests.swift):
#   - mandoc -T lint and groff -ww read the man page without a message, not even a style one;
#   - bash, with the completion sourced, completes a command's flags, a choice's values (device
#     names with their spaces) and the commands; zsh parses its completion (zsh -n).
# Ends with "check-docs: N checks passed" or names each failure and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh docs
failures=0 passed=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then passed=$((passed + 1)); else
        printf 'check-docs: FAILED %s\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3" >&2
        failures=$((failures + 1))
    fi
}

check "mandoc -T lint docs/creative-tool.1" "" "$(mandoc -T lint docs/creative-tool.1 2>&1 || true)"
check "groff -ww docs/creative-tool.1" "" "$(groff -man -ww -z docs/creative-tool.1 2>&1 || true)"
check "man -l renders the NAME line" "1" \
    "$(MANWIDTH=100 man -l docs/creative-tool.1 2>/dev/null | grep -c 'creative-tool - check, render and size' || true)"

# The words bash offers for the command line given (the last word is the one being completed).
complete_words() {
    bash --norc --noprofile -c '
        source docs/completions/creative-tool.bash
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _creative_tool creative-tool "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]:-}"
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' complete_words "$@"
}
check "bash: render's --q flags" "--quality --quiet " "$(complete_words creative-tool render --q)"
check "bash: slot's --s flags" "--scale --screen-height " "$(complete_words creative-tool slot --s)"
check "bash: serve's --job flags" "--job-memory-budget --job-timeout " "$(complete_words creative-tool serve --job)"
check "bash: render --format values" "auto avif jpeg png webp " "$(complete_words creative-tool render --format '')"
# Whole names: readline quotes what it inserts (compopt -o filenames), so a name stays one word.
check "bash: a device name stays one word" 'iPhone 15 iPhone 15 Plus ' \
    "$(complete_words creative-tool render --device 'iPhone\ 15')"
check "bash: commands" "select serve " "$(complete_words creative-tool se)"
check "bash: help --format" "man markdown " "$(complete_words creative-tool help --format m)"
check "bash: complete is registered" "complete -o default -F _creative_tool creative-tool" \
    "$(bash --norc --noprofile -c 'source docs/completions/creative-tool.bash; complete -p creative-tool')"
check "zsh -n _creative-tool" "" "$(zsh -n docs/completions/_creative-tool 2>&1 || true)"

if [ "$failures" -gt 0 ]; then echo "check-docs: $failures failed, $passed passed" >&2; exit 1; fi
echo "check-docs: $passed checks passed"

# bash completion for creative-tool. Written by 'creative-tool help --format bash'; do not edit: scripts/generate-docs.sh rewrites it.
_creative_tool() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" options=""
    local commands="validate render slot select test-artwork guidance prompt process fix companion profiles serve worker enqueue"
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands help --help --version" -- "$cur")
        return 0
    fi
    case "${COMP_WORDS[1]}" in
        help)
            if [ "$prev" = --format ]; then _creative_tool_words 'markdown' 'man' 'bash' 'zsh'; return 0; fi
            options="--format"
            [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" != -* ]] && _creative_tool_words 'validate' 'render' 'slot' 'select' 'test-artwork' 'guidance' 'prompt' 'process' 'fix' 'companion' 'profiles' 'serve' 'worker' 'enqueue' ;;
        validate)
            case "$prev" in
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--product --profile --no-preflight --json --quiet --max-bytes --max-pixels --timeout --memory-budget --help" ;;
        render)
            case "$prev" in
                --device) _creative_tool_words 'iPhone SE' 'iPhone 8' 'iPhone 14' 'iPhone 15' 'iPhone 11' 'iPhone 13 Pro Max' 'iPhone 15 Plus' 'iPad mini' 'iPad 9th gen' 'iPad Air' 'iPad Pro 11' 'iPad Pro 12.9' 'Android phone' 'Android Pixel'; return 0 ;;
                --orientation) _creative_tool_words 'portrait' 'landscape'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --format) _creative_tool_words 'png' 'jpeg' 'webp' 'avif' 'auto'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
                --output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--slot --scale --device --orientation --product --background --format --formats --quality --lossless --effort --weight-budget --profile --no-enlarge --output --json --cost --verbose --quiet --max-bytes --max-pixels --timeout --memory-budget --help" ;;
        slot)
            case "$prev" in
                --rule) _creative_tool_words 'qartvelo' 'google'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --device) _creative_tool_words 'iPhone SE' 'iPhone 8' 'iPhone 14' 'iPhone 15' 'iPhone 11' 'iPhone 13 Pro Max' 'iPhone 15 Plus' 'iPad mini' 'iPad 9th gen' 'iPad Air' 'iPad Pro 11' 'iPad Pro 12.9' 'Android phone' 'Android Pixel'; return 0 ;;
                --orientation) _creative_tool_words 'portrait' 'landscape'; return 0 ;;
            esac
            options="--width --screen-height --rule --inline --max-height --scale --product --device --orientation --json --help" ;;
        select)
            case "$prev" in
                --mode) _creative_tool_words 'anchored' 'inline' 'legacy' 'full_screen' 'standard_slot'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
            esac
            options="--width --height --mode --scale --product --max-pixels --json --help" ;;
        test-artwork)
            case "$prev" in
                --output-dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return 0 ;;
            esac
            options="--output-dir --redraw --quiet --help" ;;
        guidance)
            case "$prev" in
                --format) _creative_tool_words 'json' 'markdown' 'html'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--format --product --profile --brand --headline --cta --colors --help" ;;
        prompt)
            case "$prev" in
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
            esac
            options="--size --product --brand --headline --cta --colors --json --help" ;;
        process)
            case "$prev" in
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --format) _creative_tool_words 'png' 'jpeg' 'webp' 'avif' 'auto'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
                --output-dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return 0 ;;
            esac
            options="--product --format --formats --with --weight-budget --profile --output-dir --json --cost --verbose --quiet --max-bytes --max-pixels --timeout --memory-budget --help" ;;
        fix)
            case "$prev" in
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
                --format) _creative_tool_words 'png' 'jpeg' 'gif' 'webp'; return 0 ;;
                --output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--product --profile --size --frame --format --output --json --max-bytes --max-pixels --timeout --memory-budget --help" ;;
        companion)
            case "$prev" in
                --file) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" != -* ]] && { _creative_tool_words 'lint'; return 0; }
            options="--takeover --file --json --help" ;;
        profiles)
            options="--json --help" ;;
        serve)
            case "$prev" in
                --token-file) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--host --port --token-file --allow-unauthenticated --allowed-host --admin-host --admin-port --workers --queue --max-body-bytes --max-json-body-bytes --memory-budget --job-memory-budget --budget-wait --job-timeout --drain-timeout --idle-timeout --header-timeout --min-body-rate --max-connections --max-connections-per-client --max-inline-bytes --healthcheck --api-parameters --help" ;;
        worker)
            case "$prev" in
                --s3-addressing) _creative_tool_words 'path' 'virtual'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --format) _creative_tool_words 'png' 'jpeg' 'webp' 'avif' 'auto'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--redis --stream --results-stream --store --s3-endpoint --s3-addressing --group --consumer --dead-letter-stream --concurrency --visibility-timeout --max-deliveries --drain-timeout --retry-timeout --admin-host --admin-port --product --format --formats --with --weight-budget --profile --max-bytes --max-pixels --timeout --memory-budget --help" ;;
        enqueue)
            case "$prev" in
                --s3-addressing) _creative_tool_words 'path' 'virtual'; return 0 ;;
                --product) _creative_tool_words 'banner' 'interstitial' 'companion'; return 0 ;;
                --format) _creative_tool_words 'png' 'jpeg' 'webp' 'avif' 'auto'; return 0 ;;
                --profile) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
            esac
            options="--redis --stream --results-stream --store --s3-endpoint --s3-addressing --product --format --formats --with --weight-budget --profile --id --wait --wait-timeout --max-bytes --help" ;;
    esac
    if [[ "$cur" == -* ]]; then mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur"); fi
    return 0
}
# The words given (one argument each, spaces allowed) that start with the word being completed
# as typed, unquoted: `iPhone\ 1` and `"iPhone 1` are both `iPhone 1`. Readline then quotes
# what it inserts as it quotes a file name (`iPhone\ 15`, or inside the open quote), so a
# device name stays one argument.
_creative_tool_words() {
    local word cur="${COMP_WORDS[COMP_CWORD]}"
    cur="${cur#[\"\']}"
    cur="${cur//\\/}"
    compopt -o filenames 2>/dev/null
    for word in "$@"; do
        [[ "$word" == "$cur"* ]] && COMPREPLY+=("$word")
    done
}
complete -o default -F _creative_tool creative-tool

# Shared by the server-*.sh scripts (sourced, not run): send with liblo's oscsend and show what a
# KnobLink server answers, as liblo's oscdump prints it (without the time tags).
#
# listen PORT     starts oscdump on PORT (the server's feedback port, 9000 by default); exits
#                 with oscdump's error if the port is taken
# step ARGS...    prints "$ oscsend HOST PORT ARGS...", sends it, then prints what came back
# Environment: HOST (localhost), PORT (8000), WAIT (seconds to wait for answers, 0.3).

host="${HOST:-localhost}"
port="${PORT:-8000}"
wait_seconds="${WAIT:-0.3}"
dump_file="$(mktemp)"
dump_pid=""
shown_lines=0

stop_listening() {
    # SIGKILL: a shell started with SIGTERM ignored (by a test runner, say) cannot undo that,
    # and oscdump would inherit it and keep the port.
    # The job is disowned, so the shell prints no "Killed" line for it.
    if [ -n "$dump_pid" ]; then kill -KILL "$dump_pid" 2>/dev/null || true; fi
    rm -f "$dump_file"
}
trap stop_listening EXIT

listen() {
    oscdump -L "$1" >"$dump_file" 2>&1 &
    dump_pid=$!
    disown "$dump_pid"
    sleep 0.3
    # oscdump ends at once when it cannot bind (another listener has the port).
    if ! kill -0 "$dump_pid" 2>/dev/null; then
        dump_pid=""
        echo "$(basename "$0"): cannot listen on port $1:" >&2
        sed 's/^/  /' "$dump_file" >&2
        exit 1
    fi
}

step() {
    printf '$ oscsend %s %s' "$host" "$port"
    printf ' %q' "$@"
    printf '\n'
    oscsend "$host" "$port" "$@"
    sleep "$wait_seconds"
    local total
    total=$(wc -l <"$dump_file")
    if [ "$total" -gt "$shown_lines" ]; then
        tail -n +"$((shown_lines + 1))" "$dump_file" | head -n "$((total - shown_lines))" | cut -d' ' -f2- | sed 's/^/  /'
    else
        echo "  (nothing)"
    fi
    shown_lines=$total
}

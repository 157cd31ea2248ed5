#!/usr/bin/env bash
# Runs an Avahi daemon for the Zeroconf tests inside the private network namespace `klmdns`,
# which has only a loopback interface: mDNS cannot leave the machine (eth0 stays silent).
# Clients reach the daemon over the D-Bus system bus (a unix socket), from any namespace;
# direct mDNS peers (python zeroconf) must run with `ip netns exec klmdns`.
#
#   avahi-netns.sh start [STATE_DIR]   start dbus-daemon (unless the system bus answers) and
#                                      avahi-daemon in klmdns; idempotent; waits until the
#                                      daemon's host name is established
#   avahi-netns.sh stop [STATE_DIR]    stop our avahi-daemon, delete klmdns when it is empty;
#                                      the system bus is left running (other clients may use it)
#   avahi-netns.sh kill-avahi          stop the avahi-daemon only (the restart test)
#   avahi-netns.sh status              exit 0 when our daemon runs and answers on D-Bus
#
# Exit status 77 means "cannot run here" (not root, no network namespaces, a tool missing):
# the tests skip with the message printed on stderr. Any other failure is an error.
# Recipe: TESTING-RECIPES.md §2. Packages: Scripts/install-deps.sh.
set -euo pipefail

netns=klmdns
command=${1:-start}
state=${2:-${TMPDIR:-/tmp}/knoblink-zeroconf-avahi}
pidfile=/run/avahi-daemon/pid

skip() { echo "avahi-netns: cannot run here: $*" >&2; exit 77; }
fail() { echo "avahi-netns: $*" >&2; exit 1; }

# The avahi-daemon that the pid file names, if it is alive.
avahi_pid() {
    local pid
    [ -r "$pidfile" ] || return 1
    pid=$(cat "$pidfile" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

# Whether the daemon answers on the system bus and its server is RUNNING (state 2).
avahi_answers() {
    dbus-send --system --dest=org.freedesktop.Avahi --print-reply --reply-timeout=500 / \
        org.freedesktop.Avahi.Server.GetState 2>/dev/null | grep -q 'int32 2'
}

system_bus_answers() {
    dbus-send --system --dest=org.freedesktop.DBus --print-reply --reply-timeout=500 / \
        org.freedesktop.DBus.GetId >/dev/null 2>&1
}

# Runs a command that forks a daemon with every descriptor above 2 closed. A daemon keeps what
# it inherits for as long as it lives, and the caller's descriptors are not ours to keep: the
# tests run this script through Foundation's Process, which learns that a child has exited when
# the child's end of a socket pair closes. dbus-daemon --fork kept that socket, so the test that
# started it waited for the end of a script that had long exited, until CI's time ran out.
without_inherited_fds() {
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
        done
        exec "$@"
    )
}

stop_avahi() {
    local pid
    pid=$(avahi_pid) || { rm -f "$pidfile"; return 0; }
    [ "$(ip netns identify "$pid" 2>/dev/null)" = "$netns" ] \
        || fail "the avahi-daemon $pid runs outside $netns; not ours, not stopping it"
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; sleep 0.1; fi
    rm -f "$pidfile"
}

start() {
    [ "$(id -u)" -eq 0 ] || skip "not root (network namespaces and the system bus need it)"
    for tool in ip dbus-daemon dbus-send avahi-daemon avahi-browse; do
        command -v "$tool" >/dev/null 2>&1 || skip "$tool is missing (Scripts/install-deps.sh installs it)"
    done
    mkdir -p "$state"
    if ! ip netns list | grep -qw "$netns"; then
        ip netns add "$netns" 2>"$state/netns.err" || skip "ip netns add $netns failed: $(cat "$state/netns.err")"
    fi
    ip netns exec "$netns" ip link set lo up || skip "cannot bring up lo in $netns"
    # The whole point of the namespace: nothing but loopback, so no mDNS leaves the machine.
    links=$(ip netns exec "$netns" ip -o link show | grep -vc ': lo:' || true)
    [ "$links" -eq 0 ] || fail "$netns has interfaces besides lo; refusing to run mDNS there"

    if ! system_bus_answers; then
        mkdir -p /run/dbus
        # A stale pid file makes dbus-daemon --system refuse to start.
        rm -f /run/dbus/pid /run/dbus/system_bus_socket
        without_inherited_fds dbus-daemon --system --fork --print-pid >"$state/dbus.pid"
        for _ in $(seq 50); do system_bus_answers && break; sleep 0.1; done
        system_bus_answers || fail "dbus-daemon --system started but does not answer"
    fi

    if pid=$(avahi_pid); then
        [ "$(ip netns identify "$pid" 2>/dev/null)" = "$netns" ] \
            || fail "an avahi-daemon ($pid) runs outside $netns; stop it first (avahi-daemon --kill)"
    else
        rm -f "$pidfile"
        cat >"$state/avahi-daemon.conf" <<'EOF'
[server]
host-name=klmdns
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces=lo
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
EOF
        without_inherited_fds ip netns exec "$netns" avahi-daemon --no-drop-root --no-rlimits --no-chroot \
            -f "$state/avahi-daemon.conf" -D
    fi
    for _ in $(seq 100); do avahi_answers && return 0; sleep 0.05; done
    fail "avahi-daemon started in $netns but its server is not running after 5 s"
}

stop() {
    command -v ip >/dev/null 2>&1 || return 0
    stop_avahi
    if ip netns list 2>/dev/null | grep -qw "$netns" && [ -z "$(ip netns pids "$netns" 2>/dev/null)" ]; then
        ip netns del "$netns"
    fi
}

case "$command" in
start) start ;;
stop) stop ;;
kill-avahi) stop_avahi ;;
status) pid=$(avahi_pid) && [ "$(ip netns identify "$pid")" = "$netns" ] && avahi_answers ;;
*) fail "unknown command '$command' (start, stop, kill-avahi, status)" ;;
esac

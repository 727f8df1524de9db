#!/usr/bin/env bash
# The terminal tests (TerminalTests, DocExampleTests, the completion checks) run the tool on a
# pseudo-terminal. A machine whose /dev was bind-mounted into a chroot without its submounts has
# no /dev/pts, so no pseudo-terminal can be opened: as root, mount a devpts instance there, as
# every ordinary machine has one. Otherwise say why the terminal tests will fail (never a skip).
set -u
can_open() { python3 -c 'import os; os.openpty()' 2>/dev/null; }
can_open && exit 0
if [ "$(id -u)" -eq 0 ] && [ -d /dev/pts ] && mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts /dev/pts 2>/dev/null && can_open; then
    echo "ensure-pty: mounted a devpts instance on /dev/pts (no pseudo-terminal could be opened)"
    exit 0
fi
echo "ensure-pty: no pseudo-terminal can be opened here (/dev/pts); the terminal tests will fail" >&2
exit 1

#!/usr/bin/env python3
"""Runs a command on a new pty inside the current terminal and types a
script into it (for screenshots): drive.py 'STEPS' CMD ARGS...
STEPS: ';;'-separated items, each 'sleep:SECONDS' or text to type ('\\r' = Enter)."""
import fcntl, os, pty, select, struct, sys, termios, threading, time, tty

steps, cmd = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
# The child's terminal gets our size, including the pixel size sixel needs.
ws = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8)
fcntl.ioctl(fd, termios.TIOCSWINSZ, ws)
old = termios.tcgetattr(0)
tty.setraw(0)

def typist():
    for step in steps.split(";;"):
        if step.startswith("sleep:"):
            time.sleep(float(step[6:]))
        else:
            for ch in step.replace("\\r", "\r").replace("\\e", "\x1b"):
                os.write(fd, ch.encode())
                time.sleep(0.02)

threading.Thread(target=typist, daemon=True).start()
try:
    while True:
        r, _, _ = select.select([0, fd], [], [])
        if fd in r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            os.write(1, data)
        if 0 in r:
            os.write(fd, os.read(0, 1024))
finally:
    termios.tcsetattr(0, termios.TCSADRAIN, old)

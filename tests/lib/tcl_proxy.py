"""A proxy between `bench` and a real OpenOCD's TCL port that puts a fault at one exact point of
the conversation, so a test never orders events with a sleep (issue 26).

OpenOCD's TCL RPC is request/reply: a command ends at byte 0x1a, so does its reply (OpenOCD 0.12
src/server/tcl_server.c). The proxy forwards each command to OpenOCD, reads its reply, and for the
first command matching the rule (the `nth` match; a glob with * and ?, else a substring) acts while
that reply is held, i.e. while the command is in flight as bench sees it:
  - "signal": sends `sig` to `pid`, waits until the kernel has delivered it (the signal is no longer
    pending in /proc/PID/status, so bench's handler has run), then forwards the reply late, as a slow
    probe would;
  - "drop": closes both sides of that connection (a lost link), the reply never arrives;
  - "hold": keeps the reply until bench closes the connection (OpenOCD that stopped answering);
  - "delay": forwards the reply `delay_s` seconds late (a slow link or a loaded host: the host's
    clock sees a longer time between two halts than the target ran).
Other connections (bench reconnecting after a loss) are forwarded plainly.

    with TclProxy(ocd_port, "cortex_m maskisr on", "signal", pid_fn=lambda: p.pid) as px:
        ... bench --openocd 127.0.0.1:{px.port} ...
    px.fired  # the rule matched: a test that never reached its fault must fail, not pass

Only the standard library."""
import fnmatch
import os
import signal
import socket
import threading
import time

EOM = b"\x1a"
_SIG_DELIVERY_S = 30.0  # a bound, not an ordering: bench takes a signal within microseconds


def _pending(pid, sig):
    """Whether SIG is still pending for PID (SigPnd: the thread's, ShdPnd: the process's)."""
    bit = 1 << (sig - 1)
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("SigPnd:", "ShdPnd:")) and int(line.split()[1], 16) & bit:
                    return True
    except OSError:
        return False  # the process is gone: nothing is pending any more
    return False


def _recv_frame(sock, buf):
    """One 0x1a-ended frame from sock (buf: bytes already read past the last frame); (frame or None
    at end of stream, the rest)."""
    while EOM not in buf:
        try:
            chunk = sock.recv(65536)
        except OSError:
            return None, b""
        if not chunk:
            return None, b""
        buf += chunk
    i = buf.index(EOM)
    return buf[:i + 1], buf[i + 1:]


class TclProxy:
    def __init__(self, upstream_port, pattern, action, pid_fn=None, sig=signal.SIGTERM, nth=1, delay_s=0.0):
        self.upstream = ("127.0.0.1", upstream_port)
        self.delay_s = delay_s
        self.pattern, self.action, self.pid_fn, self.sig, self.nth = pattern, action, pid_fn, sig, nth
        self.matches = 0
        self.fired = None  # the command the fault was put on
        self.delivered = None  # True once the signal was seen delivered; False: not within the bound
        self.commands = []  # every command seen, in order, for a failing test's message
        self.lock = threading.Lock()
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(8)
        self.port = self.srv.getsockname()[1]
        self.stop = False
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.stop = True
        try:
            self.srv.close()
        except OSError:
            pass

    def _matches(self, cmd):
        text = cmd.decode(errors="replace")
        hit = fnmatch.fnmatchcase(text, self.pattern) if any(c in self.pattern for c in "*?[") \
            else self.pattern in text
        with self.lock:
            self.commands.append(text.rstrip("\x1a"))
            if not hit or self.fired is not None:
                return False
            self.matches += 1
            if self.matches < self.nth:
                return False
            self.fired = text.rstrip("\x1a")
            return True

    def _accept(self):
        while not self.stop:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            t = threading.Thread(target=self._serve, args=(c,), daemon=True)
            self.threads.append(t)
            t.start()

    def _serve(self, client):
        try:
            up = socket.create_connection(self.upstream, timeout=None)
        except OSError:
            client.close()
            return
        cbuf = ubuf = b""
        try:
            while True:
                cmd, cbuf = _recv_frame(client, cbuf)
                if cmd is None:
                    return
                fire = self._matches(cmd)
                up.sendall(cmd)
                reply, ubuf = _recv_frame(up, ubuf)
                if reply is None:
                    return
                if fire and not self._fault(client):
                    return
                client.sendall(reply)
        except OSError:
            return
        finally:
            for s in (client, up):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def _fault(self, client):
        """The rule's action with the reply held; False: the connection ends here."""
        if self.action == "signal":
            pid = self.pid_fn()
            os.kill(pid, self.sig)
            deadline = time.monotonic() + _SIG_DELIVERY_S
            while _pending(pid, self.sig) and time.monotonic() < deadline:
                time.sleep(0.001)
            self.delivered = not _pending(pid, self.sig)
            return True
        if self.action == "drop":
            return False
        if self.action == "delay":
            time.sleep(self.delay_s)  # the fault itself is the lateness, not an ordering
            return True
        if self.action == "hold":
            # Nothing more comes back on this connection: wait for bench to close it (what it
            # sends meanwhile is dropped, as OpenOCD stuck in a command would never read it).
            while client.recv(65536):
                pass
            return False
        raise ValueError(f"unknown action {self.action}")

#!/usr/bin/python3
"""Server-Sent Events fan-out of `lyricposter serve --follow`, for scripts/bench-serve.sh.

    bench-serve-sse.py PORT CLIENTS SECONDS SERVER_PID

Opens CLIENTS connections to http://127.0.0.1:PORT/events (64 connecting at a time), then, once
all have their response headers, listens for SECONDS. The clients are raw non-blocking sockets on
one asyncio loop. Every `event: poster` gets two receive times: the kernel's (SO_TIMESTAMPNS, when
its bytes reached the socket: what the server's fan-out took) and the time this process read it
(which adds this process's own work, on the same cores as the server). Only posters first seen
after the last client connected count: those in each client's opening burst would measure the
connection ramp, not the fan-out. The server's VmRSS and VmHWM are read from
/proc/SERVER_PID/status at the end of the window, with the clients still connected.

Prints two lines: the clients, what they received, and the fan-out spread (per poster: the last
client's receive time minus the first's; p50, p99 and max over posters, in ms); then the server's
memory.
"""

import asyncio
import json
import socket
import struct
import sys
import time

REQUEST = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
# Linux's SO_TIMESTAMPNS (also the control message's type); Python does not name it.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


class Client:
    unstamped = 0  # reads that came without a kernel time (then the read time stands in)

    def __init__(self, loop):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.setblocking(False)
        self.headers = loop.create_future()
        self.buffer = b""
        self.in_head = True
        self.chunked = False
        self.chunk_left = None  # bytes left in the current chunk; None: a size line comes next
        self.text = b""
        self.posters = {}  # poster address -> (kernel receive time, read time), first arrival
        self.events = 0
        self.closed = False

    def readable(self):
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self.close(error)
            return
        read = time.time()
        kernel = None
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= 16:
                seconds, nanoseconds = struct.unpack("qq", payload[:16])
                kernel = seconds + nanoseconds / 1e9
        if kernel is None:
            Client.unstamped += 1
            kernel = read
        if not data:
            self.close(ConnectionError("closed by the server"))
            return
        self.buffer += data
        if self.in_head:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].decode("latin-1")
            self.buffer = self.buffer[end + 4:]
            self.in_head = False
            self.chunked = "transfer-encoding: chunked" in head.lower()
            if not self.headers.done():
                self.headers.set_result(int(head.split(" ", 2)[1]))
        self.dechunk()
        self.read_events(kernel, read)

    def close(self, error=None):
        if self.closed:
            return
        self.closed = True
        asyncio.get_running_loop().remove_reader(self.sock)
        self.sock.close()
        if not self.headers.done():
            self.headers.set_exception(error or ConnectionError("closed before the response"))

    def dechunk(self):
        if not self.chunked:
            self.text += self.buffer
            self.buffer = b""
            return
        while self.buffer:
            if self.chunk_left is None:
                end = self.buffer.find(b"\r\n")
                if end < 0:
                    return
                line = self.buffer[:end]
                self.buffer = self.buffer[end + 2:]
                if line:  # an empty line is the CRLF after a chunk's data
                    self.chunk_left = int(line.split(b";")[0], 16)
                    if self.chunk_left == 0:
                        self.chunk_left = None
                        return
            else:
                part = self.buffer[:self.chunk_left]
                self.buffer = self.buffer[len(part):]
                self.text += part
                self.chunk_left -= len(part)
                if self.chunk_left == 0:
                    self.chunk_left = None

    def read_events(self, kernel, read):
        while True:
            end = self.text.find(b"\n\n")
            if end < 0:
                return
            message = self.text[:end].decode("utf-8", "replace")
            self.text = self.text[end + 2:]
            name, data = None, ""
            for line in message.split("\n"):
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data += line[5:].strip()
            if name is None:
                continue
            self.events += 1
            if name == "poster":
                key = json.loads(data).get("poster") if data else None
                self.posters.setdefault(key, (kernel, read))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def memory(pid):
    fields = {}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return fields


def spread_text(spreads):
    return f"p50 {percentile(spreads, 50):.1f} ms p99 {percentile(spreads, 99):.1f} ms max {max(spreads):.1f} ms"


async def main(port, count, seconds, pid):
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(64)
    clients, refused = [], {}

    def refuse(why):
        refused[why] = refused.get(why, 0) + 1

    async def open_one():
        async with gate:
            client = Client(loop)
            try:
                await asyncio.wait_for(loop.sock_connect(client.sock, ("127.0.0.1", port)), 10)
                client.sock.send(REQUEST)
                loop.add_reader(client.sock, client.readable)
                status = await asyncio.wait_for(client.headers, 10)
            except (OSError, asyncio.TimeoutError) as error:
                client.close()
                refuse(type(error).__name__)
                return
            if status == 200:
                clients.append(client)
            else:
                client.close()
                refuse(f"HTTP {status}")

    ramp_start = time.time()
    await asyncio.gather(*(open_one() for _ in range(count)))
    connected_at = time.time()
    await asyncio.sleep(seconds)
    rss = memory(pid)
    for client in clients:
        client.close()

    first = {}
    for client in clients:
        for key, (_, read) in client.posters.items():
            first[key] = min(first.get(key, read), read)
    live = [key for key, at in first.items() if at >= connected_at]
    kernel_spreads, read_spreads, reached = [], [], []
    for key in live:
        times = [client.posters[key] for client in clients if key in client.posters]
        reached.append(len(times))
        kernel_spreads.append((max(t[0] for t in times) - min(t[0] for t in times)) * 1000)
        read_spreads.append((max(t[1] for t in times) - min(t[1] for t in times)) * 1000)
    per_client = [sum(1 for key in live if key in client.posters) for client in clients] or [0]

    line = (f"sse fan-out: {len(clients)}/{count} clients connected in {(connected_at - ramp_start) * 1000:.0f} ms"
            + (f" (refused: {', '.join(f'{n} {why}' for why, n in sorted(refused.items()))})" if refused else "")
            + f", {len(live)} posters in {seconds:g} s, posters/client min {min(per_client)} max {max(per_client)}"
            + f", events/client (all kinds, opening included) {sum(c.events for c in clients) / max(1, len(clients)):.1f}")
    if live:
        line += (f" | spread last-first client, kernel receive time: {spread_text(kernel_spreads)};"
                 f" as read by the clients: {spread_text(read_spreads)} (each poster reached min {min(reached)} clients)"
                 + (f" ({Client.unstamped} reads had no kernel time)" if Client.unstamped else ""))
    else:
        line += " | spread: no poster arrived in the window"
    print(line)
    print(f"sse serve memory with {len(clients)} clients: VmRSS {rss.get('VmRSS', 0):.1f} MiB, VmHWM {rss.get('VmHWM', 0):.1f} MiB")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: bench-serve-sse.py PORT CLIENTS SECONDS SERVER_PID")
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])))

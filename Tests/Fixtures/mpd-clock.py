#!/usr/bin/env python3
"""Samples an MPD server's own clock from outside `follow`, for FollowMPDTests.

Connects to MPD (host and port, or a socket path) with its own small client, sends `status`
every few milliseconds and appends one JSON line per sample to the output file:
{"wall_ms": <time.time() in ms, the clock follow's events use>, "elapsed_ms": ..., "state": ...,
 "songid": ...}. Each sample's wall time is the middle of its request. Runs until killed.
"""
import json
import socket
import sys
import time


def connect(target, password):
    if target.startswith("/"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(target)
    else:
        host, port = target.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stream = sock.makefile("rwb", buffering=0)
    greeting = stream.readline()
    assert greeting.startswith(b"OK MPD"), greeting
    if password:
        answer = command(sock, stream, "password " + json.dumps(password))
        assert answer is not None, "password refused"
    return sock, stream


def command(sock, stream, line):
    sock.sendall(line.encode() + b"\n")
    pairs = {}
    while True:
        reply = stream.readline()
        if not reply:
            raise ConnectionError("closed")
        reply = reply.decode().rstrip("\n")
        if reply == "OK":
            return pairs
        if reply.startswith("ACK"):
            return None
        key, _, value = reply.partition(": ")
        pairs[key] = value


def main():
    target, out = sys.argv[1], sys.argv[2]
    password = sys.argv[3] if len(sys.argv) > 3 else None
    with open(out, "a", buffering=1) as log:
        while True:
            try:
                sock, stream = connect(target, password)
                while True:
                    before = time.time()
                    status = command(sock, stream, "status")
                    after = time.time()
                    if status is None:
                        break
                    sample = {"wall_ms": (before + after) / 2 * 1000, "state": status.get("state"),
                              "songid": status.get("songid")}
                    if "elapsed" in status:
                        sample["elapsed_ms"] = float(status["elapsed"]) * 1000
                    log.write(json.dumps(sample) + "\n")
                    time.sleep(0.004)
            except (OSError, ConnectionError, AssertionError):
                time.sleep(0.05)


if __name__ == "__main__":
    main()

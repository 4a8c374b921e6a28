#!/usr/bin/env python3
"""A small OpenSubsonic server for FollowSubsonicTests: the parts Debian's Supysonic lacks.

It speaks the OpenSubsonic JSON API for one user and one song: ping, getOpenSubsonicExtensions
(playbackReport and songLyrics), getNowPlaying with positionMs and playbackRate (as of the
answer, from its own clock), getLyricsBySongId (structured, synced, with an offset), getCoverArt.
Every request must be signed with a salted token (t = md5(password + s)); a plain password is
refused, and each salt may be used once. POST /control with JSON {"position_ms", "playing"}
seeks, pauses or plays; GET /clock says where its clock is now ({"wall_ms", "position_ms",
"playing"}); GET /log lists the methods called. Prints "ready PORT" when listening.

usage: opensubsonic-server.py USER PASSWORD COVER_PNG
"""
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

USER, PASSWORD, COVER = sys.argv[1], sys.argv[2], open(sys.argv[3], "rb").read()
SONG = {"id": "song-7", "parent": "album-1", "title": "Open Song", "artist": "Tester", "album": "Extensions",
        "coverArt": "cover-7", "duration": 40, "isDir": False, "type": "music"}
lock = threading.Lock()
clock = {"position_ms": 0.0, "anchor": time.time(), "playing": True}
salts = set()
calls = []


def position_now():
    with lock:
        if clock["playing"]:
            return clock["position_ms"] + (time.time() - clock["anchor"]) * 1000
        return clock["position_ms"]


def reply(handler, body, status=200, kind="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def ok(extra):
    return {"subsonic-response": {"status": "ok", "version": "1.16.1", "type": "fixture", "openSubsonic": True, **extra}}


def failed(code, message):
    return {"subsonic-response": {"status": "failed", "version": "1.16.1", "error": {"code": code, "message": message}}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/clock":
            with lock:
                playing = clock["playing"]
            return reply(self, {"wall_ms": time.time() * 1000, "position_ms": position_now(), "playing": playing})
        if url.path == "/log":
            return reply(self, calls)
        method = url.path.removeprefix("/rest/").removesuffix(".view")
        calls.append(method)
        if "p" in query:
            return reply(self, failed(41, "Token authentication required"))
        salt, token = query.get("s", ""), query.get("t", "")
        if query.get("u") != USER or not salt or hashlib.md5((PASSWORD + salt).encode()).hexdigest() != token:
            return reply(self, failed(40, "Wrong username or password"))
        with lock:
            if salt in salts:
                return reply(self, failed(40, "A salt used twice"))
            salts.add(salt)
        if method == "ping":
            return reply(self, ok({}))
        if method == "getOpenSubsonicExtensions":
            return reply(self, ok({"openSubsonicExtensions": [{"name": "playbackReport", "versions": [1]},
                                                              {"name": "songLyrics", "versions": [1]}]}))
        if method == "getNowPlaying":
            with lock:
                state = "playing" if clock["playing"] else "paused"
            entry = dict(SONG, username=USER, minutesAgo=0, playerId=1, playerName="phone",
                         positionMs=int(position_now()), playbackRate=1.0, state=state)
            return reply(self, ok({"nowPlaying": {"entry": [entry]}}))
        if method == "getLyricsBySongId":
            # An offset of +250 ms: each line shows 250 ms before its start.
            lines = [{"start": i * 1000 + 250, "value": "Open line %d" % i} for i in range(40)]
            return reply(self, ok({"lyricsList": {"structuredLyrics": [
                {"lang": "und", "synced": False, "line": [{"value": "unsynced"}]},
                {"lang": "eng", "synced": True, "offset": 250, "displayTitle": "Open Song", "line": lines}]}}))
        if method == "getCoverArt" and query.get("id") == "cover-7":
            return reply(self, COVER, kind="image/png")
        return reply(self, failed(70, "The requested data was not found"))

    def do_POST(self):
        if urlparse(self.path).path != "/control":
            return reply(self, {"error": "no"}, 404)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        now = position_now()
        with lock:
            clock["position_ms"] = float(body.get("position_ms", now))
            clock["anchor"] = time.time()
            clock["playing"] = bool(body.get("playing", clock["playing"]))
        return reply(self, {"ok": True})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("ready %d" % server.server_address[1], flush=True)
server.serve_forever()

#!/usr/bin/python3
"""Measures `lyricposter follow` from outside, on a real player's own clock.

    measure-lateness.py --player NAME --poster PATH --events PATH --seconds N [--offset MS]

For N seconds it reads the player's MPRIS Position over D-Bus every 10 ms and watches the poster
file every 5 ms. Players often report Position in steps (VLC: every ~250 ms), so the player's
clock is rebuilt from the instants the reported value steps (each exact to 5 ms) and the slope
between them: the clock at any instant is the last step's value advanced at the measured rate.
Each replacement of the poster file is matched, in order, with follow's `poster` events (the
--events JSON lines), and its lateness is the player's position at that instant minus the line's
start (minus --offset). Only line changes by the timer count (frame k then k+1 of one track).

Prints one JSON object: {"lateness_ms": [...], "median", "p95", "worst", "steps", "rate"}.
Needs Debian's python3-dbus; run it on the player's session bus (DBUS_SESSION_BUS_ADDRESS).
"""
import argparse
import json
import os
import sys
import time

import dbus


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--player", required=True)
    parser.add_argument("--poster", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--offset", type=float, default=0)
    args = parser.parse_args()

    bus = dbus.SessionBus()
    name = "org.mpris.MediaPlayer2." + args.player
    deadline = time.monotonic() + 20
    while True:
        try:
            proxy = bus.get_object(name, "/org/mpris/MediaPlayer2")
            props = dbus.Interface(proxy, "org.freedesktop.DBus.Properties")
            props.Get("org.mpris.MediaPlayer2.Player", "Position")
            break
        except dbus.exceptions.DBusException:
            if time.monotonic() > deadline:
                print(json.dumps({"error": "no player " + name}))
                return 1
            time.sleep(0.1)

    steps = []          # (monotonic s, position us): the instants the reported value changed
    changes = []        # monotonic s of each replacement of the poster file
    last_value = None
    last_read = None
    try:
        info = os.stat(args.poster)
        last_id = (info.st_ino, info.st_mtime_ns)   # already there: not a change
    except FileNotFoundError:
        last_id = None
    next_read = 0.0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        now = time.monotonic()
        try:
            info = os.stat(args.poster)
            ident = (info.st_ino, info.st_mtime_ns)
            if ident != last_id:
                changes.append(now)
                last_id = ident
        except FileNotFoundError:
            pass
        if now >= next_read:
            before = time.monotonic()
            try:
                value = int(props.Get("org.mpris.MediaPlayer2.Player", "Position"))
            except dbus.exceptions.DBusException:
                value = None
            after = time.monotonic()
            at = (before + after) / 2
            if value is not None:
                if last_value is not None and value != last_value and last_read is not None:
                    steps.append(((last_read + at) / 2, value))
                last_value, last_read = value, at
            next_read = now + 0.010
        time.sleep(0.005)

    # The player's rate from its steps (a least-squares slope over steps in one continuous run:
    # a jump back or far ahead starts a new run).
    def runs():
        run = []
        for step in steps:
            if run:
                dt = step[0] - run[-1][0]
                dp = (step[1] - run[-1][1]) / 1e6
                if dp < 0 or dp > dt * 4 + 1:
                    yield run
                    run = []
            run.append(step)
        if run:
            yield run

    segments = []
    for run in runs():
        if len(run) >= 2 and run[-1][0] - run[0][0] > 1:
            n = len(run)
            mt = sum(s[0] for s in run) / n
            mp = sum(s[1] for s in run) / n
            cov = sum((s[0] - mt) * (s[1] - mp) for s in run)
            var = sum((s[0] - mt) ** 2 for s in run)
            rate = cov / var / 1e6 if var > 0 else 1.0
        else:
            rate = 1.0
        segments.append((run, rate))

    def position_ms(t):
        for run, rate in segments:
            if run[0][0] <= t <= run[-1][0] + 2:
                previous = [s for s in run if s[0] <= t]
                if previous:
                    at, value = previous[-1]
                    return (value + (t - at) * 1e6 * rate) / 1000
        return None

    events = []
    with open(args.events, encoding="utf-8") as handle:
        for line in handle:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "poster":
                events.append(event)
    # The last replacements are the last events (follow may have placed posters before the watch).
    shift = len(events) - len(changes)
    lateness = []
    for k in range(max(1, -shift + 1) if shift < 0 else 1, len(changes)):
        if k + shift < 1 or k + shift >= len(events):
            continue
        a, b = events[k + shift - 1], events[k + shift]
        if b.get("frame") != a.get("frame", -2) + 1 or b.get("track") != a.get("track"):
            continue
        position = position_ms(changes[k])
        if position is None:
            continue
        lateness.append(round(position - b["start_ms"] - args.offset, 1))
    ordered = sorted(lateness)
    result = {"lateness_ms": lateness, "steps": len(steps), "changes": len(changes), "events": len(events),
              "rate": round(segments[-1][1], 4) if segments else None}
    if ordered:
        result["median"] = ordered[len(ordered) // 2]
        result["p95"] = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        result["worst"] = max(ordered, key=abs)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Deterministic MPRIS2 media player used by the LyricPoster tests.

The tests start this script, drive it with JSON commands on stdin (one per
line) and read JSON events from stdout (one per line, flushed at once).  It
owns org.mpris.MediaPlayer2.NAME on the session bus named by
DBUS_SESSION_BUS_ADDRESS and exports /org/mpris/MediaPlayer2.

Needs Debian's python3-dbus and python3-gi, so run it with /usr/bin/python3:

    mpris-player.py --name NAME [--identity TEXT] [--skew F] [--step-ms N] [--no-seeked]
        [--cannot CanSeek,CanGoNext,...]

--skew F: the player's clock runs at F x its Rate against wall time (0.97: 3 % slow), as real
players' clocks do; --step-ms N: Position is reported in steps (its value is updated every N ms,
as VLC's is), the clock itself stays continuous; --no-seeked: seeks send no Seeked signal (as
several players forget to); --cannot: those Can… properties are false (the player still obeys a
call, so a test sees whether one was made).

stdin commands (each answered with {"ack": "<cmd>"} once applied):
    {"cmd": "track", "metadata": {...}, "position_us": 0}
        replace Metadata with the keys given, set the position (default 0),
        emit PropertiesChanged(Metadata)
    {"cmd": "play"} / {"cmd": "pause"} / {"cmd": "stop"}
        change PlaybackStatus, emit PropertiesChanged(PlaybackStatus);
        stop also resets the position to 0
    {"cmd": "seek", "position_us": N}   set the position, emit Seeked(N)
        ("signal": false: no Seeked, whatever --no-seeked says)
    {"cmd": "rate", "rate": R}          set Rate, emit PropertiesChanged(Rate)
    {"cmd": "quit"}                     release the name and exit 0
EOF on stdin also releases the name and exits 0.

stdout events:
    {"ready": true, "name": "org.mpris.MediaPlayer2.NAME"}  name is owned
    {"called": "Pause"} or {"called": "Seek", "args": [...]} for every D-Bus
        method call on the root and Player interfaces and Properties.Set
    {"ack": "<cmd>"}                                 a stdin command applied
    {"clock": {"position_us", "mono", "speed", "playing"}}  after every change of the true
        clock: position_us at CLOCK_MONOTONIC time mono (seconds), advancing at speed (Rate x
        skew) while playing; what a test measures lateness against
    {"error": "...", "line": "..."}                  a stdin line was rejected

Position is not a stored number: it is an anchor (position_us, monotonic
time) advanced by Rate while Playing, frozen otherwise, and capped at
mpris:length when the track has one.
"""

import argparse
import json
import os
import signal
import sys
import time

import dbus
import dbus.exceptions
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

OBJECT_PATH = "/org/mpris/MediaPlayer2"
ROOT_IFACE = "org.mpris.MediaPlayer2"
PLAYER_IFACE = "org.mpris.MediaPlayer2.Player"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
INTROSPECT_IFACE = "org.freedesktop.DBus.Introspectable"
NO_TRACK = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

MIN_RATE = 0.25
MAX_RATE = 8.0

# Metadata keys whose D-Bus type is fixed by the MPRIS / xesam specs.
STRING_LIST_KEYS = {"xesam:artist", "xesam:albumArtist", "xesam:composer",
                    "xesam:genre", "xesam:lyricist", "xesam:comment"}
INT32_KEYS = {"xesam:trackNumber", "xesam:discNumber", "xesam:useCount",
              "xesam:audioBPM"}
INT64_KEYS = {"mpris:length"}
DOUBLE_KEYS = {"xesam:autoRating", "xesam:userRating"}
OBJECT_PATH_KEYS = {"mpris:trackid"}

INTROSPECTION_XML = """<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<node name="/org/mpris/MediaPlayer2">
  <interface name="org.freedesktop.DBus.Introspectable">
    <method name="Introspect">
      <arg name="xml_data" type="s" direction="out"/>
    </method>
  </interface>
  <interface name="org.freedesktop.DBus.Properties">
    <method name="Get">
      <arg name="interface_name" type="s" direction="in"/>
      <arg name="property_name" type="s" direction="in"/>
      <arg name="value" type="v" direction="out"/>
    </method>
    <method name="GetAll">
      <arg name="interface_name" type="s" direction="in"/>
      <arg name="properties" type="a{sv}" direction="out"/>
    </method>
    <method name="Set">
      <arg name="interface_name" type="s" direction="in"/>
      <arg name="property_name" type="s" direction="in"/>
      <arg name="value" type="v" direction="in"/>
    </method>
    <signal name="PropertiesChanged">
      <arg name="interface_name" type="s"/>
      <arg name="changed_properties" type="a{sv}"/>
      <arg name="invalidated_properties" type="as"/>
    </signal>
  </interface>
  <interface name="org.mpris.MediaPlayer2">
    <method name="Raise"/>
    <method name="Quit"/>
    <property name="CanQuit" type="b" access="read"/>
    <property name="CanRaise" type="b" access="read"/>
    <property name="HasTrackList" type="b" access="read"/>
    <property name="Identity" type="s" access="read"/>
    <property name="SupportedUriSchemes" type="as" access="read"/>
    <property name="SupportedMimeTypes" type="as" access="read"/>
  </interface>
  <interface name="org.mpris.MediaPlayer2.Player">
    <method name="Next"/>
    <method name="Previous"/>
    <method name="Pause"/>
    <method name="PlayPause"/>
    <method name="Stop"/>
    <method name="Play"/>
    <method name="Seek">
      <arg name="Offset" type="x" direction="in"/>
    </method>
    <method name="SetPosition">
      <arg name="TrackId" type="o" direction="in"/>
      <arg name="Position" type="x" direction="in"/>
    </method>
    <method name="OpenUri">
      <arg name="Uri" type="s" direction="in"/>
    </method>
    <signal name="Seeked">
      <arg name="Position" type="x"/>
    </signal>
    <property name="PlaybackStatus" type="s" access="read"/>
    <property name="LoopStatus" type="s" access="readwrite"/>
    <property name="Rate" type="d" access="readwrite"/>
    <property name="Shuffle" type="b" access="readwrite"/>
    <property name="Metadata" type="a{sv}" access="read"/>
    <property name="Volume" type="d" access="readwrite"/>
    <property name="Position" type="x" access="read"/>
    <property name="MinimumRate" type="d" access="read"/>
    <property name="MaximumRate" type="d" access="read"/>
    <property name="CanGoNext" type="b" access="read"/>
    <property name="CanGoPrevious" type="b" access="read"/>
    <property name="CanPlay" type="b" access="read"/>
    <property name="CanPause" type="b" access="read"/>
    <property name="CanSeek" type="b" access="read"/>
    <property name="CanControl" type="b" access="read"/>
  </interface>
</node>
"""


def emit(event):
    """Write one JSON event line to stdout and flush it."""
    try:
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass


def plain(value):
    """Turn dbus-python values into JSON-serialisable Python values."""
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return repr(value)


def dbus_error(kind, message):
    return dbus.exceptions.DBusException(message, name=kind)


def convert_metadata(raw):
    """Convert a JSON metadata object into a correctly typed a{sv}."""
    if not isinstance(raw, dict):
        raise ValueError("metadata must be a JSON object")
    out = dbus.Dictionary({}, signature="sv")
    for key, value in raw.items():
        if value is None:
            continue
        if key in OBJECT_PATH_KEYS:
            out[key] = dbus.ObjectPath(value)  # raises on an invalid path
        elif key in INT64_KEYS:
            out[key] = dbus.Int64(int(value))
        elif key in INT32_KEYS:
            out[key] = dbus.Int32(int(value))
        elif key in DOUBLE_KEYS:
            out[key] = dbus.Double(float(value))
        elif key in STRING_LIST_KEYS:
            items = value if isinstance(value, list) else [value]
            out[key] = dbus.Array([str(v) for v in items], signature="s")
        elif isinstance(value, bool):
            out[key] = dbus.Boolean(value)
        elif isinstance(value, int):
            out[key] = dbus.Int64(value)
        elif isinstance(value, float):
            out[key] = dbus.Double(value)
        elif isinstance(value, list):
            out[key] = dbus.Array([str(v) for v in value], signature="s")
        else:
            out[key] = dbus.String(str(value))
    return out


class Player(dbus.service.Object):
    skew = 1.0
    step_ms = 0
    send_seeked = True
    cannot = frozenset()

    def __init__(self, bus, identity, on_quit):
        super().__init__(bus, OBJECT_PATH)
        self._identity = identity
        self._on_quit = on_quit
        self.status = "Stopped"
        self.loop_status = "None"
        self.shuffle = False
        self.volume = 1.0
        self.rate = 1.0
        self.metadata = dbus.Dictionary(
            {"mpris:trackid": dbus.ObjectPath(NO_TRACK)}, signature="sv")
        self._anchor_pos = 0
        self._anchor_time = time.monotonic()

    # ---- position clock -------------------------------------------------
    def _length(self):
        length = self.metadata.get("mpris:length")
        return int(length) if length is not None and int(length) > 0 else None

    def position(self, at=None):
        """The true position at monotonic time `at` (now)."""
        pos = self._anchor_pos
        if self.status == "Playing":
            elapsed = (time.monotonic() if at is None else at) - self._anchor_time
            pos += int(elapsed * 1_000_000 * self.rate * self.skew)
        pos = max(0, pos)
        length = self._length()
        if length is not None:
            pos = min(pos, length)
        return pos

    def reported_position(self):
        """Position as D-Bus reports it: with --step-ms, the value of the last step."""
        if self.step_ms <= 0 or self.status != "Playing":
            return self.position()
        step = self.step_ms / 1000.0
        elapsed = time.monotonic() - self._anchor_time
        return self.position(self._anchor_time + int(elapsed / step) * step)

    def _reanchor(self, pos=None):
        self._anchor_pos = self.position() if pos is None else max(0, int(pos))
        self._anchor_time = time.monotonic()
        emit({"clock": {"position_us": self._anchor_pos, "mono": self._anchor_time,
                        "speed": self.rate * self.skew, "playing": self.status == "Playing"}})

    # ---- state changes shared by stdin commands and D-Bus methods ---------
    def _changed(self, iface, **props):
        self.PropertiesChanged(iface, dbus.Dictionary(props, signature="sv"),
                               dbus.Array([], signature="s"))

    def set_status(self, status):
        self._reanchor(0 if status == "Stopped" else None)
        if status != self.status:
            self.status = status
            self._reanchor(self._anchor_pos)
            self._changed(PLAYER_IFACE, PlaybackStatus=dbus.String(status))

    def seek_to(self, pos, signal=True):
        pos = max(0, int(pos))
        length = self._length()
        if length is not None:
            pos = min(pos, length)
        self._reanchor(pos)
        if signal and self.send_seeked:
            self.Seeked(dbus.Int64(pos))  # exactly the value set, not re-read

    def set_rate(self, rate):
        self._reanchor()
        self.rate = float(rate)
        self._reanchor(self._anchor_pos)
        self._changed(PLAYER_IFACE, Rate=dbus.Double(self.rate))

    def set_track(self, metadata, pos):
        self.metadata = metadata
        self._reanchor(pos)
        self._changed(PLAYER_IFACE, Metadata=self.metadata)

    # ---- properties -----------------------------------------------------
    def _props(self, iface):
        if iface == ROOT_IFACE:
            return {
                "CanQuit": dbus.Boolean(True),
                "CanRaise": dbus.Boolean(True),
                "HasTrackList": dbus.Boolean(False),
                "Identity": dbus.String(self._identity),
                "SupportedUriSchemes": dbus.Array(["file"], signature="s"),
                "SupportedMimeTypes": dbus.Array(
                    ["audio/mpeg", "audio/flac", "audio/ogg", "audio/mp4",
                     "audio/x-wav"], signature="s"),
            }
        if iface == PLAYER_IFACE:
            return {
                "PlaybackStatus": dbus.String(self.status),
                "LoopStatus": dbus.String(self.loop_status),
                "Rate": dbus.Double(self.rate),
                "Shuffle": dbus.Boolean(self.shuffle),
                "Metadata": self.metadata,
                "Volume": dbus.Double(self.volume),
                "Position": dbus.Int64(self.reported_position()),
                "MinimumRate": dbus.Double(MIN_RATE),
                "MaximumRate": dbus.Double(MAX_RATE),
                "CanGoNext": dbus.Boolean("CanGoNext" not in self.cannot),
                "CanGoPrevious": dbus.Boolean("CanGoPrevious" not in self.cannot),
                "CanPlay": dbus.Boolean("CanPlay" not in self.cannot),
                "CanPause": dbus.Boolean("CanPause" not in self.cannot),
                "CanSeek": dbus.Boolean("CanSeek" not in self.cannot),
                "CanControl": dbus.Boolean("CanControl" not in self.cannot),
            }
        raise dbus_error("org.freedesktop.DBus.Error.UnknownInterface",
                         "no such interface: %s" % iface)

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, iface, prop):
        props = self._props(iface)
        if prop not in props:
            raise dbus_error("org.freedesktop.DBus.Error.UnknownProperty",
                             "no such property: %s.%s" % (iface, prop))
        return props[prop]

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, iface):
        return dbus.Dictionary(self._props(iface), signature="sv")

    @dbus.service.method(PROPS_IFACE, in_signature="ssv", out_signature="")
    def Set(self, iface, prop, value):
        emit({"called": "Set", "args": [str(iface), str(prop), plain(value)]})
        props = self._props(iface)
        if prop not in props:
            raise dbus_error("org.freedesktop.DBus.Error.UnknownProperty",
                             "no such property: %s.%s" % (iface, prop))
        invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        if iface == PLAYER_IFACE and prop == "Rate":
            rate = float(value)
            if rate == 0.0:  # MPRIS: setting 0 acts like Pause
                self.set_status("Paused")
            elif not MIN_RATE <= rate <= MAX_RATE:
                raise dbus_error(invalid, "Rate out of range: %r" % rate)
            else:
                self.set_rate(rate)
        elif iface == PLAYER_IFACE and prop == "Volume":
            self.volume = max(0.0, float(value))
            self._changed(PLAYER_IFACE, Volume=dbus.Double(self.volume))
        elif iface == PLAYER_IFACE and prop == "LoopStatus":
            if str(value) not in ("None", "Track", "Playlist"):
                raise dbus_error(invalid, "bad LoopStatus: %s" % value)
            self.loop_status = str(value)
            self._changed(PLAYER_IFACE,
                          LoopStatus=dbus.String(self.loop_status))
        elif iface == PLAYER_IFACE and prop == "Shuffle":
            self.shuffle = bool(value)
            self._changed(PLAYER_IFACE, Shuffle=dbus.Boolean(self.shuffle))
        else:
            raise dbus_error("org.freedesktop.DBus.Error.PropertyReadOnly",
                             "read-only property: %s.%s" % (iface, prop))

    @dbus.service.signal(PROPS_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, iface, changed, invalidated):
        pass

    @dbus.service.method(INTROSPECT_IFACE, in_signature="", out_signature="s")
    def Introspect(self):
        return INTROSPECTION_XML

    # ---- org.mpris.MediaPlayer2 -----------------------------------------
    @dbus.service.method(ROOT_IFACE, in_signature="", out_signature="")
    def Raise(self):
        emit({"called": "Raise"})

    @dbus.service.method(ROOT_IFACE, in_signature="", out_signature="")
    def Quit(self):
        emit({"called": "Quit"})
        GLib.idle_add(self._on_quit)  # let the method reply go out first

    # ---- org.mpris.MediaPlayer2.Player ----------------------------------
    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def Next(self):
        emit({"called": "Next"})

    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def Previous(self):
        emit({"called": "Previous"})

    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def Pause(self):
        emit({"called": "Pause"})
        if self.status == "Playing":
            self.set_status("Paused")

    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def PlayPause(self):
        emit({"called": "PlayPause"})
        self.set_status("Paused" if self.status == "Playing" else "Playing")

    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def Stop(self):
        emit({"called": "Stop"})
        self.set_status("Stopped")

    @dbus.service.method(PLAYER_IFACE, in_signature="", out_signature="")
    def Play(self):
        emit({"called": "Play"})
        self.set_status("Playing")

    @dbus.service.method(PLAYER_IFACE, in_signature="x", out_signature="")
    def Seek(self, offset):
        emit({"called": "Seek", "args": [int(offset)]})
        self.seek_to(self.position() + int(offset))  # clamped to [0, length]

    @dbus.service.method(PLAYER_IFACE, in_signature="ox", out_signature="")
    def SetPosition(self, trackid, pos):
        emit({"called": "SetPosition", "args": [str(trackid), int(pos)]})
        length = self._length()
        if str(trackid) != str(self.metadata.get("mpris:trackid", "")):
            return  # stale track id: ignored, as MPRIS requires
        if pos < 0 or (length is not None and pos > length):
            return
        self.seek_to(int(pos))

    @dbus.service.method(PLAYER_IFACE, in_signature="s", out_signature="")
    def OpenUri(self, uri):
        emit({"called": "OpenUri", "args": [str(uri)]})

    @dbus.service.signal(PLAYER_IFACE, signature="x")
    def Seeked(self, position):
        pass


class App:
    def __init__(self, args):
        self.loop = GLib.MainLoop()
        self.bus = dbus.SessionBus()
        self.name = "org.mpris.MediaPlayer2." + args.name
        self.player = Player(self.bus, args.identity or args.name,
                             self.shutdown)
        self.bus_name = dbus.service.BusName(self.name, self.bus,
                                             do_not_queue=True)
        self._buf = b""
        self._done = False
        GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT,
                          GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR,
                          self._on_stdin)
        for sig in (signal.SIGTERM, signal.SIGINT):
            GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, self.shutdown)
        emit({"ready": True, "name": self.name})

    def shutdown(self, ack=None):
        """Release the bus name (the player vanishes) and stop the loop."""
        if self._done:
            return False
        self._done = True
        try:
            self.bus.release_name(self.name)
            self.bus.flush()
        except dbus.exceptions.DBusException:
            pass
        if ack:
            emit({"ack": ack})
        self.loop.quit()
        return False

    def _on_stdin(self, fd, condition):
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if chunk:
            self._buf += chunk
            while b"\n" in self._buf and not self._done:
                line, self._buf = self._buf.split(b"\n", 1)
                self._handle(line)
            return not self._done
        if self._buf.strip() and not self._done:  # last line had no newline
            self._handle(self._buf)
        self._buf = b""
        self.shutdown()  # EOF
        return False

    def _handle(self, raw):
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            return
        try:
            msg = json.loads(text)
            cmd = msg["cmd"]
            player = self.player
            if cmd == "track":
                player.set_track(convert_metadata(msg.get("metadata", {})),
                                 int(msg.get("position_us", 0)))
            elif cmd == "play":
                player.set_status("Playing")
            elif cmd == "pause":
                player.set_status("Paused")
            elif cmd == "stop":
                player.set_status("Stopped")
            elif cmd == "seek":
                player.seek_to(int(msg["position_us"]), signal=msg.get("signal", True))
            elif cmd == "rate":
                player.set_rate(float(msg["rate"]))
            elif cmd == "quit":
                self.shutdown(ack="quit")
                return
            else:
                raise ValueError("unknown cmd %r" % (cmd,))
        except Exception as exc:  # report and keep running
            emit({"error": "%s: %s" % (type(exc).__name__, exc),
                  "line": text})
            return
        emit({"ack": cmd})

    def run(self):
        self.loop.run()


def main():
    parser = argparse.ArgumentParser(
        description="Deterministic MPRIS2 player for the LyricPoster tests.")
    parser.add_argument("--name", required=True,
                        help="bus name suffix: org.mpris.MediaPlayer2.NAME")
    parser.add_argument("--identity", default=None,
                        help="Identity property (default: NAME)")
    parser.add_argument("--skew", type=float, default=1.0,
                        help="the clock runs at SKEW x Rate against wall time")
    parser.add_argument("--step-ms", type=int, default=0,
                        help="report Position in steps of this many ms")
    parser.add_argument("--no-seeked", action="store_true",
                        help="send no Seeked signal on seeks")
    parser.add_argument("--cannot", default="",
                        help="Can… properties reported false, comma-separated (CanSeek,CanGoNext)")
    args = parser.parse_args()
    Player.cannot = set(filter(None, args.cannot.split(",")))
    Player.skew = args.skew
    Player.step_ms = args.step_ms
    Player.send_seeked = not args.no_seeked
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    try:
        app = App(args)
    except dbus.exceptions.NameExistsException as exc:
        sys.stderr.write("mpris-player: name already owned: %s\n" % exc)
        return 1
    except dbus.exceptions.DBusException as exc:
        sys.stderr.write("mpris-player: %s\n" % exc)
        return 1
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

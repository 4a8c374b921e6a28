#!/usr/bin/python3
"""Build a local SQLite database laid out like a dump of LRCLIB.

LRCLIB (https://lrclib.net, server: github.com/tranxuanthang/lrclib) is the
public synced-lyrics database.  LyricPoster's tests and benchmark read a local
copy of it; this script writes a small, deterministic stand-in with the same
schema (LRCLIB's migration 01: tables, triggers, FTS5 index, indexes).

Usage:
    make-lrclib-db.py OUT.sqlite3 [--tracks N]   build OUT (refuses to overwrite)
    make-lrclib-db.py --check FILE               integrity check and row counts

The database always starts with eight known tracks (ids 1..8, see KNOWN_TRACKS)
and is followed by N generated filler tracks (default 0), produced by
random.Random(56) so that the same N always gives the same rows.

tracks -- one row per (title, artist, album, duration):
    id                 INTEGER, 1.. in insertion order
    name               track title as published ("Café Señor")
    name_lower         prepare_input(name) ("cafe senor"); used for lookups
    artist_name        artist as published
    artist_name_lower  prepare_input(artist_name)
    album_name         album as published, NULL when the track has no album
    album_name_lower   prepare_input(album_name), NULL when album_name is NULL
    duration           track length in seconds (FLOAT, e.g. 150.5)
    last_lyrics_id     lyrics.id of the newest lyrics row of this track
    created_at         '2024-01-01T00:00:00Z' (fixed, so output is deterministic)
    updated_at         same
lyrics -- one or more rows per track (the newest one is tracks.last_lyrics_id):
    id                 INTEGER, 1.. in insertion order
    plain_lyrics       lyrics text without time stamps, or NULL
    synced_lyrics      LRC text ("[mm:ss.xx]line\\n" per line), or NULL
    track_id           tracks.id
    has_plain_lyrics   1 when plain_lyrics is not NULL, else 0
    has_synced_lyrics  1 when synced_lyrics is not NULL, else 0
    instrumental       1 for an instrumental (both texts NULL), else 0
    source             'lrclib'
    created_at         '2024-01-01T00:00:00Z'
    updated_at         same
tracks_fts -- FTS5 external-content index over tracks(name_lower,
    album_name_lower, artist_name_lower), rowid = tracks.id.

The *_lower columns use prepare_input(), a re-implementation of LRCLIB's
server/src/utils.rs prepare_input(); see its docstring for the known limits.
"""

import argparse
import os
import random
import re
import sqlite3
import sys
import time
import unicodedata

STAMP = '2024-01-01T00:00:00Z'

SCHEMA_TABLES = """
CREATE TABLE tracks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT,
  name_lower TEXT,
  artist_name TEXT,
  artist_name_lower TEXT,
  album_name TEXT,
  album_name_lower TEXT,
  duration FLOAT,
  last_lyrics_id INTEGER,
  created_at DATETIME,
  updated_at DATETIME,
  FOREIGN KEY (last_lyrics_id) REFERENCES lyrics (id),
  UNIQUE(name_lower, artist_name_lower, album_name_lower, duration)
);
CREATE TABLE lyrics (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  plain_lyrics TEXT,
  synced_lyrics TEXT,
  track_id INTEGER,
  has_plain_lyrics BOOLEAN,
  has_synced_lyrics BOOLEAN,
  instrumental BOOLEAN,
  source TEXT,
  created_at DATETIME,
  updated_at DATETIME,
  FOREIGN KEY (track_id) REFERENCES tracks (id)
);
CREATE VIRTUAL TABLE tracks_fts USING fts5(
  name_lower,
  album_name_lower,
  artist_name_lower,
  content='tracks',
  content_rowid='id'
);
"""

# Created after the bulk insert (faster than maintaining them row by row).
SCHEMA_INDEXES = """
CREATE INDEX idx_tracks_name_lower ON tracks (name_lower);
CREATE INDEX idx_tracks_artist_name_lower ON tracks (artist_name_lower);
CREATE INDEX idx_tracks_album_name_lower ON tracks (album_name_lower);
CREATE INDEX idx_tracks_duration ON tracks (duration);
CREATE INDEX idx_tracks_last_lyrics_id ON tracks (last_lyrics_id);
CREATE INDEX idx_lyrics_track_id ON lyrics (track_id);
CREATE INDEX idx_lyrics_has_plain_lyrics ON lyrics (has_plain_lyrics);
CREATE INDEX idx_lyrics_has_synced_lyrics ON lyrics (has_synced_lyrics);
CREATE INDEX idx_lyrics_source ON lyrics (source);
"""

# Created last, once tracks_fts is rebuilt and last_lyrics_id is set, so that
# later writes (tests that insert rows) behave as on the LRCLIB server.  The
# three tracks_* triggers keeping tracks_fts in sync are part of LRCLIB's
# migration 01 as well.
SCHEMA_TRIGGERS = """
CREATE TRIGGER set_tracks_last_lyrics_id
AFTER INSERT ON lyrics
BEGIN
  UPDATE tracks SET last_lyrics_id = NEW.id WHERE tracks.id = NEW.track_id;
END;
CREATE TRIGGER tracks_ai AFTER INSERT ON tracks
BEGIN
  INSERT INTO tracks_fts (rowid, name_lower, album_name_lower, artist_name_lower)
  VALUES (new.id, new.name_lower, new.album_name_lower, new.artist_name_lower);
END;
CREATE TRIGGER tracks_au AFTER UPDATE ON tracks
BEGIN
  INSERT INTO tracks_fts(tracks_fts, rowid, name_lower, album_name_lower, artist_name_lower)
  VALUES('delete', old.id, old.name_lower, old.album_name_lower, old.artist_name_lower);
  INSERT INTO tracks_fts (rowid, name_lower, album_name_lower, artist_name_lower)
  VALUES (new.id, new.name_lower, new.album_name_lower, new.artist_name_lower);
END;
CREATE TRIGGER tracks_ad AFTER DELETE ON tracks
BEGIN
  INSERT INTO tracks_fts(tracks_fts, rowid, name_lower, album_name_lower, artist_name_lower)
  VALUES('delete', old.id, old.name_lower, old.album_name_lower, old.artist_name_lower);
END;
"""


# --------------------------------------------------------------------------
# prepare_input: LRCLIB's normalisation of titles, artists and albums.

# Step 1 of LRCLIB is secular::lower_lay_string (crate features "bmp"): a
# per-character table over the Basic Multilingual Plane that lowercases a
# character and replaces a Latin letter with a diacritic, stroke, hook...
# by its plain ASCII letter.  It does NOT normalise: the number of characters
# is kept, ligatures (ﬁ, æ, œ) and superscripts stay, and only Latin letters
# lose their marks (Cyrillic й, Greek ά, Japanese が are unchanged, unlike
# with NFKD + dropping combining marks).  A decomposed "e" + U+0301 keeps
# its combining accent.
#
# The table is derived here from Unicode character names ("LATIN ... LETTER X
# WITH ...", circled and fullwidth Latin letters) plus the few letters below
# that secular also folds.  It matches secular 1.0.1 for every Latin letter in
# common use; it differs only for ~110 rare phonetic/medieval letters (curls,
# palatal hooks, middle tildes, insular forms...).
_LAY_NAME = re.compile(
    r'(?:LATIN|CIRCLED LATIN|FULLWIDTH LATIN) (?:CAPITAL|SMALL) LETTER ([A-Z])(?: WITH (?!SMALL LETTER).*)?$')
_LAY_EXTRA = {
    'ß': 's', 'ẞ': 's', 'ı': 'i', 'ŉ': 'n', 'ẛ': 's',
    'ſ': 'l',  # sic: secular folds the long s to "l"
    'Ɛ': 'e', 'ɛ': 'e', 'Ǝ': 'e', 'ǝ': 'e',
    'Ɔ': 'o', 'ɔ': 'o', 'ɵ': 'o', 'Ɐ': 'a', 'ɐ': 'a',
    'Ʌ': 'v', 'ʌ': 'v', 'Ʉ': 'u', 'ʉ': 'u', 'Ɖ': 'd',
    'Ɯ': 'm', 'ɯ': 'm', 'Ɋ': 'q',
}
# Step 2 (regex [`~!@#$%^&*()_|+\-=?;:",.<>\{\}\[\]\\\/] -> " ") and
# step 3 (['’] -> "") of LRCLIB.
_PUNCT_TO_SPACE = '`~!@#$%^&*()_|+-=?;:",.<>{}[]\\/'
_DELETED = "'\u2019"
# Rust's char::is_whitespace (Unicode White_Space), used by collapse::collapse.
_WHITESPACE_RUN = re.compile(
    '[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+')

_table = None


def _translation_table():
    """Steps 1-3 of prepare_input as one str.translate() table."""
    global _table
    if _table is None:
        table = {}
        for cp in range(0x10000):
            if 0xD800 <= cp <= 0xDFFF:
                continue
            ch = chr(cp)
            low = ch.lower()
            lay = low[0] if low != ch else ch
            match = _LAY_NAME.match(unicodedata.name(ch, ''))
            if match:
                lay = match.group(1).lower()
            lay = _LAY_EXTRA.get(ch, lay)
            if lay in _PUNCT_TO_SPACE:
                lay = ' '
            elif lay in _DELETED:
                lay = ''
            if lay != ch:
                table[cp] = lay
        _table = table
    return _table


def prepare_input(s):
    """LRCLIB's prepare_input(): the value stored in the *_lower columns.

    1. secular::lower_lay_string: per character, lowercase and strip
       diacritics (é->e, ü->u, ñ->n, ø->o, ł->l, ß->s); no normalisation;
    2. every character of  `~!@#$%^&*()_|+-=?;:",.<>{}[]\\/  becomes a space;
    3. ' and ’ are deleted;
    4. lowercase again (full Unicode lowercase, as Rust's to_lowercase),
       collapse runs of whitespace to one space and trim.
    None stays None.

    >>> prepare_input("Don't Stop (Remix)"), prepare_input('A.B.C.')
    ('dont stop remix', 'a b c')
    """
    if s is None:
        return None
    s = s.translate(_translation_table()).lower()
    return _WHITESPACE_RUN.sub(' ', s).strip(' ')


# --------------------------------------------------------------------------
# Rows.

# (name, artist, album or None, duration, [lyrics, ...]); each lyrics entry is
# (synced, plain, instrumental), inserted in order (the last one is current).
def _stamped(text):
    return text, re.sub(r'^\[\d\d:\d\d\.\d\d\]', '', text, flags=re.M)


INSTRUMENTAL = (None, None, 1)
KNOWN_TRACKS = [
    ('Paper Moon', 'The Lanterns', 'Night Songs', 200.0,
     [_stamped('[00:01.00]Paper moon on the water\n[00:05.00]Lantern light\n') + (0,)]),
    ('Paper Moon', 'The Lanterns', 'Live at the Harbour', 260.0,
     [_stamped('[00:01.00]Paper moon (live)\n[00:06.00]Lantern light (live)\n') + (0,)]),
    ('Quiet Field', 'The Lanterns', 'Night Songs', 180.0, [INSTRUMENTAL]),
    ('Café Señor', 'Ünïcode Band', 'Àlbum', 150.5,
     [_stamped('[00:02.00]Accents fold away\n') + (0,)]),
    ("Don't Stop (Remix)", 'A.B.C.', None, 210.0,
     [_stamped('[00:03.00]Punctuation is a space\n') + (0,)]),
    ('Plain Only', 'The Lanterns', 'Night Songs', 120.0,
     [(None, 'Words without times\n', 0)]),
    ('Second Thoughts', 'The Lanterns', 'Night Songs', 190.0,
     [_stamped('[00:01.00]Old version\n') + (0,),
      _stamped('[00:01.00]New version\n') + (0,)]),
    ('Paper Moon', 'The Lanterns', 'Night Songs', 320.0,
     [_stamped('[00:01.00]Paper moon (extended)\n') + (0,)]),
]

WORDS = ('moon', 'light', 'river', 'night', 'rain', 'fire', 'heart', 'road',
         'sky', 'dream', 'stone', 'wind', 'star', 'sea', 'home', 'gold',
         'blue', 'snow', 'rose', 'song', 'day', 'time', 'lost', 'slow',
         'wild', 'calm', 'dark', 'warm', 'cold', 'far', 'near', 'high')


def filler_tracks(n, rng):
    """Yield n generated tracks in the same shape as KNOWN_TRACKS."""
    artists = max(1, n // 10)
    width = max(6, len(str(n - 1)))
    for i in range(n):
        name = 'Song %0*d %s' % (width, i, rng.choice(WORDS).capitalize())
        artist = 'Artist %05d' % rng.randrange(artists)
        album = None if rng.random() < 0.10 else 'Album %04d' % rng.randrange(10000)
        duration = rng.randrange(900, 4201) / 10.0
        if rng.random() < 0.02:
            lyrics = INSTRUMENTAL
        else:
            t = rng.randrange(100, 1000)  # centiseconds
            synced, plain = [], []
            for _ in range(3):
                line = ' '.join(rng.choice(WORDS) for _ in range(rng.randrange(2, 4)))
                line = line[0].upper() + line[1:]
                synced.append('[%02d:%02d.%02d]%s\n' % (t // 6000, t // 100 % 60, t % 100, line))
                plain.append(line + '\n')
                t += rng.randrange(200, 800)
            lyrics = (''.join(synced), ''.join(plain), 0)
        yield name, artist, album, duration, [lyrics]


# --------------------------------------------------------------------------
# Build.

def build(path, n_filler):
    started = time.monotonic()
    if os.path.lexists(path):
        print('%s: already exists, not overwriting' % path, file=sys.stderr)
        return 2
    part = path + '.part'
    if os.path.lexists(part):
        os.remove(part)  # left over from an interrupted run of this script
    db = sqlite3.connect(part, isolation_level=None)
    db.execute('PRAGMA journal_mode=OFF')
    db.execute('PRAGMA synchronous=OFF')
    db.execute('PRAGMA cache_size=-65536')  # 64 MiB
    db.execute('PRAGMA temp_store=MEMORY')
    db.execute('PRAGMA threads=2')
    db.executescript(SCHEMA_TABLES)

    lower_cache = {}

    def lower(s):
        v = lower_cache.get(s)
        if v is None and s is not None:
            v = lower_cache[s] = prepare_input(s)
        return v

    rng = random.Random(56)
    n_tracks = n_lyrics = 0
    track_rows, lyric_rows = [], []

    def flush():
        db.executemany('INSERT INTO tracks VALUES (?,?,?,?,?,?,?,?,?,?,?)', track_rows)
        db.executemany('INSERT INTO lyrics VALUES (?,?,?,?,?,?,?,?,?,?)', lyric_rows)
        track_rows.clear()
        lyric_rows.clear()

    def rows():
        yield from KNOWN_TRACKS
        yield from filler_tracks(n_filler, rng)

    db.execute('BEGIN')
    for name, artist, album, duration, lyrics in rows():
        n_tracks += 1
        for synced, plain, instrumental in lyrics:
            n_lyrics += 1
            lyric_rows.append((n_lyrics, plain, synced, n_tracks,
                               int(plain is not None), int(synced is not None),
                               instrumental, 'lrclib', STAMP, STAMP))
        # Names are unique per filler row: only artists and albums repeat.
        track_rows.append((n_tracks, name, prepare_input(name), artist, lower(artist),
                           album, lower(album), duration, n_lyrics, STAMP, STAMP))
        if len(track_rows) >= 20000:
            flush()
    flush()
    db.execute('COMMIT')
    db.executescript('BEGIN;' + SCHEMA_INDEXES
                     + "INSERT INTO tracks_fts(tracks_fts) VALUES('rebuild');"
                     + SCHEMA_TRIGGERS + 'COMMIT;')
    db.execute('PRAGMA optimize')
    db.close()
    os.rename(part, path)
    print('%s: %d tracks, %d lyrics, %.1f s' % (path, n_tracks, n_lyrics,
                                                time.monotonic() - started))
    return 0


def check(path):
    if not os.path.isfile(path):
        print('%s: no such file' % path, file=sys.stderr)
        return 2
    db = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
    result = [r[0] for r in db.execute('PRAGMA integrity_check')]
    print('integrity_check: %s' % '; '.join(result))
    for table in ('tracks', 'lyrics', 'tracks_fts'):
        print('%s: %d rows' % (table, db.execute('SELECT count(*) FROM %s' % table).fetchone()[0]))
    db.close()
    return 0 if result == ['ok'] else 1


def main(argv):
    parser = argparse.ArgumentParser(
        description='Build a deterministic LRCLIB-shaped SQLite database.')
    parser.add_argument('out', nargs='?', metavar='OUT.sqlite3',
                        help='database to create (must not exist)')
    parser.add_argument('--tracks', type=int, default=0, metavar='N',
                        help='generated tracks after the 8 known ones (default 0)')
    parser.add_argument('--check', metavar='FILE',
                        help='print PRAGMA integrity_check and row counts of FILE')
    args = parser.parse_args(argv)
    if (args.out is None) == (args.check is None):
        parser.error('give either OUT.sqlite3 or --check FILE')
    if args.check is not None:
        return check(args.check)
    if args.tracks < 0:
        parser.error('--tracks must be >= 0')
    return build(args.out, args.tracks)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

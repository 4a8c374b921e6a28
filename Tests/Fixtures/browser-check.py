#!/usr/bin/python3
"""Drives `lyricposter serve` in a real headless browser (Debian's chromium + chromedriver,
python3-selenium) and checks what a person would see.

    browser-check.py app --base URL --song TITLE --shots DIR [--token T] [--no-lyrics TITLE] [--not-following]
        in a 1920x1000 window: open /, find the song by searching its title, check that the
        pickers, the player and the Download button are all in view beside the poster, play it
        (muted), and check that the poster shows each line's frame within 200 ms of the line's
        start (times from the page's own audio.currentTime), that scrubbing updates it at once,
        and that a card can be made; then the same song page at 390x844 (a phone). With
        --no-lyrics: that song is listed by its title with a "no lyrics" badge. With
        --not-following (a server without --follow): /overlay says how to start it.
    browser-check.py overlay --base URL --shots DIR [--expect N]
        open /overlay, check its computed background is transparent and that it swaps posters
        as /events announces them (at least N swaps).

    browser-check.py controls --base URL --shots DIR --token T --view-token V --mpv-socket PATH
        the lock-screen controls against a real mpv (its JSON IPC socket is the reference): on
        /overlay at 1920x1080, click pause, play, next and previous and see mpv's own state change,
        drag the progress bar and tap it, and check that mpv's time-pos lands within 250 ms of the
        asked position and that the page then shows that line's poster; the same at 390x844; the
        controls fade when idle and come back; they are hidden with layer=text and for the view
        token; the app's "Now playing" view shows the same page and its controls work.

Prints one JSON line of measurements and exits 0; prints "FAIL: ..." lines and exits 1 when a
check fails; exits 77 with "SKIP: ..." when the browser cannot start.
"""
import argparse
import json
import os
import re
import socket
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
except ImportError as error:  # pragma: no cover
    print(f"SKIP: python3-selenium is missing ({error}); run `make test`")
    sys.exit(77)

failures = []


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}", flush=True)


def browser():
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--autoplay-policy=no-user-gesture-required", "--mute-audio", "--window-size=1400,1000",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    try:
        return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except Exception as error:  # the browser itself could not start
        print(f"SKIP: chromium did not start: {str(error).splitlines()[0]}")
        sys.exit(77)


def wait(driver, what, check, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")
    return None


def set_viewport(driver, width, height):
    """Sizes the window so that the page's own viewport (innerWidth x innerHeight) is width x height."""
    driver.set_window_size(width, height)
    for _ in range(3):
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        if inner == [width, height]:
            return
        size = driver.get_window_size()
        driver.set_window_size(size["width"] + width - inner[0], size["height"] + height - inner[1])
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner != [width, height]:
        fail(f"the viewport is {inner[0]}x{inner[1]}, not {width}x{height}")


# The controls a person needs on a song's page, and where each is in the viewport.
CONTROLS = ["theme", "preset", "translations", "download", "player", "poster"]
PLACES = """
return arguments[0].map(id => {
  const node = document.getElementById(id);
  if (!node) return [id, null];
  const box = node.getBoundingClientRect();
  return [id, {top: box.top, bottom: box.bottom, left: box.left, right: box.right, width: box.width, height: box.height}];
}).concat([['viewport', {width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth}]]);
"""


def places(driver, ids):
    return dict(driver.execute_script(PLACES, ids))


def check_in_view(driver, ids, what):
    """Every element of `ids` is shown and wholly inside the viewport, without scrolling."""
    driver.execute_script("window.scrollTo(0, 0)")
    found = places(driver, ids)
    view = found["viewport"]
    for id in ids:
        box = found.get(id)
        if box is None:
            fail(f"{what}: #{id} is missing")
        elif box["width"] == 0 or box["height"] == 0:
            fail(f"{what}: #{id} is not shown")
        elif box["top"] < 0 or box["left"] < 0 or box["bottom"] > view["height"] or box["right"] > view["width"]:
            fail(f"{what}: #{id} is outside the {view['width']}x{view['height']} viewport "
                 f"(top {box['top']:.0f}, bottom {box['bottom']:.0f}, right {box['right']:.0f})")
    return {id: round(found[id]["bottom"]) for id in ids if found.get(id)}


def poster_ready(driver):
    return driver.execute_script(
        "const p = document.getElementById('poster'); return p && p.complete && p.naturalWidth > 0 && p.dataset.at !== undefined")


def url(base, path, token):
    if not token:
        return base + path
    return base + path + ("&" if "?" in path else "?") + "token=" + token


# Installed in the page: on every animation frame, note the audio clock and the poster shown,
# and whenever the poster changes, when (in audio time) it changed and when its picture was
# decoded and ready.
RECORDER = """
window.__log = [];
const audio = document.getElementById('player'), poster = document.getElementById('poster');
let last = null;
function tick() {
  const at = poster.dataset.at;
  const ready = poster.complete && poster.naturalWidth > 0;
  const key = at + '|' + ready;
  if (key !== last) {
    last = key;
    window.__log.push({t: audio.currentTime * 1000, at: at === undefined ? null : Number(at), ready: ready,
                       src: poster.currentSrc || poster.src, paused: audio.paused});
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
"""


def check_app(args):
    driver = browser()
    shots = args.shots
    measured = {}
    try:
        set_viewport(driver, 1920, 1000)
        driver.get(url(args.base, "/", args.token))
        wait(driver, "the song list", lambda: driver.find_elements(By.CSS_SELECTOR, "#songs a.song"))
        if args.no_lyrics:
            # Listed by its tag title once its lyrics were looked for (the page reloads the list
            # while the library is read), with a badge saying it has none.
            marked = wait(driver, f"{args.no_lyrics!r} to be listed with a 'no lyrics' badge", lambda: [
                a for a in driver.find_elements(By.CSS_SELECTOR, "#songs a.song")
                if a.find_element(By.CSS_SELECTOR, ".title").text == args.no_lyrics
                and [b.text for b in a.find_elements(By.CSS_SELECTOR, ".badge")] == ["no lyrics"]
            ], seconds=20)
            measured["no_lyrics_marked"] = bool(marked)
        driver.save_screenshot(os.path.join(shots, "app-library.png"))
        search = driver.find_element(By.ID, "search")
        search.send_keys(args.song)
        link = wait(driver, f"the search to find {args.song!r}", lambda: [
            a for a in driver.find_elements(By.CSS_SELECTOR, "#songs a.song") if args.song in a.text
        ] if len(driver.find_elements(By.CSS_SELECTOR, "#songs a.song")) == 1 else None)
        if not link:
            return
        song_id = link[0].get_attribute("data-id")
        link[0].click()
        poster = wait(driver, "the poster", lambda: driver.find_element(By.ID, "poster") if poster_ready(driver) else None)
        if not poster:
            return
        wait(driver, "the audio player", lambda: driver.find_elements(By.ID, "player"))
        # At 1920x1000 the pickers, the player and the Download button are beside the poster, in view.
        measured["bottoms_1920x1000"] = check_in_view(driver, CONTROLS, "at 1920x1000")
        driver.save_screenshot(os.path.join(shots, "app-song-1920x1000.png"))
        plan = driver.execute_script(
            "return fetch(arguments[0]).then(r => r.json())", url(args.base, f"/api/songs/{song_id}/plan?karaoke=false", args.token))
        starts = [frame["start_ms"] for frame in plan["frames"]]
        measured["frames"] = len(starts)
        if not plan.get("audio"):
            fail("the song has no audio to play")
            return
        wait(driver, "the audio to be playable", lambda: driver.execute_script("return document.getElementById('player').readyState >= 3"))
        driver.execute_script(RECORDER)
        driver.execute_script("document.getElementById('player').play()")
        # Play through the first lines (at least three changes), then read the log.
        horizon = min(starts[min(4, len(starts) - 1)] + 600, (plan.get("duration_ms") or 30000) - 500)
        wait(driver, "playback to pass the first lines",
             lambda: driver.execute_script("return document.getElementById('player').currentTime") * 1000 >= horizon,
             seconds=horizon / 1000 + 20)
        driver.save_screenshot(os.path.join(shots, "app-song.png"))
        log = driver.execute_script("return window.__log")
        lateness = []
        for start in [s for s in starts if 0 < s < horizon - 250]:
            # The first moment the page shows this frame's picture, ready, in audio time.
            shown = next((entry for entry in log if entry["at"] == start and entry["ready"]), None)
            if shown is None:
                fail(f"the frame starting at {start} ms was never shown")
                continue
            late = shown["t"] - start
            lateness.append(round(late, 1))
            if late > 200:
                fail(f"the frame starting at {start} ms was shown {late:.0f} ms late")
            if late < -30:
                fail(f"the frame starting at {start} ms was shown {-late:.0f} ms early")
            # Nothing after the line start may still show an earlier frame past 200 ms.
            stale = [e for e in log if e["t"] > start + 200 and e["at"] is not None and e["at"] < start and not e["paused"]
                     and e["t"] < (next((s for s in starts if s > start), 1e12))]
            if stale:
                fail(f"an older frame was still shown at {stale[0]['t']:.0f} ms, after the line at {start} ms")
        measured["lateness_ms"] = lateness

        # Scrub: jump to a later line; the poster follows at once.
        target = starts[-2] if len(starts) > 2 else starts[-1]
        driver.execute_script("window.__log = []; const a = document.getElementById('player'); a.currentTime = arguments[0] / 1000 + 0.3", target)
        jumped = wait(driver, "the poster to follow a scrub", lambda: driver.execute_script(
            "const p = document.getElementById('poster'); return Number(p.dataset.at) >= arguments[0] && p.complete", target), seconds=5)
        if jumped:
            log = driver.execute_script("return window.__log")
            first = next((e for e in log if e["at"] is not None and e["at"] >= target and e["ready"]), None)
            measured["scrub_shown_after_ms"] = round(first["t"] - (target + 300), 1) if first else None
        driver.execute_script("document.getElementById('player').pause()")
        download = driver.find_element(By.ID, "download").get_attribute("href")
        if f"at={driver.find_element(By.ID, 'poster').get_attribute('data-at')}" not in download:
            fail(f"the download link {download} is not the frame shown")

        # A card of two chosen lines.
        picks = driver.find_elements(By.CSS_SELECTOR, "input.pick")
        if len(picks) < 3:
            fail("fewer than three line pickers")
            return
        for pick in picks[1:3]:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", pick)
            pick.click()
        make = driver.find_element(By.ID, "make-card")
        wait(driver, "the card button to be enabled", lambda: make.is_enabled())
        make.click()
        card = wait(driver, "the card", lambda: driver.execute_script(
            "const c = document.getElementById('card'); return c && c.complete && c.naturalWidth > 0 && c.src"), seconds=30)
        if card:
            numbers = [p.get_attribute("data-number") for p in picks[1:3]]
            if f"lines={numbers[0]}-{numbers[1]}" not in card:
                fail(f"the card {card} is not of lines {numbers[0]}-{numbers[1]}")
            driver.execute_script("document.getElementById('card-panel').scrollIntoView()")
            driver.save_screenshot(os.path.join(shots, "app-card.png"))
        # Keyboard: '/' focuses the search box.
        driver.find_element(By.TAG_NAME, "body").send_keys("/")
        if driver.switch_to.active_element.get_attribute("id") != "search":
            fail("'/' does not focus the search box")
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"] if hasattr(driver, "get_log") else []
        for entry in errors:
            fail(f"browser console: {entry.get('message')}")

        # A phone: the same page stacked; nothing wider than the screen, the poster and the
        # pickers a scroll away at most.
        set_viewport(driver, 390, 844)
        driver.get("about:blank")   # a fresh page: the same address again would keep the scroll
        driver.get(url(args.base, "/", args.token) + f"#/song/{song_id}")
        if wait(driver, "the poster at 390x844", lambda: poster_ready(driver)):
            found = places(driver, CONTROLS)
            view = found["viewport"]
            if view["scrollWidth"] > view["width"]:
                fail(f"at 390x844 the page is {view['scrollWidth']} px wide")
            for id in CONTROLS:
                box = found.get(id)
                if not box or box["width"] == 0 or box["left"] < 0 or box["right"] > view["width"]:
                    fail(f"at 390x844 #{id} is missing or wider than the screen: {box}")
            if found["poster"]["top"] > view["height"] / 2:
                fail(f"at 390x844 the poster starts {found['poster']['top']:.0f} px down")
            measured["bottoms_390x844"] = {id: round(found[id]["bottom"]) for id in CONTROLS if found.get(id)}
            driver.save_screenshot(os.path.join(shots, "app-song-390x844.png"))
        driver.get(url(args.base, "/", args.token))
        wait(driver, "the song list at 390x844", lambda: driver.find_elements(By.CSS_SELECTOR, "#songs a.song"))
        driver.save_screenshot(os.path.join(shots, "app-library-390x844.png"))

        if args.not_following:
            check_not_following(driver, args, measured)
    finally:
        driver.quit()
    return measured


def check_not_following(driver, args, measured):
    """/overlay on a server without --follow: a notice saying how to start it (and, without the
    token, one asking for it), over a page still transparent around it."""
    set_viewport(driver, 1920, 1000)
    driver.get(url(args.base, "/overlay", args.token))
    text = wait(driver, "the overlay's notice", lambda: driver.execute_script(
        "const n = document.getElementById('notice'); return n && !n.hidden && n.getBoundingClientRect().height > 0 && n.innerText"))
    measured["overlay_notice"] = text
    if text and "lyricposter serve --follow" not in text:
        fail(f"the overlay's notice does not say how to start the server: {text!r}")
    background = driver.execute_script(
        "return [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]")
    for value in background:
        if value not in ("rgba(0, 0, 0, 0)", "transparent"):
            fail(f"the overlay's background is {value}, not transparent")
    driver.save_screenshot(os.path.join(args.shots, "overlay-not-following.png"))
    if args.token:
        driver.get(args.base + "/overlay")
        text = wait(driver, "the overlay's notice without a token", lambda: driver.execute_script(
            "const n = document.getElementById('notice'); return n && !n.hidden && n.innerText"))
        if text and "token" not in text:
            fail(f"without the token the overlay's notice does not ask for it: {text!r}")


def check_overlay(args):
    driver = browser()
    measured = {}
    try:
        # Screenshots keep the page's transparency (as an OBS browser source composites it).
        driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
        driver.get(url(args.base, "/overlay" + (f"?layer={args.layer}" if args.layer else ""), args.token))
        background = driver.execute_script(
            "return [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]")
        measured["background"] = background
        for value in background:
            if value not in ("rgba(0, 0, 0, 0)", "transparent"):
                fail(f"the overlay's background is {value}, not transparent")
        seen = []
        deadline = time.time() + args.seconds
        while time.time() < deadline and len(set(seen)) < args.expect:
            poster = driver.execute_script("return document.body.dataset.poster || null")
            if poster and (not seen or seen[-1] != poster):
                seen.append(poster)
            time.sleep(0.05)
        measured["swaps"] = len(set(seen))
        measured["posters"] = seen
        if len(set(seen)) < args.expect:
            fail(f"the overlay showed {len(set(seen))} posters, expected at least {args.expect}")
        shown = driver.execute_script(
            "return [...document.querySelectorAll('img')].filter(i => getComputedStyle(i).opacity > 0.5 && i.naturalWidth > 0).length")
        if shown < 1:
            fail("no poster is visible on the overlay")
        driver.save_screenshot(os.path.join(args.shots, "overlay.png"))
    finally:
        driver.quit()
    return measured


def mpv(socket_path, *command):
    """One command over mpv's JSON IPC; its `data`."""
    with socket.socket(socket.AF_UNIX) as connection:
        connection.settimeout(3)
        connection.connect(socket_path)
        connection.sendall((json.dumps({"command": list(command), "request_id": 7}) + "\n").encode())
        buffer = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if message.get("request_id") == 7:
                    return message.get("data")


def page_state(driver):
    return driver.execute_script("""
      const b = document.body, t = document.getElementById('toggle');
      return {controls: b.dataset.controls || '', last: b.dataset.lastControl || '', poster: b.dataset.poster || '',
              toggle: t ? t.getAttribute('aria-label') : '', idle: b.classList.contains('idle')};""")


def poster_start(poster):
    match = re.search(r"/now/\d+/(\d+)\.png", poster or "")
    return int(match.group(1)) if match else None


def check_targets(driver, what):
    """The controls are in view and each is a large touch target (44 px or more each way)."""
    sizes = driver.execute_script("""
      return ['previous', 'toggle', 'next', 'progress'].map(id => {
        const box = document.getElementById(id).getBoundingClientRect();
        return [id, box.width, box.height, box.left, box.top, box.right, box.bottom];
      }).concat([['viewport', innerWidth, innerHeight]]);""")
    view = sizes[-1]
    for name, width, height, left, top, right, bottom in sizes[:-1]:
        if width < 44 or height < 44:
            fail(f"{what}: #{name} is {width:.0f}x{height:.0f}, smaller than a 44 px touch target")
        if left < 0 or top < 0 or right > view[1] or bottom > view[2]:
            fail(f"{what}: #{name} is outside the {view[1]}x{view[2]} viewport")
    return {name: [round(width), round(height)] for name, width, height, *_ in sizes[:-1]}


def wake(driver):
    body = driver.find_element(By.TAG_NAME, "body")
    ActionChains(driver).move_to_element_with_offset(body, 0, -40).move_by_offset(3, 3).perform()


def click_control(driver, name, expect_last):
    wake(driver)
    driver.find_element(By.ID, name).click()
    return wait(driver, f"the page to send {name}", lambda: page_state(driver)["last"] == expect_last, 8)


def seek_on_bar(driver, args, fraction, drag_from=None):
    """Taps (or drags from `drag_from` to) `fraction` of the bar; returns (asked ms, mpv error ms,
    ms until the line's poster showed)."""
    duration = mpv(args.mpv_socket, "get_property", "duration") * 1000
    bar = driver.find_element(By.ID, "progress")
    width = bar.size["width"]
    wake(driver)
    driver.execute_script("document.body.dataset.lastControl = ''")
    chain = ActionChains(driver)
    if drag_from is None:
        chain.move_to_element_with_offset(bar, int((fraction - 0.5) * width), 0).click()
    else:
        chain.move_to_element_with_offset(bar, int((drag_from - 0.5) * width), 0).click_and_hold()
        for step in range(1, 6):
            middle = drag_from + (fraction - drag_from) * step / 5
            chain.move_to_element_with_offset(bar, int((middle - 0.5) * width), 0)
        chain.release()
    chain.perform()
    asked = None
    if not wait(driver, "the seek to be sent", lambda: page_state(driver)["last"] == "seek:204", 8):
        return None
    answered = time.monotonic()
    position = mpv(args.mpv_socket, "get_property", "time-pos") * 1000
    read = time.monotonic()
    if mpv(args.mpv_socket, "get_property", "pause"):
        read = answered  # a paused player's clock stands still
    # The page asked for round(fraction of the bar as the pointer landed × duration): read back
    # from the page's own arithmetic would be circular, so the position is compared with the
    # fraction the pointer was sent to, within a pixel of the bar.
    asked = fraction * duration
    pixel = duration / width
    error = position - (read - answered) * 1000 - asked
    if abs(error) > 250 + pixel:
        fail(f"mpv is at {position:.0f} ms after a seek to {asked:.0f} ms ({error:+.0f} ms)")
    started = time.monotonic()
    shown = wait(driver, "the seeked line's poster", lambda: (lambda start: start is not None and start <= position + 50
                 and start >= position - 1100)(poster_start(page_state(driver)["poster"])), 10)
    return {"asked_ms": round(asked), "mpv_ms": round(position), "error_ms": round(error),
            "pixel_ms": round(pixel), "poster_ms": round((time.monotonic() - started) * 1000) if shown else None}


def check_controls(args):
    driver = browser()
    measured = {}
    try:
        set_viewport(driver, 1920, 1080)
        driver.get(url(args.base, "/overlay", args.token))
        wait(driver, "the controls", lambda: page_state(driver)["controls"] == "shown")
        wait(driver, "a poster", lambda: poster_start(page_state(driver)["poster"]) is not None)
        measured["targets_1920"] = check_targets(driver, "1920x1080")
        wake(driver)
        driver.save_screenshot(os.path.join(args.shots, "controls-1920x1080.png"))

        # Pause and play: mpv's own `pause` property, and the button following the player.
        click_control(driver, "toggle", "toggle:204")
        if not wait(driver, "mpv to pause", lambda: mpv(args.mpv_socket, "get_property", "pause") is True, 5):
            fail("clicking pause did not pause mpv")
        wait(driver, "the button to offer play", lambda: page_state(driver)["toggle"] == "Play", 5)
        click_control(driver, "toggle", "toggle:204")
        if not wait(driver, "mpv to play", lambda: mpv(args.mpv_socket, "get_property", "pause") is False, 5):
            fail("clicking play did not start mpv")
        wait(driver, "the button to offer pause", lambda: page_state(driver)["toggle"] == "Pause", 5)

        # Next and previous: mpv's playlist position.
        before = mpv(args.mpv_socket, "get_property", "playlist-pos")
        song = page_state(driver)["poster"].split("/")[2]
        click_control(driver, "next", "next:204")
        if not wait(driver, "mpv's next track", lambda: mpv(args.mpv_socket, "get_property", "playlist-pos") == before + 1, 5):
            fail("clicking next did not move mpv to the next track")
        wait(driver, "the next track's poster", lambda: page_state(driver)["poster"].split("/")[2] != song, 10)
        click_control(driver, "previous", "previous:204")
        if not wait(driver, "mpv's previous track", lambda: mpv(args.mpv_socket, "get_property", "playlist-pos") == before, 5):
            fail("clicking previous did not move mpv back")
        time.sleep(1)

        # Drag and tap the bar.
        measured["drag"] = seek_on_bar(driver, args, 0.6, drag_from=0.15)
        measured["tap"] = seek_on_bar(driver, args, 0.3)
        wake(driver)
        driver.save_screenshot(os.path.join(args.shots, "controls-seeked-1920x1080.png"))

        # Idle: the controls fade, and come back on a move.
        if wait(driver, "the controls to fade when idle", lambda: page_state(driver)["idle"], 9):
            time.sleep(0.6)  # the fade's transition
            opacity = float(driver.execute_script("return getComputedStyle(document.getElementById('controls')).opacity"))
            measured["idle_opacity"] = opacity
            if opacity > 0.05:
                fail(f"idle controls are still shown (opacity {opacity})")
        wake(driver)
        if page_state(driver)["idle"]:
            fail("moving the pointer did not bring the controls back")

        # A phone.
        set_viewport(driver, 390, 844)
        time.sleep(0.5)
        measured["targets_390"] = check_targets(driver, "390x844")
        measured["phone_seek"] = seek_on_bar(driver, args, 0.5)
        wake(driver)
        driver.save_screenshot(os.path.join(args.shots, "controls-390x844.png"))

        # No controls over the text layer, nor for the view token.
        set_viewport(driver, 1920, 1080)
        driver.get(url(args.base, "/overlay?layer=text", args.token))
        wait(driver, "a text-layer poster", lambda: page_state(driver)["poster"] != "")
        time.sleep(1)
        if page_state(driver)["controls"] == "shown":
            fail("the controls show over the text layer (OBS)")
        driver.get(url(args.base, "/overlay", args.view_token))
        wait(driver, "a poster for the view token", lambda: page_state(driver)["poster"] != "")
        time.sleep(1)
        if page_state(driver)["controls"] == "shown":
            fail("the controls show for a view-only token")
        driver.save_screenshot(os.path.join(args.shots, "controls-view-token.png"))

        # The app's now-playing view: the same page in a frame, its controls working.
        driver.get(url(args.base, "/", args.token))
        link = wait(driver, "the Now playing link", lambda: (lambda l: l if l.is_displayed() else None)(
            driver.find_element(By.ID, "now-link")))
        if link:
            link.click()
            frame = wait(driver, "the now-playing frame", lambda: driver.find_element(By.ID, "now-frame"))
            driver.switch_to.frame(frame)
            wait(driver, "the controls in the app", lambda: page_state(driver)["controls"] == "shown")
            click_control(driver, "toggle", "toggle:204")
            if not wait(driver, "mpv to pause from the app", lambda: mpv(args.mpv_socket, "get_property", "pause") is True, 5):
                fail("the app's pause did not pause mpv")
            driver.switch_to.default_content()
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(args.shots, "app-now-playing-1920x1080.png"))
            driver.switch_to.frame(frame)
            click_control(driver, "toggle", "toggle:204")
            wait(driver, "mpv to play again", lambda: mpv(args.mpv_socket, "get_property", "pause") is False, 5)
            driver.switch_to.default_content()
    finally:
        driver.quit()
    return measured


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["app", "overlay", "controls"])
    parser.add_argument("--base", required=True)
    parser.add_argument("--song", default="")
    parser.add_argument("--shots", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--layer", default="")
    parser.add_argument("--expect", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--no-lyrics", default="")
    parser.add_argument("--not-following", action="store_true")
    parser.add_argument("--view-token", default="")
    parser.add_argument("--mpv-socket", default="")
    args = parser.parse_args()
    os.makedirs(args.shots, exist_ok=True)
    checks = {"app": check_app, "overlay": check_overlay, "controls": check_controls}
    measured = checks[args.mode](args)
    print(json.dumps(measured or {}), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

/* LyricPoster — the browser app served by `lyricposter serve` at `/`.
   Hash routes: `#/` the library, `#/song/ID` a song's page with its posters in step with playback,
   `#/now` (with `serve --follow`) the live page with its lock-screen controls, in a frame.
   Plain script, no dependencies; the page's CSP allows no inline code or styles. */
(function () {
  'use strict';

  // ---------- Small helpers ----------

  var TOKEN = new URLSearchParams(location.search).get('token');

  /** The URL with `token=T` added when the page was opened with `?token=T` (images, audio and
      event streams cannot send an Authorization header, so every URL carries it). */
  function withToken(url) {
    if (!TOKEN) return url;
    var query = url.indexOf('?');
    if (query >= 0 && new URLSearchParams(url.slice(query + 1)).has('token')) return url;
    return url + (query >= 0 ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN);
  }

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** key=value pairs, percent-encoded (spaces as %20: the server does not read "+" as a space). */
  function query(pairs) {
    return pairs.filter(function (pair) { return pair[1] != null && pair[1] !== ''; })
      .map(function (pair) { return encodeURIComponent(pair[0]) + '=' + encodeURIComponent(String(pair[1])); })
      .join('&');
  }

  /** m:ss (h:mm:ss past an hour) for milliseconds; "" for null. */
  function clock(ms) {
    if (ms == null || !isFinite(ms)) return '';
    var total = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    var ss = (s < 10 ? '0' : '') + s;
    return h ? h + ':' + (m < 10 ? '0' : '') + m + ':' + ss : m + ':' + ss;
  }

  /** GET a JSON API path; throws an Error carrying the server's `{"error": …}` message. */
  function api(path, signal) {
    return fetch(withToken(path), { headers: { Accept: 'application/json' }, signal: signal })
      .then(function (response) {
        return response.text().then(function (body) {
          var data = null;
          try { data = body ? JSON.parse(body) : null; } catch (e) { data = null; }
          if (!response.ok) {
            var message = data && data.error ? data.error : response.status + ' ' + response.statusText;
            var error = new Error(message);
            error.status = response.status;
            throw error;
          }
          return data;
        });
      });
  }

  var statusLine = $('status');
  function showStatus(message) { statusLine.textContent = message || ''; }
  function reportError(what, error) {
    if (error && error.name === 'AbortError') return;
    showStatus(what + ': ' + (error && error.message ? error.message : String(error)));
  }

  function storedGet(key) { try { return localStorage.getItem('lyricposter.' + key); } catch (e) { return null; } }
  function storedSet(key, value) { try { localStorage.setItem('lyricposter.' + key, value); } catch (e) { /* private mode */ } }

  function safeFileName(text) {
    return String(text || 'poster').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120) || 'poster';
  }

  var reduceMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

  // ---------- Elements ----------

  var search = $('search');
  var librarySection = $('library');
  var songsList = $('songs');
  var songsEmpty = $('songs-empty');
  var libraryCount = $('library-count');
  var scanningNote = $('scanning');
  var moreButton = $('more');

  var songSection = $('song');
  var nowSection = $('now');
  var nowFrame = $('now-frame');
  var nowLink = $('now-link');
  var songTitle = $('song-title');
  var songArtist = $('song-artist');
  var poster = $('poster');
  var transport = $('transport');
  var clockBox = $('clock');
  var clockToggle = $('clock-toggle');
  var clockTime = $('clock-time');
  var themeSelect = $('theme');
  var presetSelect = $('preset');
  var translationsSelect = $('translations');
  var downloadLink = $('download');
  var linesList = $('lines');
  var linesEmpty = $('lines-empty');
  var makeCardButton = $('make-card');
  var clearPicksButton = $('clear-picks');
  var cardHint = $('card-hint');
  var cardPanel = $('card-panel');
  var cardImage = $('card');
  var cardError = $('card-error');
  var cardDownload = $('card-download');
  var cardClose = $('card-close');

  // ---------- Render parameters (theme, preset, translations) ----------

  var themesReady = null;   // Promise of /api/themes

  function fillSelect(select, values, chosen) {
    select.textContent = '';
    values.forEach(function (value) {
      var option = el('option', null, value);
      option.value = value;
      select.appendChild(option);
    });
    if (chosen != null && values.indexOf(chosen) >= 0) select.value = chosen;
  }

  function loadThemes() {
    if (themesReady) return themesReady;
    themesReady = api('/api/themes').then(function (data) {
      var themes = (data && data.themes) || [];
      var presets = (data && data.presets) || [];
      var theme = storedGet('theme');
      var preset = storedGet('preset');
      fillSelect(themeSelect, themes, themes.indexOf(theme) >= 0 ? theme : data.default_theme);
      fillSelect(presetSelect, presets, presets.indexOf(preset) >= 0 ? preset : data.default_preset);
      var translations = storedGet('translations');
      translationsSelect.value = ['show', 'only', 'hide'].indexOf(translations) >= 0 ? translations
        : (data.default_translations || 'show');
      // "Now playing" when the server follows a player (`serve --follow`).
      nowLink.hidden = !data.following;
    }, function (error) {
      themesReady = null;
      reportError('Themes', error);
    });
    return themesReady || Promise.resolve();
  }

  /** The render parameters as query pairs; `timed` adds karaoke=false (posters change per line). */
  function renderPairs(timed) {
    var pairs = [];
    if (themeSelect.value) pairs.push(['theme', themeSelect.value]);
    if (presetSelect.value) pairs.push(['preset', presetSelect.value]);
    if (translationsSelect.value) pairs.push(['translations', translationsSelect.value]);
    if (timed) pairs.push(['karaoke', 'false']);
    return pairs;
  }

  // ---------- Library ----------

  var PAGE = 100;
  var library = {
    query: null,        // the query the list shows
    shown: 0,
    total: 0,
    loaded: false,
    scanning: false,
    sequence: 0,
    pollTimer: 0,
    controller: null
  };

  function songItem(song) {
    var item = el('li');
    var link = el('a', 'song');
    link.href = '#/song/' + encodeURIComponent(song.id);
    link.dataset.id = song.id;
    link.appendChild(el('span', 'title', song.title || song.file || song.id));
    var meta = [song.artist, song.album].filter(function (part) { return part; }).join(' — ');
    link.appendChild(el('span', 'meta', meta || (song.title && song.file ? song.file : '')));
    link.appendChild(el('span', 'duration', clock(song.duration_ms)));
    if (song.problem) {
      // No posters to make: said by a badge where the line count would be, the reason on hover.
      link.classList.add('problem');
      var badge = el('span', 'badge', /^no lyrics/.test(song.problem) ? 'no lyrics' : 'lyrics unreadable');
      badge.title = song.problem;
      link.appendChild(el('span', 'count')).appendChild(badge);
    } else {
      var count = song.line_count == null ? '' : song.line_count + (song.line_count === 1 ? ' line' : ' lines');
      link.appendChild(el('span', 'count', count));
    }
    if (song.file) link.title = song.file + (song.problem ? ' — ' + song.problem : '');
    item.appendChild(link);
    return item;
  }

  /** Loads the list for the search box's text: `append` for the next page, else from the top
      (keeping as many rows as are shown, for the rescans while the library is still walked). */
  function loadSongs(append) {
    var text = search.value.trim();
    var offset = append ? library.shown : 0;
    var limit = append ? PAGE : Math.max(PAGE, library.query === text ? library.shown : 0);
    var sequence = ++library.sequence;
    clearTimeout(library.pollTimer);
    if (library.controller) library.controller.abort();
    var controller = window.AbortController ? new AbortController() : null;
    library.controller = controller;
    moreButton.disabled = true;
    return api('/api/songs?' + query([['q', text], ['offset', offset], ['limit', limit]]), controller && controller.signal)
      .then(function (data) {
        if (sequence !== library.sequence) return;
        showStatus('');
        var songs = (data && data.songs) || [];
        if (!append) songsList.textContent = '';
        var fragment = document.createDocumentFragment();
        songs.forEach(function (song) { fragment.appendChild(songItem(song)); });
        songsList.appendChild(fragment);
        library.query = text;
        library.shown = offset + songs.length;
        library.total = data.total || 0;
        library.loaded = true;
        library.scanning = !!data.scanning;
        renderLibraryState();
        if (library.scanning) library.pollTimer = setTimeout(pollLibrary, 1000);
      }, function (error) {
        if (sequence !== library.sequence) return;
        reportError('Songs', error);
        moreButton.disabled = false;
        // Retry what may pass (the network, the server busy), not what will not (a bad token).
        if (error.name !== 'AbortError' && !(error.status >= 400 && error.status < 500)) {
          library.pollTimer = setTimeout(pollLibrary, 3000);
        }
      });
  }

  function pollLibrary() {
    if (route().name === 'library') loadSongs(false);
  }

  function renderLibraryState() {
    scanningNote.hidden = !library.scanning;
    songsEmpty.hidden = library.shown > 0 || library.scanning;
    songsEmpty.textContent = library.query ? 'No songs match “' + library.query + '”.' : 'No songs found.';
    libraryCount.textContent = library.total === 1 ? '1 song' : library.total + ' songs';
    moreButton.hidden = !(library.total > library.shown);
    moreButton.disabled = false;
    moreButton.textContent = 'More (' + (library.total - library.shown) + ' left)';
  }

  var searchTimer = 0;
  search.addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      if (route().name !== 'library') {
        location.hash = '#/';   // the route change loads the list
      } else {
        loadSongs(false);
      }
    }, 150);
  });
  search.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      if (search.value) { search.value = ''; search.dispatchEvent(new Event('input')); } else search.blur();
    } else if (event.key === 'Enter') {
      clearTimeout(searchTimer);
      if (route().name !== 'library') location.hash = '#/'; else loadSongs(false);
    }
  });
  moreButton.addEventListener('click', function () { loadSongs(true); });

  // ---------- Song page: state ----------

  var song = {
    id: null,
    plan: null,
    frames: [],        // plan.frames
    lines: [],         // plan.lines
    lineItems: new Map(),   // line number → <li>
    index: -1,         // the frame shown
    timeline: null,    // { now(), paused(), play(), pause(), seek(ms), destroy() }
    audio: null,
    sequence: 0,
    controller: null,
    rafId: 0,
    currentLine: null
  };

  /** Preloaded poster images by URL (insertion order = age; the oldest go first). */
  var cache = new Map();
  var CACHE_MAX = 24;

  function preload(url) {
    var image = cache.get(url);
    if (image) {
      cache.delete(url);
      cache.set(url, image);
      return image;
    }
    image = new Image();
    image.decoding = 'async';
    image.src = url;
    cache.set(url, image);
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
    return image;
  }

  function frameURL(startMs, format) {
    var pairs = [['at', startMs]].concat(renderPairs(true));
    return withToken('/api/songs/' + encodeURIComponent(song.id) + '/frame.' + (format || 'png') + '?' + query(pairs));
  }

  /** The last frame whose start is at or before `t` (frames are in time order, the first at 0). */
  function frameIndexAt(t) {
    var frames = song.frames;
    var lo = 0, hi = frames.length - 1, found = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (frames[mid].start_ms <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  /** The last sung line whose start is at or before `t`, as an index into `lines` (-1 before the first). */
  function lineIndexAt(t) {
    var lines = song.lines;
    var lo = 0, hi = lines.length - 1, found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (lines[mid].start_ms <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // ---------- Timelines: the audio element, or a clock when there is no audio ----------

  function audioTimeline(audio) {
    return {
      now: function () { return Math.floor(audio.currentTime * 1000 + 0.5); },
      paused: function () { return audio.paused; },
      play: function () {
        var played = audio.play();
        if (played && played.catch) played.catch(function (error) { reportError('Playback', error); });
      },
      pause: function () { audio.pause(); },
      seek: function (ms) { audio.currentTime = Math.max(0, ms) / 1000; },
      destroy: function () { audio.pause(); }
    };
  }

  function clockTimeline(durationMs) {
    var base = 0, startedAt = 0, running = false;
    function now() {
      if (!running) return base;
      var t = base + (performance.now() - startedAt);
      if (durationMs && t >= durationMs) {
        base = durationMs;
        running = false;
        renderClock();
        return base;
      }
      return Math.floor(t);
    }
    function renderClock() {
      clockToggle.textContent = running ? 'Pause' : 'Play';
      clockToggle.setAttribute('aria-pressed', running ? 'true' : 'false');
      clockTime.textContent = clock(now()) + (durationMs ? ' / ' + clock(durationMs) : '');
    }
    var timeline = {
      now: now,
      paused: function () { now(); return !running; },
      play: function () {
        if (running) return;
        if (durationMs && base >= durationMs) base = 0;
        startedAt = performance.now();
        running = true;
        renderClock();
        startLoop();
      },
      pause: function () {
        if (!running) return;
        base = now();
        running = false;
        renderClock();
        sync();
      },
      seek: function (ms) {
        base = Math.max(0, durationMs ? Math.min(ms, durationMs) : ms);
        startedAt = performance.now();
        renderClock();
        sync();
      },
      render: renderClock,
      destroy: function () { base = now(); running = false; clockBox.hidden = true; }
    };
    renderClock();
    return timeline;
  }

  function togglePlayback() {
    var timeline = song.timeline;
    if (!timeline) return;
    if (timeline.paused()) timeline.play(); else timeline.pause();
  }

  clockToggle.addEventListener('click', togglePlayback);

  // ---------- Keeping the poster in step ----------

  /** Shows the frame for the timeline's position, if it is not the one shown. */
  function sync() {
    if (!song.timeline || !song.frames.length) return;
    var index = frameIndexAt(song.timeline.now());
    if (index !== song.index) showFrame(index);
    if (song.timeline.render) song.timeline.render();
  }

  function showFrame(index) {
    var frame = song.frames[index];
    if (!frame) return;
    song.index = index;
    var url = frameURL(frame.start_ms);
    // The preloaded image (same URL) shows at once when complete; otherwise the poster swaps
    // as soon as it loads, the previous one staying up meanwhile.
    preload(url);
    poster.src = url;
    poster.dataset.at = String(frame.start_ms);
    poster.dataset.line = frame.line == null ? '' : String(frame.line);
    poster.alt = posterAlt(frame);
    downloadLink.href = url;
    downloadLink.download = safeFileName((song.plan && song.plan.title || 'poster') + ' ' + clock(frame.start_ms).replace(/:/g, '-')) + '.png';
    highlightLine(frame.line);
    if (index + 1 < song.frames.length) preload(frameURL(song.frames[index + 1].start_ms));
  }

  function posterAlt(frame) {
    var title = song.plan && song.plan.title ? song.plan.title : 'Song';
    if (frame.text) return 'Poster for ' + title + ': ' + frame.text;
    return 'Poster for ' + title + (frame.start_ms ? ' (interlude)' : '');
  }

  function highlightLine(number) {
    if (song.currentLine === number) return;
    var previous = song.currentLine != null ? song.lineItems.get(song.currentLine) : null;
    if (previous) {
      previous.classList.remove('current');
      previous.removeAttribute('aria-current');
    }
    song.currentLine = number;
    var item = number != null ? song.lineItems.get(number) : null;
    if (!item) return;
    item.classList.add('current');
    item.setAttribute('aria-current', 'true');
    scrollLineIntoView(item);
  }

  /** Scrolls the lyrics list (only the list, never the page) to centre the line. */
  function scrollLineIntoView(item) {
    var box = linesList;
    if (box.scrollHeight <= box.clientHeight + 1) return;
    var top = item.offsetTop - (box.clientHeight - item.offsetHeight) / 2;
    top = Math.max(0, Math.min(top, box.scrollHeight - box.clientHeight));
    if (Math.abs(box.scrollTop - top) < 2) return;
    if (box.scrollTo) box.scrollTo({ top: top, behavior: reduceMotion.matches ? 'auto' : 'smooth' });
    else box.scrollTop = top;
  }

  function startLoop() {
    if (song.rafId) return;
    var tick = function () {
      song.rafId = 0;
      sync();
      if (song.timeline && !song.timeline.paused()) song.rafId = requestAnimationFrame(tick);
    };
    song.rafId = requestAnimationFrame(tick);
  }

  function stopLoop() {
    if (song.rafId) cancelAnimationFrame(song.rafId);
    song.rafId = 0;
  }

  function attachAudio(audio) {
    ['timeupdate', 'seeked', 'seeking', 'pause', 'ratechange', 'loadedmetadata', 'emptied', 'ended'].forEach(function (name) {
      audio.addEventListener(name, sync);
    });
    ['play', 'playing'].forEach(function (name) {
      audio.addEventListener(name, function () { sync(); startLoop(); });
    });
    audio.addEventListener('error', function () {
      if (!audio.error || !audio.getAttribute('src') || song.audio !== audio) return;
      // Unplayable here (format, or the file failed to load): the posters follow a clock instead.
      if (audio.error.code === 3 || audio.error.code === 4) {
        showStatus('This browser cannot play the audio file; the posters follow a clock instead.');
        audio.hidden = true;
        useClock(song.timeline ? song.timeline.now() : 0);
      } else {
        showStatus('Audio: ' + (audio.error.message || 'error ' + audio.error.code));
      }
    });
  }

  function releaseAudio(audio) {
    audio.pause();
    audio.removeAttribute('src');
    try { audio.load(); } catch (e) { /* nothing to release */ }
    audio.remove();
  }

  /** How long the clock runs when there is no playable audio. */
  function planDuration() {
    var plan = song.plan || {};
    var last = song.lines.length ? song.lines[song.lines.length - 1] : null;
    var end = last ? (last.end_ms || last.start_ms) + 3000 : 0;
    var lastFrame = song.frames.length ? song.frames[song.frames.length - 1].start_ms + 3000 : 0;
    return Math.max(plan.duration_ms || 0, end, lastFrame);
  }

  function useClock(position) {
    if (song.timeline && song.timeline.render) return;   // already a clock
    if (song.timeline) song.timeline.destroy();
    song.timeline = clockTimeline(planDuration());
    clockBox.hidden = false;
    if (position) song.timeline.seek(position);
    sync();
  }

  // ---------- Song page: loading ----------

  function teardownSong() {
    stopLoop();
    songSection.classList.remove('unavailable');
    if (song.controller) song.controller.abort();
    if (song.timeline) song.timeline.destroy();
    if (song.audio) releaseAudio(song.audio);
    song.timeline = null;
    song.audio = null;
    song.id = null;
    song.plan = null;
    song.frames = [];
    song.lines = [];
    song.lineItems = new Map();
    song.index = -1;
    song.currentLine = null;
    cache.clear();
    poster.removeAttribute('src');
    delete poster.dataset.at;
    delete poster.dataset.line;
    downloadLink.removeAttribute('href');
    linesList.textContent = '';
    songTitle.textContent = '';
    songArtist.textContent = '';
    clockBox.hidden = true;
    closeCard();
    updatePicks();
  }

  function openSong(id) {
    if (song.id === id && song.plan) {
      sync();
      return;
    }
    teardownSong();
    song.id = id;
    songTitle.textContent = 'Loading…';
    loadPlan(true);
  }

  /** Loads (or reloads, after a picker changed) the plan; the playback position is kept. */
  function loadPlan(first) {
    var id = song.id;
    var sequence = ++song.sequence;
    if (song.controller) song.controller.abort();
    var controller = window.AbortController ? new AbortController() : null;
    song.controller = controller;
    return loadThemes().then(function () {
      if (sequence !== song.sequence) return null;
      return api('/api/songs/' + encodeURIComponent(id) + '/plan?' + query(renderPairs(true)), controller && controller.signal);
    }).then(function (plan) {
      if (!plan || sequence !== song.sequence || song.id !== id) return;
      showStatus('');
      applyPlan(plan, first);
    }).catch(function (error) {
      if (sequence !== song.sequence) return;
      if (first && error.name !== 'AbortError') {
        // Nothing to show or pick (no lyrics, unreadable files): the status line says why.
        songTitle.textContent = 'Song unavailable';
        songSection.classList.add('unavailable');
      }
      reportError('Song', error);
    });
  }

  function applyPlan(plan, first) {
    song.plan = plan;
    song.frames = (plan.frames || []).slice().sort(function (a, b) { return a.start_ms - b.start_ms; });
    song.lines = (plan.lines || []).slice().sort(function (a, b) { return a.start_ms - b.start_ms; });
    song.index = -1;
    song.currentLine = null;
    cache.clear();

    var title = plan.title || 'Untitled';
    songTitle.textContent = title;
    songArtist.textContent = [plan.artist, plan.album].filter(function (part) { return part; }).join(' — ');
    document.title = title + ' — LyricPoster';

    renderLines();

    if (first || !song.timeline) {
      if (plan.audio) {
        var audio = document.createElement('audio');
        audio.id = 'player';
        audio.controls = true;
        audio.preload = 'auto';
        audio.src = withToken('/api/songs/' + encodeURIComponent(song.id) + '/audio');
        transport.insertBefore(audio, transport.firstChild);
        song.audio = audio;
        song.timeline = audioTimeline(audio);
        attachAudio(audio);
        clockBox.hidden = true;
      } else {
        useClock(0);
      }
    }
    sync();
    if (!song.timeline.paused()) startLoop();
  }

  function renderLines() {
    var picked = new Set(pickedNumbers());
    linesList.textContent = '';
    song.lineItems = new Map();
    var fragment = document.createDocumentFragment();
    song.lines.forEach(function (line) {
      var item = el('li');
      item.dataset.number = String(line.number);
      item.dataset.start = String(line.start_ms);

      var pick = el('input', 'pick');
      pick.type = 'checkbox';
      pick.dataset.number = String(line.number);
      pick.checked = picked.has(line.number);
      pick.setAttribute('aria-label', 'Pick line ' + line.number + ' for a card');
      if (pick.checked) item.classList.add('picked');

      var seek = el('button', 'line-seek');
      seek.type = 'button';
      seek.dataset.start = String(line.start_ms);
      seek.title = 'Play from ' + clock(line.start_ms);
      seek.appendChild(el('span', 'text', line.text || '…'));
      if (line.translation) seek.appendChild(el('span', 'translation', line.translation));

      item.appendChild(pick);
      item.appendChild(seek);
      fragment.appendChild(item);
      song.lineItems.set(line.number, item);
    });
    linesList.appendChild(fragment);
    linesEmpty.hidden = song.lines.length > 0;
    updatePicks();
  }

  function seekTo(ms) {
    if (!song.timeline) return;
    song.timeline.seek(ms);
    sync();
  }

  linesList.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('.line-seek') : null;
    if (!button || !linesList.contains(button)) return;
    seekTo(Number(button.dataset.start));
  });

  function changeParameters() {
    storedSet('theme', themeSelect.value);
    storedSet('preset', presetSelect.value);
    storedSet('translations', translationsSelect.value);
    if (!song.id) return;
    closeCard();
    loadPlan(false);
  }
  themeSelect.addEventListener('change', changeParameters);
  presetSelect.addEventListener('change', changeParameters);
  translationsSelect.addEventListener('change', changeParameters);

  // ---------- Share cards ----------

  function pickedNumbers() {
    var numbers = [];
    linesList.querySelectorAll('input.pick:checked').forEach(function (box) { numbers.push(Number(box.dataset.number)); });
    return numbers.sort(function (a, b) { return a - b; });
  }

  /** The card's range from the ticked lines: `{from, to, contiguous}` or null. */
  function pickedRange() {
    var numbers = pickedNumbers();
    if (!numbers.length) return null;
    var from = numbers[0], to = numbers[numbers.length - 1];
    return { from: from, to: to, count: to - from + 1, contiguous: numbers.length === to - from + 1 };
  }

  function updatePicks() {
    var range = pickedRange();
    clearPicksButton.disabled = !range;
    if (!range) {
      makeCardButton.disabled = true;
      cardHint.textContent = 'Tick 1–8 lines to make a card.';
      return;
    }
    var span = range.from === range.to ? 'line ' + range.from : 'lines ' + range.from + '–' + range.to;
    if (range.count > 8) {
      makeCardButton.disabled = true;
      cardHint.textContent = 'A card holds at most 8 lines; ' + span + ' is ' + range.count + '.';
      return;
    }
    makeCardButton.disabled = false;
    cardHint.textContent = range.contiguous
      ? 'The card will show ' + span + '.'
      : 'Not contiguous: the card will show ' + span + ', the lines in between included.';
  }

  linesList.addEventListener('change', function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains('pick')) return;
    var item = box.closest('li');
    if (item) item.classList.toggle('picked', box.checked);
    updatePicks();
  });

  clearPicksButton.addEventListener('click', function () {
    linesList.querySelectorAll('input.pick:checked').forEach(function (box) {
      box.checked = false;
      var item = box.closest('li');
      if (item) item.classList.remove('picked');
    });
    updatePicks();
  });

  var cardSequence = 0;

  function closeCard() {
    cardSequence++;
    cardPanel.hidden = true;
    cardPanel.classList.remove('failed', 'loading');
    cardImage.removeAttribute('src');
    cardDownload.removeAttribute('href');
    cardError.hidden = true;
    cardError.textContent = '';
  }

  function cardFailed(sequence, url) {
    // The image could not be shown: ask again for the server's message (422: does not fit, …).
    fetch(url, { headers: { Accept: 'application/json' } }).then(function (response) {
      return response.text().then(function (body) {
        var message = null;
        try { message = JSON.parse(body).error; } catch (e) { message = null; }
        if (response.ok) return 'The card could not be shown.';
        return message || response.status + ' ' + response.statusText;
      });
    }, function (error) {
      return error.message || 'The card could not be loaded.';
    }).then(function (message) {
      if (sequence !== cardSequence) return;
      cardPanel.classList.remove('loading');
      cardPanel.classList.add('failed');
      cardError.textContent = message;
      cardError.hidden = false;
    });
  }

  makeCardButton.addEventListener('click', function () {
    var range = pickedRange();
    if (!range || range.count > 8 || !song.id) return;
    var sequence = ++cardSequence;
    var url = withToken('/api/songs/' + encodeURIComponent(song.id) + '/card.png?' +
      query([['lines', range.from + '-' + range.to]].concat(renderPairs(false))));
    cardPanel.hidden = false;
    cardPanel.classList.remove('failed');
    cardPanel.classList.add('loading');
    cardError.hidden = true;
    cardError.textContent = '';
    cardDownload.removeAttribute('href');
    cardImage.alt = 'Share card: ' + (song.plan && song.plan.title || 'song') + ', lines ' + range.from + '–' + range.to;
    cardImage.onload = function () {
      if (sequence !== cardSequence) return;
      cardPanel.classList.remove('loading');
      cardDownload.href = url;
      cardDownload.download = safeFileName((song.plan && song.plan.title || 'card') + ' lines ' + range.from + '-' + range.to) + '.png';
    };
    cardImage.onerror = function () {
      if (sequence !== cardSequence) return;
      cardFailed(sequence, url);
    };
    cardImage.src = url;
    if (cardPanel.scrollIntoView) cardPanel.scrollIntoView({ block: 'nearest', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  });

  cardClose.addEventListener('click', function () {
    closeCard();
    makeCardButton.focus();
  });

  // ---------- Keyboard ----------

  var TEXT_INPUTS = ['text', 'search', 'email', 'number', 'password', 'url', 'tel', 'date', 'time'];

  function isTextField(target) {
    if (!target || target === document.body) return false;
    if (target.isContentEditable) return true;
    var tag = target.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
    return tag === 'INPUT' && TEXT_INPUTS.indexOf((target.type || 'text').toLowerCase()) >= 0;
  }

  /** Keys the focused control handles itself: a checkbox's Space, a slider's arrows, the
      audio element's controls. */
  function ownsKey(target, key) {
    if (!target || !target.tagName) return false;
    if (target.tagName === 'AUDIO' || target.tagName === 'VIDEO') return true;
    if (target.tagName !== 'INPUT') return false;
    var type = (target.type || '').toLowerCase();
    if (key === ' ' || key === 'Spacebar') return type === 'checkbox' || type === 'radio';
    return type === 'range' || type === 'radio';
  }

  var spaceTaken = false;

  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var onSong = route().name === 'song';

    if (event.key === '/' && !isTextField(target)) {
      event.preventDefault();
      search.focus();
      search.select();
      return;
    }
    if (!onSong || isTextField(target) || ownsKey(target, event.key)) return;

    if (event.key === ' ' || event.key === 'Spacebar') {
      event.preventDefault();
      spaceTaken = true;
      if (!event.repeat) togglePlayback();
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      if (!song.timeline || !song.lines.length) return;
      event.preventDefault();
      var k = lineIndexAt(song.timeline.now());
      if (event.key === 'ArrowRight') {
        if (k + 1 < song.lines.length) seekTo(song.lines[k + 1].start_ms);
      } else if (k >= 1) {
        seekTo(song.lines[k - 1].start_ms);
      } else {
        seekTo(0);
      }
    }
  });

  // A button under focus must not also be clicked by the Space that toggled playback.
  document.addEventListener('keyup', function (event) {
    if ((event.key === ' ' || event.key === 'Spacebar') && spaceTaken) {
      spaceTaken = false;
      event.preventDefault();
    }
  });

  // ---------- Routing ----------

  function route() {
    var hash = location.hash.replace(/^#/, '');
    if (hash === '/now') return { name: 'now' };
    var match = /^\/song\/([^\/?#]+)\/?$/.exec(hash);
    if (match) return { name: 'song', id: decodeURIComponent(match[1]) };
    return { name: 'library' };
  }

  function render() {
    var current = route();
    showStatus('');
    var now = current.name === 'now';
    nowSection.hidden = !now;
    if (now) nowLink.setAttribute('aria-current', 'page'); else nowLink.removeAttribute('aria-current');
    // The live page's event stream is closed when the view is left.
    if (!now && nowFrame.getAttribute('src')) nowFrame.removeAttribute('src');
    if (now) {
      if (song.timeline && !song.timeline.paused()) song.timeline.pause();
      stopLoop();
      songSection.hidden = true;
      librarySection.hidden = true;
      document.title = 'Now playing \u2014 LyricPoster';
      if (!nowFrame.getAttribute('src')) nowFrame.setAttribute('src', withToken('/overlay'));
    } else if (current.name === 'song') {
      librarySection.hidden = true;
      songSection.hidden = false;
      openSong(current.id);
      window.scrollTo(0, 0);
    } else {
      if (song.timeline && !song.timeline.paused()) song.timeline.pause();
      stopLoop();
      songSection.hidden = true;
      librarySection.hidden = false;
      document.title = 'LyricPoster';
      var text = search.value.trim();
      if (!library.loaded || library.scanning || library.query !== text) loadSongs(false);
    }
  }

  window.addEventListener('hashchange', render);

  // Catch up at once when the tab comes back (animation frames pause while it is hidden).
  document.addEventListener('visibilitychange', function () {
    if (!document.hidden) sync();
  });

  loadThemes();
  render();
})();

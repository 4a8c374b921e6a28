/* LyricPoster — the live overlay at /overlay (OBS browser sources, second screens).
   Follows `lyricposter serve --follow` through /events: each poster is preloaded, then
   crossfaded in over the previous one. The page stays transparent around the posters.
   A server started without --follow answers the live routes with 404: the page then says how
   to start it (and looks again every few seconds), as it does when its token is missing.
   Lock-screen controls (play/pause, previous, next, a progress bar to tap or drag) POST
   /api/player/ACTION when the server lets this page control the player. */
(function () {
  'use strict';

  var own = new URLSearchParams(location.search);
  var TOKEN = own.get('token');

  /** The URL with `token=T` added when the page was opened with `?token=T` (EventSource and
      images cannot send an Authorization header). */
  function withToken(url) {
    if (!TOKEN) return url;
    var query = url.indexOf('?');
    if (query >= 0 && new URLSearchParams(url.slice(query + 1)).has('token')) return url;
    return url + (query >= 0 ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN);
  }

  // The render parameters passed on to /events and /now.json, as given in the page's own query.
  var PASSED = ['theme', 'preset', 'layer', 'size', 'translations', 'romanisation', 'lang', 'before', 'after', 'karaoke'];
  // Percent-encoded (spaces as %20: the server does not read "+" as a space).
  var paramText = PASSED.filter(function (name) { return own.get(name); })
    .map(function (name) { return name + '=' + encodeURIComponent(own.get(name)); }).join('&');

  function endpoint(path) {
    return withToken(paramText ? path + '?' + paramText : path);
  }

  var layers = [document.getElementById('a'), document.getElementById('b')];
  var front = 0;            // index of the image showing (or last shown)
  var sequence = 0;         // bumped for every poster asked for; older loads are dropped
  var shownURL = null;      // the poster in front
  var faded = false;        // both faded out (stopped / waiting)

  /** Preloads the poster, then crossfades it in over the one showing. */
  function showPoster(url) {
    if (!url) return;
    var mine = ++sequence;
    if (url === shownURL) {
      if (faded) reveal();
      document.body.dataset.poster = url;
      return;
    }
    var src = withToken(url);
    var image = new Image();
    image.decoding = 'async';
    image.onload = function () {
      if (mine !== sequence) return;
      var back = layers[1 - front];
      back.src = src;
      var ready = back.decode ? back.decode().catch(function () {}) : Promise.resolve();
      ready.then(function () {
        if (mine !== sequence) return;
        swap(url);
      });
    };
    image.onerror = function () {
      if (mine !== sequence) return;
      if (window.console) console.warn('LyricPoster overlay: could not load', url);
    };
    image.src = src;
  }

  /** Fetches the next line's poster ahead (kept by the browser: its address is immutable), so
      that when its event comes it is shown at once. */
  var ahead = null;
  function preload(url) {
    if (ahead && ahead.url === url) return;
    var image = new Image();
    image.decoding = 'async';
    image.src = withToken(url);
    ahead = { url: url, image: image };
  }

  function swap(url) {
    var back = layers[1 - front];
    var current = layers[front];
    back.classList.add('front', 'shown');
    current.classList.remove('front', 'shown');
    front = 1 - front;
    faded = false;
    shownURL = url;
    document.body.dataset.poster = url;
    fitControls();
  }

  /** The controls as wide as the poster on screen (it is contained in the window), within
      300 to 640 px and the window. */
  function fitControls() {
    var image = layers[front];
    if (!image.naturalWidth || !image.naturalHeight) return;
    var shown = Math.min(innerWidth, innerHeight * image.naturalWidth / image.naturalHeight);
    controlsBox.style.width = Math.min(innerWidth - 16, Math.max(300, Math.min(640, shown - 24))) + 'px';
  }
  window.addEventListener('resize', fitControls);

  function fadeOut() {
    faded = true;
    layers.forEach(function (layer) { layer.classList.remove('shown'); });
  }

  function reveal() {
    if (!shownURL) return;
    faded = false;
    layers[front].classList.add('shown', 'front');
  }

  function applyStatus(status) {
    if (!status) return;
    document.body.dataset.status = status;
    if (status === 'stopped' || status === 'waiting') {
      sequence++;   // a poster still loading must not show after this
      fadeOut();
    } else if (faded) {
      reveal();
    }
  }

  // ---------- Lock-screen controls ----------
  // Shown when the server says this page may control the player (`controls` is a list, not
  // null), except over the text layer, in OBS, or with ?controls=0. The bar shows where the
  // player was at its last event, moved on by its rate; a control changes nothing here by itself:
  // the player's own events (a seek's Seeked, a new status) move the bar and the poster.

  var controlsBox = document.getElementById('controls');
  var progress = document.getElementById('progress');
  var fill = document.getElementById('progress-fill');
  var thumb = document.getElementById('progress-thumb');
  var elapsedText = document.getElementById('elapsed');
  var remainingText = document.getElementById('remaining');
  var controlMessage = document.getElementById('control-message');
  var buttons = {
    previous: document.getElementById('previous'),
    toggle: document.getElementById('toggle'),
    next: document.getElementById('next')
  };
  var CONTROLS_WANTED = own.get('layer') !== 'text' && own.get('controls') !== '0' && !window.obsstudio;
  var ALWAYS_SHOWN = own.get('controls') === 'always';
  var IDLE_MS = 5000;
  var player = { controls: null, durationMs: 0, positionMs: 0, rate: 0, at: 0, playing: false };
  var dragging = null;      // the fraction under the finger while the bar is dragged
  var held = null;          // { fraction, until }: a seek sent, shown until the player says where it is

  function clockText(ms) {
    var seconds = Math.max(0, Math.floor(ms / 1000));
    var minutes = Math.floor(seconds / 60);
    return minutes + ':' + String(seconds % 60).padStart(2, '0');
  }

  /** Takes the player's state from a status event or /now.json. */
  function applyPlayer(data) {
    if (!data) return;
    if ('controls' in data) player.controls = Array.isArray(data.controls) ? data.controls : null;
    if ('duration_ms' in data) player.durationMs = data.duration_ms || 0;
    player.playing = data.status === 'playing';
    if (typeof data.position_ms === 'number') {
      player.positionMs = data.position_ms;
      player.at = performance.now();
      held = null;
    }
    player.rate = typeof data.rate === 'number' ? data.rate : (player.playing ? 1 : 0);
    if (!player.playing) player.rate = 0;
    renderControls();
  }

  function can(control) { return !!player.controls && player.controls.indexOf(control) >= 0; }

  function seekable() { return can('seek') && player.durationMs > 0; }

  function renderControls() {
    var show = CONTROLS_WANTED && !!player.controls && document.body.dataset.notice === '';
    controlsBox.hidden = !show;
    document.body.dataset.controls = show ? 'shown' : 'hidden';
    if (!show) return;
    buttons.toggle.disabled = !(player.playing ? can('pause') : can('play'));
    buttons.toggle.classList.toggle('playing', player.playing);
    buttons.toggle.setAttribute('aria-label', player.playing ? 'Pause' : 'Play');
    buttons.previous.disabled = !can('previous');
    buttons.next.disabled = !can('next');
    progress.classList.toggle('unseekable', !seekable());
    progress.setAttribute('aria-disabled', seekable() ? 'false' : 'true');
    drawProgress();
  }

  function positionNow() {
    var moved = player.positionMs + (performance.now() - player.at) * player.rate;
    return player.durationMs > 0 ? Math.min(player.durationMs, moved) : moved;
  }

  function drawProgress() {
    if (controlsBox.hidden) return;
    var duration = player.durationMs;
    if (held && performance.now() > held.until) held = null;
    var fraction = dragging !== null ? dragging : held ? held.fraction : duration > 0 ? positionNow() / duration : 0;
    fraction = Math.max(0, Math.min(1, fraction));
    var position = duration > 0 ? fraction * duration : positionNow();
    fill.style.width = (fraction * 100).toFixed(3) + '%';
    thumb.style.left = (fraction * 100).toFixed(3) + '%';
    elapsedText.textContent = clockText(position);
    remainingText.textContent = duration > 0 ? '\u2212' + clockText(duration - position) : '';
    progress.setAttribute('aria-valuemax', String(Math.round(duration / 1000)));
    progress.setAttribute('aria-valuenow', String(Math.round(position / 1000)));
    progress.setAttribute('aria-valuetext', clockText(position));
  }
  setInterval(drawProgress, 200);

  function say(text) { controlMessage.textContent = text; }

  /** Sends a control; what the player then does comes back as events. */
  function send(action, body) {
    var options = { method: 'POST', headers: {}, cache: 'no-store' };
    if (TOKEN) options.headers.Authorization = 'Bearer ' + TOKEN;
    if (body) {
      options.headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(body);
    }
    document.body.dataset.lastControl = action + ':sent';
    return fetch('/api/player/' + action, options).then(function (response) {
      document.body.dataset.lastControl = action + ':' + response.status;
      if (response.status === 204) { say(''); return; }
      held = null;
      return response.json().then(function (answer) { say(answer.error || 'HTTP ' + response.status); },
                                  function () { say('HTTP ' + response.status); });
    }).catch(function () {
      document.body.dataset.lastControl = action + ':failed';
      held = null;
      say('The server did not answer.');
    });
  }

  buttons.toggle.addEventListener('click', function () { send('toggle'); });
  buttons.previous.addEventListener('click', function () { send('previous'); });
  buttons.next.addEventListener('click', function () { send('next'); });

  function fractionAt(event) {
    var box = progress.getBoundingClientRect();
    return box.width > 0 ? Math.max(0, Math.min(1, (event.clientX - box.left) / box.width)) : 0;
  }

  function seekTo(fraction) {
    held = { fraction: fraction, until: performance.now() + 2000 };
    send('seek', { position_ms: Math.round(fraction * player.durationMs) });
  }

  progress.addEventListener('pointerdown', function (event) {
    if (!seekable()) return;
    event.preventDefault();
    progress.setPointerCapture(event.pointerId);
    dragging = fractionAt(event);
    progress.classList.add('dragging');
    drawProgress();
  });
  progress.addEventListener('pointermove', function (event) {
    if (dragging === null) return;
    dragging = fractionAt(event);
    drawProgress();
  });
  function endDrag(event, cancelled) {
    if (dragging === null) return;
    var fraction = cancelled ? null : fractionAt(event);
    dragging = null;
    progress.classList.remove('dragging');
    if (fraction !== null) seekTo(fraction);
    drawProgress();
  }
  progress.addEventListener('pointerup', function (event) { endDrag(event, false); });
  progress.addEventListener('pointercancel', function (event) { endDrag(event, true); });
  progress.addEventListener('keydown', function (event) {
    if (!seekable()) return;
    var step = { ArrowLeft: -5000, ArrowRight: 5000, PageDown: -30000, PageUp: 30000 }[event.key];
    if (event.key === 'Home') step = -positionNow();
    if (step === undefined) return;
    event.preventDefault();
    seekTo(Math.max(0, Math.min(1, (positionNow() + step) / player.durationMs)));
  });

  // Faded after a few idle seconds; any touch, move or key brings the controls back.
  var idleTimer = 0;
  function wake() {
    document.body.classList.remove('idle');
    clearTimeout(idleTimer);
    if (!ALWAYS_SHOWN) {
      idleTimer = setTimeout(function () {
        if (dragging === null) document.body.classList.add('idle'); else wake();
      }, IDLE_MS);
    }
  }
  ['pointermove', 'pointerdown', 'keydown', 'touchstart'].forEach(function (type) {
    document.addEventListener(type, wake, { passive: true });
  });
  document.addEventListener('keydown', function (event) {
    if (controlsBox.hidden || event.target.closest && event.target.closest('button, .progress')) return;
    if (event.key === ' ' || event.key === 'k') {
      event.preventDefault();
      if (!buttons.toggle.disabled) send('toggle');
    }
  });
  wake();

  function parse(event) {
    try { return JSON.parse(event.data); } catch (e) { return null; }
  }

  // ---------- Notices: nothing to follow, or no token ----------

  var notice = document.getElementById('notice');
  var NOTICES = {
    'not-following': ['Nothing is following a player',
                      'Start the server with `lyricposter serve --follow` to show the playing song here.'],
    'token': ['This overlay needs the server\u2019s token', 'Open it as /overlay?token=TOKEN.']
  };

  /** Shows the notice `kind` (a key of NOTICES), or hides it for null. Text between backticks is code. */
  function showNotice(kind) {
    document.body.dataset.notice = kind || '';
    notice.hidden = !kind;
    renderControls();
    if (!kind) return;
    document.getElementById('notice-title').textContent = NOTICES[kind][0];
    var text = document.getElementById('notice-text');
    text.textContent = '';
    NOTICES[kind][1].split('`').forEach(function (part, index) {
      text.appendChild(index % 2 ? Object.assign(document.createElement('code'), { textContent: part }) : document.createTextNode(part));
    });
  }

  // ---------- The event stream ----------

  var source = null;
  var reopenTimer = 0;
  var checkTimer = 0;

  function close() {
    clearTimeout(reopenTimer);
    if (source) source.close();
    source = null;
  }

  function open() {
    clearTimeout(reopenTimer);
    if (source) source.close();
    source = new EventSource(endpoint('/events'));

    source.addEventListener('poster', function (event) {
      var data = parse(event);
      if (data && data.poster) showPoster(data.poster);
      if (data && data.next) preload(data.next);
    });

    source.addEventListener('status', function (event) {
      var data = parse(event);
      if (data) applyStatus(data.status);
      applyPlayer(data);
    });

    source.addEventListener('song', function (event) {
      var data = parse(event);
      if (data && data.track != null) document.body.dataset.track = String(data.track);
    });

    source.addEventListener('error', function () {
      // The browser retries by itself while the stream is CONNECTING; once CLOSED, reopen.
      if (source && source.readyState === EventSource.CLOSED) {
        clearTimeout(reopenTimer);
        reopenTimer = setTimeout(function () { close(); fetchNow(); }, 2000);
      }
    });
  }

  /** What is showing now, for a page opened mid-song; the stream is opened once the server is
      known to follow a player (404: it does not; 401: the token is missing). */
  function fetchNow() {
    var asked = sequence;
    clearTimeout(checkTimer);
    fetch(endpoint('/now.json'), { headers: { Accept: 'application/json' }, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 404 || response.status === 401) {
          close();
          showNotice(response.status === 404 ? 'not-following' : 'token');
          // A server restarted with --follow is picked up by looking again.
          if (response.status === 404) checkTimer = setTimeout(fetchNow, 5000);
          return null;
        }
        showNotice(null);
        if (!source) open();
        return response.ok ? response.json() : null;
      })
      .then(function (now) {
        if (!now || asked !== sequence) return;   // an event came first: it is newer
        if (now.poster) showPoster(now.poster);
        if (now.status === 'stopped' || now.status === 'waiting') applyStatus(now.status);
        applyPlayer(now);
      })
      .catch(function () {
        // The server is away: the stream reconnects by itself.
        if (!source) open();
      });
  }

  fetchNow();
})();

/* LyricPoster — the live overlay at /overlay (OBS browser sources, second screens).
   Follows `lyricposter serve --follow` through /events: each poster is preloaded, then
   crossfaded in over the previous one. The page stays transparent around the posters.
   A server started without --follow answers the live routes with 404: the page then says how
   to start it (and looks again every few seconds), as it does when its token is missing. */
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
  }

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
      })
      .catch(function () {
        // The server is away: the stream reconnects by itself.
        if (!source) open();
      });
  }

  fetchNow();
})();

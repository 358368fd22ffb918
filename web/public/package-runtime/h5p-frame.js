/*
 * The H5P player, frame side (issue 11 finding 1). Runs in h5p.html, a sandboxed document in an origin that is not
 * the app's, framed by web/src/learning/players/H5PPlayer.tsx, which names the frame
 * "cc-h5p:" + JSON {origin: the player's origin, id: the package uuid, base: its signed launch path, title, and
 * runtime: where h5p-player/ is when not at /packages/runtime, json: the package's JSON files (both offline, from the
 * device's stored copy)}.
 *
 * It starts h5p-standalone on the package and posts to its parent, at the player's origin only:
 *   {cc: 'h5p', type: 'xapi', statement}   every xAPI statement (the player judges them, h5p-xapi.ts)
 *   {cc: 'h5p', type: 'scored', scored}    whether the item is a scored activity (its instance has a max score)
 *   {cc: 'h5p', type: 'height', height}    the page's height, so the player sizes the frame
 *   {cc: 'h5p', type: 'error'}             the item could not be started
 */
(function (win, doc) {
  'use strict';
  var PREFIX = 'cc-h5p:';
  var name = typeof win.name === 'string' ? win.name : '';
  if (name.indexOf(PREFIX) !== 0 || win.parent === win) return;
  var seed;
  try {
    seed = JSON.parse(name.slice(PREFIX.length));
  } catch (e) {
    return;
  }
  if (!seed || typeof seed.origin !== 'string' || typeof seed.id !== 'string' || typeof seed.base !== 'string')
    return;
  var parent = win.parent;
  if (typeof seed.title === 'string') doc.title = seed.title;

  /*
   * Offline on a device: the package's JSON files (h5p.json, content/content.json, each library.json) come in the
   * seed, read from the device by the app. The device's file server answers an opaque-origin frame without CORS
   * headers, so h5p-standalone's fetch() of them would fail; its scripts, styles and images load as usual.
   */
  var stored = seed.json && typeof seed.json === 'object' ? seed.json : null;
  if (stored && typeof win.fetch === 'function') {
    var realFetch = win.fetch.bind(win);
    var prefix = seed.base.replace(/\/+$/, '') + '/';
    win.fetch = function (input, init) {
      var url = typeof input === 'string' ? input : input && input.url;
      if (typeof url === 'string' && url.indexOf(prefix) === 0) {
        var path = url.slice(prefix.length).split(/[?#]/)[0].replace(/^\/+/, '');
        if (Object.prototype.hasOwnProperty.call(stored, path))
          return Promise.resolve(
            new win.Response(stored[path], { status: 200, headers: { 'Content-Type': 'application/json' } }),
          );
      }
      return realFetch(input, init);
    };
  }
  // Where the player's own files are: the server's runtime path, or the copy on the device (offline, in the shell).
  var RUNTIME = typeof seed.runtime === 'string' ? seed.runtime : '/packages/runtime/h5p-player';

  function post(message) {
    message.cc = 'h5p';
    parent.postMessage(message, seed.origin);
  }

  var lastHeight = 0;
  function reportHeight() {
    var height = Math.ceil(doc.documentElement.scrollHeight);
    if (height !== lastHeight) {
      lastHeight = height;
      post({ type: 'height', height: height });
    }
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(reportHeight).observe(doc.body);
  setInterval(reportHeight, 500); // H5P's own iframe resizes itself inside the page

  /** The item's H5P instance, once H5P core has made it (in its own frame when the library asks for one). */
  function findInstance(tries) {
    var instance = null;
    try {
      var frame = doc.querySelector('#h5p iframe');
      var inner = frame && frame.contentWindow && frame.contentWindow.H5P;
      instance = (inner && inner.instances && inner.instances[0]) || (win.H5P && win.H5P.instances && win.H5P.instances[0]);
    } catch (e) {
      instance = null;
    }
    if (instance) {
      var max = 0;
      try {
        max = typeof instance.getMaxScore === 'function' ? Number(instance.getMaxScore()) : 0;
      } catch (e) {
        max = 0;
      }
      post({ type: 'scored', scored: isFinite(max) && max > 0 });
    } else if (tries > 0) setTimeout(function () { findInstance(tries - 1); }, 100);
  }

  /**
   * A package frame may be refused localStorage (an opaque origin always is; a package origin framed by the app is a
   * third party), and H5P core reads it unguarded (user id, clipboard) in the content frame it writes itself. Each
   * frame's window gets an in-memory stand-in when its own is refused, as H5P reaches into the frame.
   */
  function storageFor(w) {
    try {
      w.localStorage.getItem('h5p');
      return;
    } catch (e) {
      // refused: the stand-in below
    }
    var data = {};
    var memory = {
      getItem: function (k) {
        return Object.prototype.hasOwnProperty.call(data, k) ? data[k] : null;
      },
      setItem: function (k, v) {
        data[k] = String(v);
      },
      removeItem: function (k) {
        delete data[k];
      },
      clear: function () {
        data = {};
      },
    };
    try {
      Object.defineProperty(w, 'localStorage', { value: memory, configurable: true });
    } catch (e) {
      // H5P then fails as it would have.
    }
  }
  storageFor(win);
  ['contentWindow', 'contentDocument'].forEach(function (prop) {
    var own = Object.getOwnPropertyDescriptor(win.HTMLIFrameElement.prototype, prop);
    if (!own || !own.get) return;
    Object.defineProperty(win.HTMLIFrameElement.prototype, prop, {
      configurable: true,
      get: function () {
        var value = own.get.call(this);
        var w = value && (prop === 'contentWindow' ? value : value.defaultView);
        if (w) storageFor(w);
        return value;
      },
    });
  });

  var el = doc.getElementById('h5p');
  try {
    new win.H5PStandalone.H5P(el, {
      id: seed.id,
      h5pJsonPath: seed.base,
      frameJs: RUNTIME + '/frame.bundle.js',
      frameCss: RUNTIME + '/styles/h5p.css',
      frame: false,
      copyright: false,
      export: false,
      embed: false,
      fullScreen: true,
    })
      .then(function () {
        var dispatcher = win.H5P && win.H5P.externalDispatcher;
        if (dispatcher)
          dispatcher.on('xAPI', function (event) {
            var statement = event && event.data && event.data.statement;
            if (!statement) return;
            try {
              post({ type: 'xapi', statement: JSON.parse(JSON.stringify(statement)) });
            } catch (e) {
              // A statement that cannot be copied carries nothing we can record.
            }
          });
        // h5p-standalone leaves its iframe unnamed; screen readers need a frame title (WCAG 4.1.2).
        var frames = doc.querySelectorAll('iframe');
        for (var i = 0; i < frames.length; i++) if (!frames[i].title) frames[i].title = seed.title || 'Interactive item';
        findInstance(50);
        reportHeight();
      })
      .catch(function () {
        post({ type: 'error' });
      });
  } catch (e) {
    post({ type: 'error' });
  }
})(window, document);

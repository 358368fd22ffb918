/*
 * The SCORM bridge, frame side (issue 11 finding 1). The server puts this script first into every HTML page of a
 * SCORM package (server/src/packages/routes.ts). The page runs sandboxed, in an origin that is not the app's, so the
 * player's SCORM runtime is out of its reach; this script gives the SCO a window.API (SCORM 1.2) or
 * window.API_1484_11 (SCORM 2004) that passes every call to the player by postMessage
 * (web/src/learning/players/package-frame.ts, connectScormFrame).
 *
 * SCORM calls are synchronous and postMessage is not: calls are answered at once from the SCO's values, which the
 * player seeds through the frame's name ("cc-scorm:" + JSON {origin, version, values}) before the page loads, and
 * which every reply refreshes (the reply to the latest call carries the runtime's values after all earlier ones).
 * The frame's name keeps the values, so another page the SCO opens in the same frame starts from them.
 *
 * It only acts in the player's own frame (a frame named by the player, directly inside it), posts only to its
 * parent at the player's origin, and accepts replies only from its parent at that origin.
 */
(function (win) {
  'use strict';
  var PREFIX = 'cc-scorm:';
  var name = typeof win.name === 'string' ? win.name : '';
  if (name.indexOf(PREFIX) !== 0 || win.parent === win) return;
  var seed;
  try {
    seed = JSON.parse(name.slice(PREFIX.length));
  } catch (e) {
    return;
  }
  if (!seed || typeof seed.origin !== 'string' || (seed.version !== '1.2' && seed.version !== '2004')) return;
  var parent = win.parent;
  var origin = seed.origin;
  var values = seed.values && typeof seed.values === 'object' ? seed.values : {};
  var lastError = '0';
  var sent = 0;
  var ERRORS = {
    0: 'No error',
    101: 'General exception',
    201: 'Invalid argument error',
    301: 'Not initialized',
    401: 'Not implemented error',
    403: 'Element is read only',
    404: 'Element is write only',
    405: 'Incorrect data type',
  };

  function remember() {
    try {
      win.name = PREFIX + JSON.stringify({ origin: origin, version: seed.version, values: values });
    } catch (e) {
      // A frame name the browser refuses only loses the values for a next page.
    }
  }

  function send(method, args) {
    sent += 1;
    parent.postMessage({ cc: 'scorm', id: sent, method: method, args: args }, origin);
  }

  win.addEventListener('message', function (event) {
    if (event.source !== parent || event.origin !== origin) return;
    var data = event.data;
    if (data && data.cc === 'scorm-close') return close();
    if (!data || data.cc !== 'scorm-reply' || data.id !== sent) return; // only the reply to the latest call is current
    if (data.values && typeof data.values === 'object') values = data.values;
    if (typeof data.error === 'string') lastError = data.error;
    remember();
  });

  /**
   * The player is about to close this frame. In the launcher, the SCO's frame is emptied here first: its
   * beforeunload / unload handlers (where SCOs call LMSFinish) then run while this page, and its bridge, are still
   * alive. A frame of another origin closed by the player unloads in its own process, too late to be heard.
   */
  function close() {
    var inner = win.document && win.document.querySelector('iframe');
    var done = function () {
      parent.postMessage({ cc: 'scorm-closed' }, origin);
    };
    if (!inner) return done();
    inner.addEventListener('load', function () {
      setTimeout(done, 0);
    });
    inner.src = 'about:blank';
  }

  /** n in "cmi.interactions._count": how many distinct indices the values hold below that collection. */
  function count(key) {
    var base = key.slice(0, -'_count'.length);
    var seen = {};
    var n = 0;
    var index;
    for (var k in values) {
      if (k.indexOf(base) !== 0) continue;
      index = k.slice(base.length).split('.')[0];
      if (/^\d+$/.test(index) && !seen[index]) {
        seen[index] = true;
        n += 1;
      }
    }
    return String(n);
  }

  function getValue(method, key) {
    key = String(key);
    send(method, [key]);
    lastError = '0';
    if (Object.prototype.hasOwnProperty.call(values, key)) return String(values[key]);
    if (/\._count$/.test(key)) return count(key);
    return '';
  }

  function setValue(method, key, value) {
    key = String(key);
    value = String(value);
    values[key] = value;
    lastError = '0';
    send(method, [key, value]);
    remember();
    return 'true';
  }

  function call(method) {
    lastError = '0';
    send(method, []);
    return 'true';
  }

  if (seed.version === '1.2') {
    win.API = {
      LMSInitialize: function () {
        return call('LMSInitialize');
      },
      LMSFinish: function () {
        return call('LMSFinish');
      },
      LMSCommit: function () {
        return call('LMSCommit');
      },
      LMSGetValue: function (key) {
        return getValue('LMSGetValue', key);
      },
      LMSSetValue: function (key, value) {
        return setValue('LMSSetValue', key, value);
      },
      LMSGetLastError: function () {
        return lastError;
      },
      LMSGetErrorString: function (code) {
        return ERRORS[String(code)] || '';
      },
      LMSGetDiagnostic: function (code) {
        return ERRORS[String(code || lastError)] || '';
      },
    };
  } else {
    win.API_1484_11 = {
      Initialize: function () {
        return call('Initialize');
      },
      Terminate: function () {
        return call('Terminate');
      },
      Commit: function () {
        return call('Commit');
      },
      GetValue: function (key) {
        return getValue('GetValue', key);
      },
      SetValue: function (key, value) {
        return setValue('SetValue', key, value);
      },
      GetLastError: function () {
        return lastError;
      },
      GetErrorString: function (code) {
        return ERRORS[String(code)] || '';
      },
      GetDiagnostic: function (code) {
        return ERRORS[String(code || lastError)] || '';
      },
    };
  }
})(window);

/*
 * Frames the SCO inside the SCORM launcher (scorm.html). The player names the launcher's frame
 * "cc-scorm:" + JSON {origin, version, values, launch}; `launch` is the SCO's signed URL. Only a URL on this page's
 * own origin is opened: the SCO must share the launcher's origin to reach its window.API.
 */
(function (win, doc) {
  'use strict';
  var PREFIX = 'cc-scorm:';
  var name = typeof win.name === 'string' ? win.name : '';
  if (name.indexOf(PREFIX) !== 0) return;
  var seed;
  try {
    seed = JSON.parse(name.slice(PREFIX.length));
  } catch (e) {
    return;
  }
  if (!seed || typeof seed.launch !== 'string') return;
  var url;
  try {
    url = new URL(seed.launch, win.location.href);
  } catch (e) {
    return;
  }
  if (url.origin !== win.location.origin || url.pathname.indexOf('/packages/') !== 0) return;
  var frame = doc.createElement('iframe');
  frame.title = doc.title;
  frame.setAttribute('allow', 'fullscreen; autoplay');
  frame.src = url.href;
  doc.body.appendChild(frame);
})(window, document);

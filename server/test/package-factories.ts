import zlib, { deflateRawSync } from 'node:zlib';

/**
 * Builds real zip files byte by byte for the package tests (issue 4 item 6), including the hostile ones a zip
 * library refuses to write: entries named ../evil.html or /etc/evil.html, symbolic links, zip bombs.
 */
export interface ZipEntry {
  name: string;
  data: string | Buffer;
  /** deflate (default) or store */
  store?: boolean;
  /** Unix mode, e.g. 0o120777 for a symbolic link. */
  mode?: number;
}

const crc32 = (buf: Buffer): number => (zlib as unknown as { crc32(b: Buffer): number }).crc32(buf);

export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8');
    const method = e.store ? 0 : 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(raw) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A SCORM 1.2 SCO whose own script reports `status` (and a score) through window.parent.API when loaded. */
export function scorm12Package(o: { status?: string; score?: number; masteryScore?: number } = {}): Buffer {
  const mastery =
    o.masteryScore === undefined ? '' : `<adlcp:masteryscore>${o.masteryScore}</adlcp:masteryscore>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.sco12" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org1">
    <organization identifier="org1">
      <title>Handwashing (SCORM 1.2)</title>
      <item identifier="item1" identifierref="res1"><title>Lesson</title>${mastery}</item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res1" type="webcontent" adlcp:scormtype="sco" href="sco/index.html">
      <file href="sco/index.html"/><file href="sco/sco.js"/>
    </resource>
  </resources>
</manifest>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>SCO 1.2</title>
<script src="sco.js"></script></head><body><h1 id="state">Loading</h1>
<button id="finish" type="button">Finish</button></body></html>`;
  const js = `(function () {
  function findAPI(w) { var n = 0; while (w && !w.API && w.parent && w.parent !== w && n++ < 10) w = w.parent; return w && w.API; }
  window.addEventListener('load', function () {
    var api = findAPI(window);
    var state = document.getElementById('state');
    if (!api) { state.textContent = 'No API'; return; }
    api.LMSInitialize('');
    state.textContent = 'Started';
    document.getElementById('finish').addEventListener('click', function () {
      ${o.score === undefined ? '' : `api.LMSSetValue('cmi.core.score.raw', '${o.score}');`}
      api.LMSSetValue('cmi.core.lesson_status', '${o.status ?? 'passed'}');
      api.LMSCommit('');
      api.LMSFinish('');
      state.textContent = 'Finished';
    });
  });
})();`;
  return buildZip([
    { name: 'imsmanifest.xml', data: manifest },
    { name: 'sco/', data: '', store: true, mode: 0o40755 },
    { name: 'sco/index.html', data: html },
    { name: 'sco/sco.js', data: js },
  ]);
}

/** A SCORM 2004 (3rd edition) SCO reporting completion and success through window.parent.API_1484_11. */
export function scorm2004Package(): Buffer {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.sco2004" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="ORG">
    <organization identifier="ORG">
      <title>Fire safety (SCORM 2004)</title>
      <item identifier="ITEM" identifierref="RES" parameters="?lang=en"><title>Module</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES" type="webcontent" adlcp:scormType="sco" href="launch.html">
      <file href="launch.html"/>
    </resource>
  </resources>
</manifest>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>SCO 2004</title><script>
window.addEventListener('load', function () {
  var w = window, api = null, n = 0;
  while (w && !(api = w.API_1484_11) && w.parent && w.parent !== w && n++ < 10) w = w.parent;
  if (!api) { document.body.textContent = 'No API'; return; }
  api.Initialize('');
  api.SetValue('cmi.score.scaled', '0.9');
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.success_status', 'passed');
  api.Commit('');
  api.Terminate('');
  document.body.textContent = 'Finished';
});
</script></head><body>Loading</body></html>`;
  return buildZip([
    { name: 'imsmanifest.xml', data: manifest },
    { name: 'launch.html', data: html },
  ]);
}

/** A minimal .h5p: h5p.json and content/content.json (libraries are not needed for the server's checks). */
export function h5pPackage(): Buffer {
  return buildZip([
    {
      name: 'h5p.json',
      data: JSON.stringify({
        title: 'Hand hygiene quiz',
        language: 'en',
        mainLibrary: 'H5P.TrueFalse',
        embedTypes: ['div'],
        preloadedDependencies: [{ machineName: 'H5P.TrueFalse', majorVersion: 1, minorVersion: 8 }],
      }),
    },
    { name: 'content/', data: '', store: true, mode: 0o40755 },
    {
      name: 'content/content.json',
      data: JSON.stringify({ question: '<p>Wash for 20 seconds?</p>', correct: 'true' }),
    },
  ]);
}

/** A multipart/form-data body with one file field. */
export function multipart(field: string, filename: string, bytes: Buffer) {
  const boundary = `----cc${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A SCORM package with several items (issue 10 item 1): a heading holding two SCOs (the first with a mastery score,
 * the second a 2004-style SCO when `version` is 2004), an asset, and an invisible SCO. The default organisation
 * names no organisation, so the first one is used.
 */
export function scormMultiScoManifest(o: { version?: '1.2' | '2004' } = {}): string {
  const v2004 = o.version === '2004';
  const ns = v2004
    ? 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss"'
    : 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"';
  const type = v2004 ? 'adlcp:scormType' : 'adlcp:scormtype';
  const sequencing = v2004
    ? `<imsss:sequencing><imsss:objectives>
        <imsss:primaryObjective objectiveID="PRIMARY" satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.8</imsss:minNormalizedMeasure></imsss:primaryObjective>
        <imsss:objective objectiveID="obj_a"/><imsss:objective objectiveID="obj_b"/>
      </imsss:objectives></imsss:sequencing>`
    : '<adlcp:masteryscore>70</adlcp:masteryscore><adlcp:datafromlms>lang=en</adlcp:datafromlms>';
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.multi" version="1" ${ns}>
  <metadata><schema>ADL SCORM</schema><schemaversion>${v2004 ? '2004 3rd Edition' : '1.2'}</schemaversion></metadata>
  <organizations default="nowhere">
    <organization identifier="first"><title>Golf in parts</title>
      <item identifier="part1"><title>Part 1</title>
        <item identifier="quiz" identifierref="r_quiz"><title>Quiz</title>${sequencing}</item>
        <item identifier="reading" identifierref="r_reading" parameters="?page=2"><title>Reading</title></item>
      </item>
      <item identifier="sheet" identifierref="r_asset"><title>Handout</title></item>
      <item identifier="hidden" identifierref="r_reading" isvisible="false"><title>Hidden</title></item>
    </organization>
    <organization identifier="second"><title>Other</title>
      <item identifier="other" identifierref="r_reading"><title>Other</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r_quiz" type="webcontent" ${type}="sco" href="quiz.html"/>
    <resource identifier="r_reading" type="webcontent" ${type}="sco" href="reading.html"/>
    <resource identifier="r_asset" type="webcontent" ${type}="asset" href="handout.html"/>
  </resources>
</manifest>`;
  return manifest;
}

export function scormMultiScoPackage(o: { version?: '1.2' | '2004' } = {}): Buffer {
  return buildZip([
    { name: 'imsmanifest.xml', data: scormMultiScoManifest(o) },
    { name: 'quiz.html', data: '<p>Quiz</p>' },
    { name: 'reading.html', data: '<p>Reading</p>' },
    { name: 'handout.html', data: '<p>Handout</p>' },
  ]);
}

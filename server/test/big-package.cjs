// Writes a big SCORM package for the memory test (src/storage/package-memory.test.ts) in a process of its own, so
// the test process holds none of it: imsmanifest.xml, index.html, media/big.mp4 of BIG_MB and COUNT files of EACH_MB
// under media/, incompressible, stored (no compression), written in 1 MB chunks with their CRC patched in after.
// Usage: node big-package.cjs OUT BIG_MB COUNT EACH_MB
const { randomBytes } = require('node:crypto');
const { closeSync, openSync, writeSync } = require('node:fs');
const zlib = require('node:zlib');

const [out, bigMb, count, eachMb] = process.argv.slice(2);
const MB = 1024 * 1024;
const fd = openSync(out, 'w');
const central = [];
let offset = 0;

function add(name, size, chunkOf) {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(size, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const at = offset;
  writeSync(fd, local, 0, 30, at);
  writeSync(fd, nameBytes, 0, nameBytes.length, at + 30);
  let crc = 0;
  let written = 0;
  while (written < size) {
    const chunk = chunkOf(Math.min(MB, size - written));
    crc = zlib.crc32(chunk, crc);
    writeSync(fd, chunk, 0, chunk.length, at + 30 + nameBytes.length + written);
    written += chunk.length;
  }
  local.writeUInt32LE(crc >>> 0, 14);
  writeSync(fd, local, 0, 30, at);
  const entry = Buffer.alloc(46);
  entry.writeUInt32LE(0x02014b50, 0);
  entry.writeUInt16LE((3 << 8) | 20, 4);
  entry.writeUInt16LE(20, 6);
  entry.writeUInt32LE(crc >>> 0, 16);
  entry.writeUInt32LE(size, 20);
  entry.writeUInt32LE(size, 24);
  entry.writeUInt16LE(nameBytes.length, 28);
  entry.writeUInt32LE((0o100644 << 16) >>> 0, 38);
  entry.writeUInt32LE(at, 42);
  central.push(entry, nameBytes);
  offset = at + 30 + nameBytes.length + size;
}
const text = (name, value) => {
  const bytes = Buffer.from(value);
  add(name, bytes.length, () => bytes);
};

text(
  'imsmanifest.xml',
  `<?xml version="1.0"?><manifest identifier="big"><metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Big</title><item identifier="i" identifierref="r"/></organization></organizations>
  <resources><resource identifier="r" type="webcontent" href="index.html"/></resources></manifest>`,
);
text('index.html', '<html><head></head><body><video src="media/big.mp4"></video></body></html>');
add('media/big.mp4', Number(bigMb) * MB, randomBytes);
for (let i = 0; i < Number(count); i++) add(`media/${i}.mp4`, Number(eachMb) * MB, randomBytes);
const cd = Buffer.concat(central);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(central.length / 2, 8);
end.writeUInt16LE(central.length / 2, 10);
end.writeUInt32LE(cd.length, 12);
end.writeUInt32LE(offset, 16);
writeSync(fd, cd, 0, cd.length, offset);
writeSync(fd, end, 0, 22, offset + cd.length);
closeSync(fd);

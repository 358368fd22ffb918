// A local S3-protocol server in a process of its own (test/s3-server.ts starts it): s3rver on a free port, keeping
// the bucket in the folder given. Run with --openssl-legacy-provider: s3rver signs its listing continuation tokens
// with DES, which current OpenSSL keeps in its legacy provider. Prints {"port":N} once listening.
const S3rver = require('s3rver');

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
server.run().then(
  (address) => process.stdout.write(`${JSON.stringify({ port: address.port })}\n`),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0)); // the test process went away
process.stdin.resume();

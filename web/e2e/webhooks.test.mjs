import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { BASE, checkAtBothWidths, checkPage, launch, NARROW, newPage, signIn, toast, WIDE } from './lib.mjs';

/**
 * Issue 18, webhooks in the browser: an administrator registers a receiver this test starts on 127.0.0.1 (the e2e
 * server runs with WEBHOOKS_ALLOW_PRIVATE), is told by the field why the cloud metadata address is refused, sends a
 * test event, sees it delivered in the log, and the receiver checks its signature with the standardwebhooks package
 * using the secret the page showed once when the endpoint was added (issue 29 §14: after a reload it is gone, and
 * nothing on the page holds it). Then rotates the secret (shown once again; both sign for 24 hours) and deletes the
 * endpoint. Screenshots and axe at 1280 and 375 px.
 */
const received = [];
let receiver;
let receiverUrl;
let browser;

before(async () => {
  browser = await launch();
  receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks from the e2e receiver');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks/${Date.now().toString(36)}`;
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  it('registers a receiver, sends a test event that arrives signed, rotates and deletes', async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await checkAtBothWidths(page, 'webhooks', { noOverflow: true });

    await page.getByRole('button', { name: 'Add an endpoint' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Endpoint address/).fill('http://169.254.169.254/latest/meta-data');
    await dialog.getByLabel('user.created').check();
    await dialog.getByLabel('result.recorded').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText(/private or local network/).waitFor();

    await dialog.getByLabel(/^Endpoint address/).fill(receiverUrl);
    await dialog.getByLabel(/^Description/).fill('E2E receiver');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await toast(page, 'Webhook endpoint added.');
    const panel = page.getByTestId('endpoint-panel');
    await panel.getByRole('heading', { name: receiverUrl }).waitFor();
    // Shown this once, with a Copy button and the warning.
    const once = panel.getByTestId('new-secret');
    await once.getByText('It will not be shown again.', { exact: false }).waitFor();
    await once.getByRole('button', { name: 'Copy' }).waitFor();
    const secret = (await once.getByTestId('signing-secret').textContent())?.trim() ?? '';
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);

    await panel.getByRole('button', { name: 'Send test event' }).click();
    await panel.getByTestId('test-outcome').filter({ hasText: 'Delivered (answer 200)' }).waitFor();
    const log = page.getByTestId('delivery-log');
    const row = log.getByTestId('delivery-row').first();
    await row.getByText('Delivered').waitFor();
    await row.getByText('webhook.test').waitFor();
    assert.equal(await row.getByTestId('response-code').textContent(), '200');
    await row.getByText('Details').click();
    await row.getByText('thanks from the e2e receiver').waitFor();

    assert.equal(received.length, 1);
    const [message] = received;
    const verified = new Webhook(secret).verify(message.body, message.headers);
    assert.equal(verified.type, 'webhook.test');
    // The one-time panel itself, at both widths without a reload (a reload ends it).
    const size = page.viewportSize();
    for (const viewport of [NARROW, WIDE]) {
      await page.setViewportSize(viewport);
      await checkPage(page, 'webhook-new-secret');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(overflow, false, `the new secret overflows at ${viewport.width} px`);
    }
    await page.setViewportSize(size);
    await panel.getByRole('button', { name: 'I have copied it' }).click();
    await once.waitFor({ state: 'detached' });
    // checkAtBothWidths reloads the page: the secret is not shown again, nor anywhere in it.
    await checkAtBothWidths(page, 'webhook-endpoint', { noOverflow: true });
    await panel.getByText('shown only once', { exact: false }).waitFor();
    assert.equal(await panel.getByTestId('signing-secret').count(), 0);
    assert.equal((await page.content()).includes(secret.slice(6)), false);

    await panel.getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('The old one keeps working for 24 hours', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    await toast(page, 'New signing secret created');
    await panel.getByText('The previous secret also signs messages until', { exact: false }).waitFor();
    await panel
      .getByTestId('new-secret')
      .getByTestId('signing-secret')
      .filter({ hasText: /whsec_[A-Za-z0-9+/]{32}/ })
      .filter({ hasNotText: secret })
      .waitFor();
    const fresh = (await panel.getByTestId('signing-secret').textContent())?.trim() ?? '';
    await panel.getByRole('button', { name: 'Send test event' }).click();
    await panel.getByTestId('test-outcome').filter({ hasText: 'Delivered' }).waitFor();
    const second = received[1];
    assert.equal(second.headers['webhook-signature'].split(' ').length, 2);
    assert.equal(new Webhook(secret).verify(second.body, second.headers).type, 'webhook.test');
    assert.equal(new Webhook(fresh).verify(second.body, second.headers).type, 'webhook.test');

    await panel.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Webhook endpoint deleted.');
    await page.getByTestId('endpoint-panel').waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, bearer, checkPage, client, launch, MANAGER, NARROW, newPage, signIn } from './lib.mjs';

/**
 * Reminders and notifications (issue 14) end to end. The demo homes send reminders, and the real reminder job runs
 * as the server starts (its first hourly slot): Oakfield House staff whose training expires within 30 days get a
 * reminder in the app and by e-mail. A learner among them sees the bell's count, opens the reminder (it is then
 * read) and dismisses it; their manager sees the delivery ledger on the learner's page. Pages at 1280 and 375 px.
 * The one change this test makes is that reminder's state (read, then dismissed): no other test reads it.
 */
let browser;
let learner;
before(async () => {
  browser = await launch();
  learner = await learnerWithReminder();
});
after(async () => {
  await browser?.close();
});

/** An Oakfield House carer expiring within 30 days whose reminder is unread (the job may still be running). */
async function learnerWithReminder() {
  const manager = client(await bearer(MANAGER, 'e2e notifications'));
  const admin = client(await bearer(ADMIN, 'e2e notifications'));
  for (let i = 0; i < 60; i++) {
    const people = await manager('GET', '/dashboards/manager/people?list=expiring_30&per_page=50');
    for (const p of people) {
      const ledger = await manager('GET', `/users/${p.uuid}/notifications?per_page=50`);
      const unread = ledger.find(
        (d) => d.kind === 'expiry_reminder' && d.channel === 'in_app' && d.state === 'sent',
      );
      if (unread) {
        const user = await admin('GET', `/users/${p.uuid}`);
        return { uuid: p.uuid, name: user.name, email: user.email, title: unread.title };
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no Oakfield House reminder was made by the reminder job');
}

const who = () => ({ email: learner.email, password: ADMIN.password });

async function openBell(page) {
  const bell = page.getByTestId('notification-bell');
  await bell.waitFor();
  await page.getByTestId('notification-count').waitFor();
  await bell.click();
  const panel = page.getByTestId('notification-panel');
  await panel.getByRole('link', { name: learner.title }).first().waitFor();
  return panel;
}

describe('notifications', () => {
  it('the learner sees the bell’s count and the panel at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, who());
    const bell = page.getByTestId('notification-bell');
    // The bell is drawn before its count arrives: read its name once the count is there.
    await page.getByTestId('notification-count').waitFor();
    assert.match((await bell.getAttribute('aria-label')) ?? '', /Notifications, \d+ unread/);
    await openBell(page);
    await checkPage(page, 'notifications-panel-narrow');
    const box = await page.getByTestId('notification-panel').boundingBox();
    assert.ok(
      box && box.x >= 0 && box.x + box.width <= 375,
      `the panel fits the phone: ${JSON.stringify(box)}`,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the learner opens the reminder (it is read), then dismisses it after a confirmation', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, who());
    const before = Number(await page.getByTestId('notification-count').innerText());
    let panel = await openBell(page);
    await checkPage(page, 'notifications-panel');
    await panel.getByRole('link', { name: learner.title }).first().click();
    await page.waitForURL(/\/learner-dashboard$/);
    // Read now: the count drops by one (or the badge goes).
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=notification-count]')?.textContent ?? 0) === n,
      before - 1,
    );
    await page.getByTestId('notification-bell').click();
    panel = page.getByTestId('notification-panel');
    const item = panel.getByTestId('notification').filter({ hasText: learner.title }).first();
    await item.getByRole('button', { name: 'Mark unread' }).waitFor();
    await item.getByRole('button', { name: /^Dismiss “/ }).click();
    await item.getByText('Dismiss this notification?').waitFor();
    await item.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await panel.getByTestId('notification').filter({ hasText: learner.title }).waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the learner’s notification settings, at 1280 and 375 px', async () => {
    for (const viewport of [undefined, NARROW]) {
      const { page, context, errors } = await newPage(browser, viewport);
      await signIn(page, who());
      await page.goto(page.url().replace(/\/$/, '/account/notifications'));
      await page.getByRole('switch', { name: '30 days before my training expires' }).waitFor();
      await checkPage(page, `notification-settings${viewport ? '-narrow' : ''}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  });

  it('the manager sees the carer’s delivery ledger on their page, at 1280 and 375 px', async () => {
    for (const viewport of [undefined, NARROW]) {
      const { page, context, errors } = await newPage(browser, viewport);
      await signIn(page, MANAGER);
      await page.goto(page.url().replace(/\/$/, `/users/${learner.uuid}`));
      const card = page.getByTestId('delivery-ledger');
      await card.getByText('Dismissed', { exact: true }).first().waitFor();
      const text = await card.innerText();
      assert.match(text, /In the app · Dismissed/);
      assert.match(text, /E-mail · (Sent|Held until \d{2}:\d{2} \(quiet hours\)|Queued)/);
      assert.match(text, /days before expiry/);
      await checkPage(page, `user-delivery-ledger${viewport ? '-narrow' : ''}`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  });
});

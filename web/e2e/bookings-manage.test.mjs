import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  MANAGER,
  NARROW,
  newPage,
  signIn,
  toast,
} from './lib.mjs';

/**
 * /manage-bookings (issue 15): an administrator creates a two-day session in the form, edits one field, adds
 * delegates and runs their actions (remove with confirmation, restore), cancels the session with a reason; the
 * calendar shows it in month and week views; the training provider and delegate settings pages save. Every page is
 * checked with axe at 1280 and 375 px.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** An ISO day `days` from today in UK time. */
function ukDay(days = 0) {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + days * 86_400_000));
}

/** A published course with one published face-to-face content item, made by the administrator through the API. */
async function face2faceCourse(title) {
  const api = client(await bearer(ADMIN));
  const course = await api('POST', '/courses', { title, published: true });
  const content = await api('POST', '/content', {
    course_id: course.id,
    type: 'face2face',
    title: `${title} (classroom)`,
    published: true,
  });
  return { api, course, content };
}

/** Chooses an item in a searchable picker (a combobox, within `scope`) by typing part of its name. */
async function pick(page, label, text, option = text, scope = page) {
  await scope.getByRole('combobox', { name: label }).fill(text);
  // The options open in a layer of their own (outside a dialog), so they are looked up on the page.
  await page
    .getByRole('option', { name: new RegExp(option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .first()
    .click();
}
const esc = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const row = (scope, ...texts) => texts.reduce((l, t) => l.filter({ hasText: t }), scope.getByRole('row'));

async function delegateSettings(page) {
  await page.goto(`${BASE}/entities/oakfield-house`);
  await page.getByRole('link', { name: 'Delegate settings' }).click();
  await page.waitForURL(`${BASE}/entities/oakfield-house/delegate-settings`);
  const approval = page.getByRole('switch', { name: /manager’s approval/ });
  const before = await approval.getAttribute('aria-checked');
  await approval.click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await toast(page, 'Settings updated.');
  await checkPage(page, 'delegate-settings');
  await page.reload();
  assert.notEqual(
    await page.getByRole('switch', { name: /manager’s approval/ }).getAttribute('aria-checked'),
    before,
  );
  // Put it back: the flow test books without approval.
  await page.getByRole('switch', { name: /manager’s approval/ }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await toast(page, 'Settings updated.');
}

describe('manage bookings', () => {
  // Issue 33 §3: the group books with Brightpath Training, so its trainer Jordan Reid (who runs the demo's internal
  // sessions) can be named on the group's own session; it said "No matches" before.
  it("offers the training company's trainer on the group's session form", async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/manage-bookings/new`);
    await page.getByRole('combobox', { name: /Trainer/ }).fill('Jordan');
    const option = page.getByRole('option', { name: /Jordan Reid/ }).first();
    await option.waitFor();
    assert.match(await option.innerText(), /Brightpath Training \(training provider\)/);
    await option.click();
    assert.deepEqual(errors, []);
  });

  it('creates a two-day session, edits it, runs delegate actions and cancels it with a reason', async () => {
    const { content, api } = await face2faceCourse(`Moving and handling ${Date.now()}`);
    // Sam Patel (the Oakfield House manager) also trains: the trainer picker offers the trainers in scope.
    const sam = (await api('GET', '/users?search=manager%40demo.test&deep=1'))[0];
    await api('PATCH', `/users/${sam.id}`, { is_trainer: true });
    const { page, errors } = await newPage(browser);
    await signIn(page, ADMIN);
    await page.goto(`${BASE}/manage-bookings`);
    await page.getByRole('heading', { name: 'Manage bookings' }).waitFor();
    await checkPage(page, 'manage-bookings-list');

    await page.getByRole('link', { name: 'New session' }).first().click();
    await page.waitForURL(`${BASE}/manage-bookings/new`);
    // The server's refusal of an empty form is shown beside the fields (the client checks first).
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.getByText('Choose face-to-face content.').first().waitFor();
    await page.getByLabel(/^Run by/).selectOption({ label: 'Oakfield House' });
    await pick(page, /Face-to-face content/, content.title.slice(0, 12), content.title);
    await pick(page, /Trainer/, 'Sam', 'Sam Patel');
    const day1 = ukDay(20);
    const day2 = ukDay(21);
    await page.getByLabel(/^Date\s*\*?$/).fill(day1);
    await page.getByRole('button', { name: 'Add another day' }).click();
    await page.getByLabel(/^Day 2 date/).fill(day2);
    await page.getByLabel(/^Ends/).nth(1).fill('12:30');
    await page.getByLabel(/^Venue/).fill('Oakfield House, 12 Oak Road');
    await page.getByLabel(/^Room/).fill('Training room');
    await page.getByLabel(/^Area/).fill('Leeds');
    await page.getByLabel(/^Aim/).fill('Safe moving and handling of residents.');
    await page.getByLabel(/^Most delegates/).fill('6');
    await page.getByLabel(/^Fewest delegates/).fill('2');
    await page.getByLabel(/^Grading/).selectOption('score');
    await page.getByLabel(/^Pass mark/).fill('70');
    await checkPage(page, 'manage-bookings-new');
    await page.getByRole('button', { name: 'Create session' }).click();
    await toast(page, 'Training session created.');
    await page.waitForURL(/\/manage-bookings\/\d+$/);
    const sessionId = Number(page.url().split('/').pop());
    await page.getByRole('heading', { name: content.title }).waitFor();
    const details = page.locator('section', {
      has: page.getByRole('heading', { name: 'Details', exact: true }),
    });
    assert.match(await details.innerText(), /Training room, Oakfield House, 12 Oak Road/);
    assert.match(await details.innerText(), /09:30–12:30/);
    assert.match(await details.innerText(), /pass mark 70/);
    const code = (await page.getByTestId('check-in-code').innerText()).trim();
    assert.match(code, /^[A-Z0-9]{4,12}$/);
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await checkPage(page, 'manage-bookings-detail');

    // Edit one field: only it is sent, and the page shows it.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${BASE}/manage-bookings/${sessionId}/edit`);
    await page.getByLabel(/^Room/).fill('Room 4');
    const patch = page.waitForRequest(
      (r) => r.method() === 'PATCH' && r.url().includes(`/training-sessions/${sessionId}`),
    );
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.deepEqual((await patch).postDataJSON(), { room: 'Room 4' });
    await toast(page, 'Training session updated.');
    await page.waitForURL(`${BASE}/manage-bookings/${sessionId}`);
    await page.getByText('Room 4, Oakfield House, 12 Oak Road').waitFor();

    // Delegates: add two people, remove one (confirmed), restore them.
    const delegates = page.getByTestId('delegates');
    await delegates.getByRole('button', { name: 'Add delegates' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add delegates' });
    await pick(page, /People/, 'Casey', 'Casey Lee', dialog);
    await pick(page, /People/, 'Sam Patel', 'Sam Patel', dialog);
    await dialog.getByRole('button', { name: 'Add 2 delegates' }).click();
    await toast(page, 'Delegates added.');
    await row(delegates, 'Casey Lee', 'Booked').waitFor();
    await delegates.getByRole('button', { name: 'Remove Sam Patel' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Delegate deleted.');
    await row(delegates, 'Sam Patel', 'Removed').waitFor();
    await delegates.getByRole('button', { name: 'Restore Sam Patel' }).click();
    await toast(page, 'Delegate updated.');
    await row(delegates, 'Sam Patel', 'Booked').waitFor();
    // Twenty days ahead: attendance cannot be marked yet, and the card says from when (issue 28 §2).
    await page
      .getByTestId('attendance')
      .getByText(/^Attendance can be marked from the day the session starts/)
      .waitFor();

    // The calendar: the session on both its days, in month and week views; keyboard moves between days.
    await page.goto(`${BASE}/manage-bookings?view=calendar&d=${day1}`);
    const grid = page.getByRole('table', { name: 'Sessions by day' });
    await grid
      .getByRole('link', { name: new RegExp(esc(content.title)) })
      .first()
      .waitFor();
    assert.equal(await grid.getByRole('link', { name: new RegExp(esc(content.title)) }).count(), 2);
    await checkPage(page, 'manage-bookings-calendar-month');
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await grid.getByRole('link', { name: /day 1 of 2/ }).waitFor();
    await checkPage(page, 'manage-bookings-calendar-week');
    await grid.locator('td[tabindex="0"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TD');
    await grid.getByRole('link', { name: /day 1 of 2/ }).click();
    await page.waitForURL(`${BASE}/manage-bookings/${sessionId}`);

    // Cancel with a reason: everyone is told; the page says why.
    await page.getByRole('button', { name: 'Cancel session' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel this session?' });
    await cancel.getByLabel(/^Reason/).selectOption({ label: 'Venue unavailable' });
    await cancel.getByLabel(/^Notes/).fill('The training room is being refurbished.');
    await cancel.getByRole('button', { name: 'Cancel session' }).click();
    await toast(page, 'Training session cancelled.');
    await page.getByText('Cancelled: Venue unavailable').waitFor();
    await page.getByText('The training room is being refurbished.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);

    // The list finds it by its status.
    await page.goto(`${BASE}/manage-bookings?status=cancelled`);
    await page.getByRole('link', { name: content.title }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('saves the training provider and delegate settings', async () => {
    // The training company's own trainer holds 110 (training provider) in the demo.
    const { page, errors } = await newPage(browser);
    await signIn(page, { email: 'trainer@demo.test', password: ADMIN.password });
    await page.goto(`${BASE}/entities/brightpath-training`);
    await page.getByRole('link', { name: 'Training provider settings' }).click();
    await page.waitForURL(`${BASE}/entities/brightpath-training/training-provider-settings`);
    const claim = page.getByLabel(/^Time to claim an offered place/);
    await claim.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').first().waitFor();
    await claim.fill('36');
    await page.getByLabel(/^Then/).selectOption('confirm');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Settings updated.');
    await checkPage(page, 'training-provider-settings');
    await page.reload();
    assert.equal(await page.getByLabel(/^Time to claim an offered place/).inputValue(), '36');
    assert.equal(await page.getByLabel(/^Then/).inputValue(), 'confirm');

    assert.deepEqual(errors, []);

    // The delegate settings of a home, by the group's administrator.
    const admin = await newPage(browser);
    await signIn(admin.page, ADMIN);
    await delegateSettings(admin.page);
    assert.deepEqual(admin.errors, []);
  });

  it('orders places on the marketplace, names a delegate later and cancels the order', async () => {
    // Sam Patel manages Oakfield House, whose group sees external bookings (the demo's Brightpath sessions).
    const { page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/manage-bookings?view=marketplace`);
    const order = page.getByRole('button', { name: /^Order places on / }).first();
    await order.waitFor();
    await checkPage(page, 'manage-bookings-marketplace');
    await order.click();
    const dialog = page.getByRole('dialog', { name: 'Order places' });
    await dialog.getByLabel(/^Places/).fill('2');
    await pick(page, /Name delegates now/, 'Casey', 'Casey Lee', dialog);
    await dialog.getByRole('button', { name: 'Place order' }).click();
    await toast(page, 'Training order placed.');
    const orders = page.locator('section', {
      has: page.getByRole('heading', { name: 'Your training orders' }),
    });
    await row(orders, '2 ordered, 1 named', '1 still to name').waitFor();
    await orders
      .getByRole('button', { name: /^Name delegates on the order/ })
      .first()
      .click();
    const naming = page.getByRole('dialog', { name: 'Name delegates' });
    await naming.getByRole('combobox', { name: /People/ }).fill('meadowbrook.example');
    await page.getByRole('option').first().click();
    await naming.getByRole('button', { name: 'Name delegates' }).click();
    await toast(page, 'Training order updated.');
    await row(orders, '2 ordered, 2 named').waitFor();
    await orders
      .getByRole('button', { name: /^Cancel the order/ })
      .first()
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel order' }).click();
    await toast(page, 'Training order cancelled.');
    await row(orders, '2 ordered', 'Cancelled').waitFor();
    assert.deepEqual(errors, []);
  });

  it('works at 375 px: list, calendar, a session, the form and the settings', async () => {
    const { content, api } = await face2faceCourse(`First aid ${Date.now()}`);
    const entity = (await api('GET', '/entities/oakfield-house')).id;
    const session = await api('POST', '/training-sessions', {
      contentId: content.id,
      entity_id: entity,
      date: ukDay(3),
      startTime: '10:00',
      endTime: '15:00',
      maxDelegates: 8,
      venue: 'Oakfield House',
    });
    const { page, errors } = await newPage(browser, NARROW);
    await signIn(page, ADMIN);
    await page.goto(`${BASE}/manage-bookings`);
    await page.getByRole('link', { name: content.title }).first().waitFor();
    await checkPage(page, 'manage-bookings-list-375');
    await page.goto(`${BASE}/manage-bookings?view=calendar&d=${ukDay(3)}`);
    await page
      .getByRole('list', { name: /^Sessions,/ })
      .getByRole('link', { name: new RegExp(esc(content.title)) })
      .waitFor();
    await checkPage(page, 'manage-bookings-calendar-375');
    await page.goto(`${BASE}/manage-bookings?view=calendar&cal=week&d=${ukDay(3)}`);
    await page
      .getByRole('list', { name: /^Sessions,/ })
      .getByRole('link', { name: new RegExp(esc(content.title)) })
      .waitFor();
    await checkPage(page, 'manage-bookings-week-375');
    await page.goto(`${BASE}/manage-bookings/${session.id}`);
    await page.getByTestId('check-in-code').waitFor();
    await checkPage(page, 'manage-bookings-detail-375');
    await page.goto(`${BASE}/manage-bookings/new`);
    await page.getByRole('button', { name: 'Create session' }).waitFor();
    await checkPage(page, 'manage-bookings-new-375');
    await page.goto(`${BASE}/entities/oakfield-house/delegate-settings`);
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
    await checkPage(page, 'delegate-settings-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false);
    assert.deepEqual(errors, []);
    const trainer = await newPage(browser, NARROW);
    await signIn(trainer.page, { email: 'trainer@demo.test', password: ADMIN.password });
    await trainer.page.goto(`${BASE}/entities/brightpath-training/training-provider-settings`);
    await trainer.page.getByRole('button', { name: 'Save settings' }).waitFor();
    await checkPage(trainer.page, 'training-provider-settings-375');
    assert.deepEqual(trainer.errors, []);
  });
});

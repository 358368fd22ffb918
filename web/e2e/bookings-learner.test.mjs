import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 15, the learner's side at 375 px: Casey Lee (learner@demo.test, Oakfield House) books a session with a free
 * place from "Book training", sees it under Upcoming and cancels it; books a full session and lands on the waiting
 * list; claims the place offered when a manager removes a delegate; and checks in on the day with the trainer's
 * code, opened from the QR's address (/your-bookings?check_in=<session id>). The sessions are made through the API
 * by the admin, at Oakfield House, of a new face-to-face course.
 *
 * LEARNER_SHOTS=<folder> also saves each state at 1280 and 375 px wide there (the review screenshots).
 */

const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const SHOTS = process.env.LEARNER_SHOTS;
const stamp = Date.now().toString(36);
/** YYYY-MM-DD and HH:MM in the organisation's zone (sessions' days and times are Europe/London). */
function london(date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
const inDays = (n) => london(new Date(Date.now() + n * 86_400_000)).day;
const ddmmyyyy = (day) => day.split('-').reverse().join('/');

let browser;
let admin;
let me;
let content;
let other;
const made = [];

async function session(title, body) {
  const s = await admin('POST', '/training-sessions', {
    contentId: content.id,
    entity_id: me.primary_entity.id,
    startTime: '10:00',
    endTime: '12:30',
    venue: 'Oakfield House',
    room: 'Training room',
    maxDelegates: 6,
    ...body,
  });
  made.push(s.id);
  assert.equal(s.course.title, title);
  return s;
}

async function shoot(page, name, part) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    // A widget on a long page: the card itself too.
    if (part) await part.screenshot({ path: path.join(SHOTS, `${name}-${width}-card.png`) });
  }
  if (size) await page.setViewportSize(size);
}

before(async () => {
  browser = await launch();
  admin = client(await bearer(ADMIN, 'e2e bookings learner admin'));
  const learner = client(await bearer(LEARNER, 'e2e bookings learner'));
  me = await learner('GET', '/auth/user');
  const course = await admin('POST', '/courses', { title: `Moving and handling ${stamp}`, published: true });
  content = await admin('POST', '/content', {
    course_id: course.id,
    type: 'face2face',
    title: `Moving and handling practical ${stamp}`,
    published: true,
  });
  // Someone else at the learner's home, to fill a session.
  const staff = await admin('GET', `/users?entity_id=${me.primary_entity.id}&per_page=20`);
  other = staff.find((u) => u.id !== me.id);
  assert.ok(other, 'another person works at the learner’s home');
});
after(async () => {
  for (const id of made)
    await admin('POST', `/training-sessions/${id}/cancel`, { cancellation_reason_id: 1 }).catch(
      () => undefined,
    );
  await browser?.close();
});

describe('/your-bookings at 375 px', () => {
  it('books a session with a free place, sees it under Upcoming, cancels it', async () => {
    const title = `Moving and handling ${stamp}`;
    const day = inDays(14);
    const s = await session(title, { date: day, maxDelegates: 6 });
    const { page, context, errors } = await newPage(browser, NARROW);
    try {
      await signIn(page, LEARNER);
      await page.goto(`${BASE}/your-bookings`);
      await page.getByRole('heading', { name: 'Your bookings' }).waitFor();
      await page.getByRole('tab', { name: 'Book training' }).click();
      const card = page.getByTestId('available-session').and(page.locator(`[data-session-id="${s.id}"]`));
      await card.waitFor();
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      assert.ok(text.includes(`${ddmmyyyy(day)}, 10:00–12:30`), text);
      assert.ok(text.includes('Oakfield House, Training room'), text);
      assert.ok(text.includes('6 places free'), text);
      await checkPage(page, 'your-bookings-book');
      await shoot(page, 'book-training');
      await card.getByRole('button', { name: `Book ${title} on ${ddmmyyyy(day)}` }).click();
      await toast(page, 'You are booked on this session.');

      await page.getByRole('tab', { name: /^Upcoming/ }).click();
      const booked = page
        .getByTestId('bookings-upcoming')
        .getByTestId('booking-card')
        .and(page.locator(`[data-session-id="${s.id}"]`));
      await booked.waitFor();
      assert.match(await booked.innerText(), /Booked/);
      assert.match(await booked.innerText(), /Your place is confirmed\./);
      await checkPage(page, 'your-bookings-upcoming');
      await shoot(page, 'upcoming');

      // Add to calendar: the session's .ics, saved as a file.
      const download = page.waitForEvent('download');
      await booked.getByRole('button', { name: `Add ${title} to your calendar` }).click();
      const file = await download;
      assert.match(file.suggestedFilename(), /\.ics$/);
      const ics = await new Response(await file.createReadStream()).text();
      assert.match(ics, /BEGIN:VCALENDAR/);
      assert.match(ics, /BEGIN:VEVENT/);

      await booked.getByRole('button', { name: `Cancel my booking on ${title}` }).click();
      // The dialog's root has no box of its own (its panel is fixed): wait for its button.
      const confirm = page.getByRole('alertdialog').getByRole('button', { name: 'Cancel my booking' });
      await confirm.waitFor();
      await shoot(page, 'cancel-confirm');
      await confirm.click();
      await toast(page, 'Your booking has been cancelled.');
      await booked.waitFor({ state: 'detached' });

      // Past (its empty state leads to booking) and the personal calendar link: made once with its address, revoked.
      await page.getByRole('tab', { name: 'Past' }).click();
      await page.getByTestId('bookings-past').waitFor();
      await shoot(page, 'past');
      const feed = page.getByTestId('calendar-link');
      await feed.getByRole('button', { name: 'Create a calendar link' }).click();
      await toast(page, 'Calendar link created.');
      const url = await feed.getByLabel(/Your calendar link/).inputValue();
      assert.match(url, /\/calendar\/[^/]+\.ics$/);
      await checkPage(page, 'your-bookings-calendar-link');
      await shoot(page, 'calendar-link');
      await feed.getByRole('button', { name: 'Revoke the link' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke the link' }).click();
      await toast(page, 'Calendar link revoked.');
      await feed.getByText('You have no calendar link.').waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('books a full session onto the waiting list, then claims the place a manager frees', async () => {
    const title = `Moving and handling ${stamp}`;
    const day = inDays(21);
    const s = await session(title, { date: day, maxDelegates: 1 });
    await admin('POST', `/training-sessions/${s.id}/delegates`, { users: [other.id] });
    const delegates = await admin('GET', `/training-sessions/${s.id}/delegates`);
    const theirs = delegates.find((d) => d.user.id === other.id);
    assert.equal(theirs.status, 'accepted');

    const { page, context, errors } = await newPage(browser, NARROW);
    try {
      await signIn(page, LEARNER);
      await page.goto(`${BASE}/your-bookings?tab=book`);
      const card = page.getByTestId('available-session').and(page.locator(`[data-session-id="${s.id}"]`));
      await card.waitFor();
      // The chosen section's tab is in view on the narrow screen (the strip scrolls to it).
      const box = await page.getByRole('tab', { name: 'Book training' }).boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= NARROW.width,
        `tab in view: ${JSON.stringify(box)}`,
      );
      assert.match(await card.innerText(), /Full: waiting list/);
      await card
        .getByRole('button', { name: `Join the waiting list for ${title} on ${ddmmyyyy(day)}` })
        .click();
      await toast(page, 'This session is full: you are on the waiting list.');

      await page.getByRole('tab', { name: /^Waiting list/ }).click();
      const waiting = page
        .getByTestId('bookings-waiting-list')
        .getByTestId('booking-card')
        .and(page.locator(`[data-session-id="${s.id}"]`));
      await waiting.waitFor();
      assert.match(await waiting.innerText(), /number 1 on the waiting list/);
      await checkPage(page, 'your-bookings-waiting');
      await shoot(page, 'waiting-list');

      // A manager removes the delegate: the place is offered to the longest waiting, the learner.
      await admin('DELETE', `/delegates/${theirs.id}`);
      // On any other section a notice leads to the offer; on the waiting list it comes first.
      await page.goto(`${BASE}/your-bookings`);
      const notice = page.getByRole('status').filter({ hasText: 'A place has freed for you' });
      await notice.getByRole('button', { name: 'See the offer' }).click();
      await page.waitForURL(/tab=waiting/);
      const offered = page
        .getByTestId('bookings-waiting-list')
        .getByTestId('booking-card')
        .and(page.locator(`[data-session-id="${s.id}"]`));
      await offered.waitFor();
      assert.match(await offered.innerText(), /Place offered/);
      assert.match(await offered.innerText(), /Claim it by \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
      await checkPage(page, 'your-bookings-offer');
      await shoot(page, 'claim-offer');
      await offered.getByRole('button', { name: `Claim this place on ${title}` }).click();
      await toast(page, 'The place is yours.');

      await page.getByRole('tab', { name: /^Upcoming/ }).click();
      const mine = page
        .getByTestId('bookings-upcoming')
        .getByTestId('booking-card')
        .and(page.locator(`[data-session-id="${s.id}"]`));
      await mine.filter({ hasText: 'Your place is confirmed.' }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('checks in on the day with the trainer’s code, from the QR’s address', async (t) => {
    const now = london(new Date());
    const start = london(new Date(Date.now() + 10 * 60_000));
    if (start.day !== now.day || start.time > '23:00') {
      t.skip('too close to midnight to make a session that starts later today');
      return;
    }
    const title = `Moving and handling ${stamp}`;
    const s = await session(title, { date: now.day, startTime: start.time, endTime: '23:59' });
    await admin('POST', `/training-sessions/${s.id}/delegates`, { users: [me.id] });
    const code = (await admin('GET', `/training-sessions/${s.id}`)).check_in_code;
    assert.ok(code, 'the admin sees the check-in code');

    const { page, context, errors } = await newPage(browser, NARROW);
    try {
      await signIn(page, LEARNER);
      await page.goto(`${BASE}/your-bookings?check_in=${s.id}`);
      // The learner may hold other sessions today (other files book her too): the form on this session's card.
      const form = page.locator(`[data-session-id="${s.id}"]`).getByTestId('check-in-form');
      await form.waitFor();
      const input = form.getByLabel('Check-in code');
      await page.waitForFunction(() =>
        document.activeElement?.getAttribute('id')?.startsWith('check-in-code'),
      );
      await input.fill('WRONG9');
      await form.getByRole('button', { name: 'Check in' }).click();
      await form.getByText('That check-in code is not right for this session.').waitFor();
      await checkPage(page, 'your-bookings-check-in');
      await shoot(page, 'check-in');
      await input.fill(code);
      await form.getByRole('button', { name: 'Check in' }).click();
      await toast(page, 'You are checked in.');
      const card = page
        .getByTestId('bookings-upcoming')
        .getByTestId('booking-card')
        .and(page.locator(`[data-session-id="${s.id}"]`));
      await card.getByTestId('checked-in').waitFor();
      await shoot(page, 'checked-in');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('the learner dashboard lists my next sessions; the manager dashboard shows the week and the gaps', async () => {
    const orgId = me.a_entity.id;
    const original = (await admin('GET', `/entities/${orgId}`)).can_see_new_dashboards;
    const learnerView = await newPage(browser, NARROW);
    try {
      await admin('PATCH', `/entities/${orgId}`, { can_see_new_dashboards: true });
      await signIn(learnerView.page, LEARNER);
      await learnerView.page.goto(`${BASE}/learner-dashboard`);
      const card = learnerView.page.getByTestId('next-sessions');
      await card.getByTestId('next-session').first().waitFor();
      assert.ok((await card.getByTestId('next-session').count()) <= 3);
      assert.equal(
        await card.getByRole('link', { name: 'Your bookings' }).getAttribute('href'),
        '/your-bookings',
      );
      await checkPage(learnerView.page, 'learner-dashboard-next-sessions');
      await shoot(learnerView.page, 'learner-dashboard-widget', card);
      assert.deepEqual(learnerView.errors, []);
    } finally {
      await learnerView.context.close();
      await admin('PATCH', `/entities/${orgId}`, { can_see_new_dashboards: original });
    }

    const managerView = await newPage(browser, NARROW);
    try {
      await signIn(managerView.page, ADMIN);
      await managerView.page.goto(`${BASE}/manager-dashboard?entity=${me.primary_entity.id}`);
      const card = managerView.page.getByTestId('bookings-widget');
      await card.getByRole('heading', { name: 'Sessions this week' }).waitFor();
      await card.getByRole('heading', { name: 'Gaps a session would close' }).waitFor();
      await card.getByTestId('bookings-week-summary').waitFor();
      await checkPage(managerView.page, 'manager-dashboard-bookings');
      await shoot(managerView.page, 'manager-dashboard-widget', card);
      assert.deepEqual(managerView.errors, []);
    } finally {
      await managerView.context.close();
    }
  });
});

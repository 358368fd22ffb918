import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, MANAGER, NARROW, newPage, signIn } from './lib.mjs';

/**
 * The manager's day (issue 13): the Oakfield House manager signs in, clicks "Manager dashboard" in the menu and sees
 * by name who at their home is out of date — two clicks — and each name opens that person's page; at 375 px too.
 * The administrator's management dashboard ranks the group's homes, and a home's link opens its manager dashboard.
 * The inspection pack (issue 33 §6) is made from the dashboard, from Reports → Inspection pack, and found by search.
 * Booking the gaps (issue 33 §2): a gap's "N people to book" opens its people, most overdue first, and "Book these
 * people" gives a session's places in that order, the rest on its waiting list, and says who got what.
 * Who is behind (issue 33 §7): the dashboard's card opens one list of the home's people behind on the Care Certificate,
 * pathways and documents to read, with "Message these people" and "Remind these people".
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The menu entry, through the phone's menu button when the side navigation is folded away. */
async function openFromMenu(page, label) {
  const toggle = page.getByRole('button', { name: 'Open navigation' });
  if (await toggle.isVisible()) await toggle.click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: label, exact: true })
    .click();
}

async function managerJourney(viewport, suffix) {
  const { page, context, errors } = await newPage(browser, viewport);
  await signIn(page, MANAGER);
  await openFromMenu(page, 'Manager dashboard');
  await page.waitForURL(/\/manager-dashboard/);
  const entity = page.getByTestId('dashboard-entity');
  await entity.filter({ hasText: 'Oakfield House' }).waitFor();
  const outOfDate = page.locator('#out-of-date');
  const first = outOfDate.getByRole('link').first();
  await first.waitFor();
  const name = (await first.innerText()).trim();
  assert.ok(name.length > 0, 'an out-of-date person is named');
  // Each person is listed with the course that is out of date, in words.
  assert.match(await outOfDate.innerText(), /Never done|Expired on \d{2}\/\d{2}\/\d{4}/);
  // The expiring tabs and the figures are there too.
  await page.getByRole('tab', { name: /30 days/ }).waitFor();
  await checkPage(page, `manager-dashboard${suffix}`);
  if (suffix === '') await bookTheGap(page);
  else await glanceAtTheGap(page);

  await page.goto(`${BASE}/manager-dashboard`);
  await first.waitFor();
  await first.click();
  await page.waitForURL(/\/users\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name, exact: true }).first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
}

const GROUPS = { 'Never done': 0, 'Expired on': 1, 'Awaiting approval': 2, 'Due by': 3 };
/** The group of a person's status line in the most-overdue order (never done, expired, awaiting approval, due). */
const groupOf = (text) => Object.entries(GROUPS).find(([words]) => text.includes(words))?.[1] ?? 9;

/**
 * From the dashboard's Moving and Handling gap to its people and "Book these people" onto a session of two places
 * made for the test (cancelled at the end, so the demo's people are back in the gap for the files after this one).
 */
async function bookTheGap(page) {
  const admin = client(await bearer(ADMIN, 'e2e gap booking'));
  const card = page.getByTestId('bookings-widget');
  const badge = card.getByRole('link', { name: /to book on Moving and Handling/ });
  const href = await badge.getAttribute('href');
  const courseId = /\/manage-bookings\/gaps\/(\d+)/.exec(href ?? '')?.[1];
  assert.ok(courseId, `the badge links to the gap page (${href})`);
  const gap = await admin('GET', `/booking-gaps/${courseId}?actingAs=oakfield-house&deep=true`);
  const demo = gap.sessions[0];
  assert.ok(demo && gap.people.length > 2, 'the demo has a Moving and Handling session and people to book');
  const day = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
  const made = await admin('POST', '/training-sessions', {
    contentId: demo.contentId,
    entity_id: (await admin('GET', '/entities/oakfield-house')).id,
    date: day,
    startTime: '09:00',
    endTime: '12:00',
    venue: 'Gap booking room',
    maxDelegates: 2,
  });
  try {
    await badge.click();
    await page.waitForURL(/\/manage-bookings\/gaps\/\d+\?entity=oakfield-house$/);
    const people = page.getByTestId('gap-person');
    await people.first().waitFor();
    const rows = await people.allInnerTexts();
    assert.equal(rows.length, gap.people.length);
    // Most overdue first: never done, then expired, then due by a date; never the user id order.
    const groups = rows.map(groupOf);
    assert.deepEqual(
      groups,
      [...groups].sort((a, b) => a - b),
      rows.join(' | '),
    );
    const names = gap.people.map((p) => p.user.name);
    for (const [i, r] of rows.entries()) assert.ok(r.includes(names[i]), `${names[i]} is number ${i + 1}`);

    await page.getByLabel('Session').selectOption(String(made.id));
    await page.getByRole('button', { name: `Book these ${rows.length} people` }).click();
    const result = page.getByTestId('gap-result');
    await result.waitFor();
    await result
      .getByText(`2 people booked, ${rows.length - 2} on the waiting list.`, { exact: true })
      .waitFor();
    const outcomes = await result.getByTestId('gap-outcome').allInnerTexts();
    assert.deepEqual(
      outcomes.map((o) => o.split('\n')[0].trim()),
      names,
      'places and the waiting list follow the list',
    );
    assert.match(outcomes[0], /Booked/);
    assert.match(outcomes[1], /Booked/);
    assert.match(outcomes[2], /Waiting list, number 1/);
    await page.getByTestId('gap-people').getByText('No one.').waitFor();
    await checkPage(page, 'booking-gap-booked');
    const delegates = await admin('GET', `/training-sessions/${made.id}/delegates?per_page=50`);
    assert.equal(delegates.filter((d) => d.status === 'accepted').length, 2);
  } finally {
    await admin('POST', `/training-sessions/${made.id}/cancel`, { cancellation_reason_id: 1 });
  }
}

/** At 375 px: a gap's badge opens its people and the booking card. */
async function glanceAtTheGap(page) {
  await page
    .getByTestId('bookings-widget')
    .getByRole('link', { name: /to book on/ })
    .first()
    .click();
  await page.waitForURL(/\/manage-bookings\/gaps\/\d+/);
  await page.getByTestId('gap-person').first().waitFor();
  await page.getByTestId('gap-book').waitFor();
  await checkPage(page, 'booking-gap-narrow');
}

describe('manager dashboard', () => {
  it("names the home's out-of-date staff within two clicks of signing in, each a link to the person", async () => {
    await managerJourney(undefined, '');
  });

  it('does the same at 375 px', async () => {
    await managerJourney(NARROW, '-narrow');
  });
});

/**
 * Who is behind (issue 33 §7): from the dashboard's card, one click to one list of the home's people behind on the
 * Care Certificate, pathways or documents to read; "Remind these people" reminds them, once a day.
 */
async function whoIsBehind(viewport, suffix) {
  const { page, context, errors } = await newPage(browser, viewport);
  await signIn(page, MANAGER);
  await openFromMenu(page, 'Manager dashboard');
  const card = page.getByTestId('dashboard-behind');
  await card
    .getByText(/behind on the Care Certificate, pathways or documents to read/)
    .waitFor({ timeout: 20_000 });
  await card.getByRole('link', { name: 'See who is behind' }).click();
  await page.waitForURL(/\/manager-dashboard\/behind\?entity=\d+$/);
  const list = page.getByTestId('behind-list');
  await list.waitFor({ timeout: 20_000 });
  const people = await list.getByTestId('behind-person').allInnerTexts();
  assert.ok(people.length > 0, 'someone is behind in the demo');
  assert.match(people.join('\n'), /CARE CERTIFICATE|Care Certificate|DOCUMENTS TO READ|Documents to read/i);
  await page.getByRole('button', { name: 'Message these people' }).waitFor();
  await checkPage(page, `who-is-behind${suffix}`);
  if (suffix === '') {
    await page.getByRole('button', { name: 'Remind these people' }).click();
    await page
      .getByText(/^Reminded \d+ (person|people)\.$|^No one was reminded/)
      .first()
      .waitFor();
    // One kind: the Care Certificate's list.
    await page.getByRole('button', { name: /^Care Certificate \(\d+\)$/ }).click();
    await page.waitForURL(/kind=care_certificate/);
    await page.getByText(/in progress and past the date it was expected/).waitFor();
  }
  assert.deepEqual(errors, []);
  await context.close();
}

describe('who is behind', () => {
  it('one click from the dashboard to everyone behind at the home, who can be reminded', async () => {
    await whoIsBehind(undefined, '');
  });

  it('reads at 375 px', async () => {
    await whoIsBehind(NARROW, '-narrow');
  });
});

describe('management dashboard', () => {
  it("ranks the group's homes; a home's link opens its manager dashboard", async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await openFromMenu(page, 'Management dashboard');
    await page.waitForURL(/\/management-dashboard/);
    const ranked = page.getByRole('table', { name: /ranked|lowest score first/i });
    await ranked.waitFor();
    const rows = ranked.getByRole('row');
    // Header plus the three demo homes.
    await ranked.getByRole('link', { name: 'Oakfield House' }).waitFor();
    assert.equal(await rows.count(), 4);
    await page.getByRole('heading', { name: 'Worst courses' }).waitFor();
    await page.getByRole('heading', { name: 'Expiries in the next 12 months' }).waitFor();
    await checkPage(page, 'management-dashboard');

    await ranked.getByRole('link', { name: 'Oakfield House' }).click();
    await page.waitForURL(/\/manager-dashboard\?entity=\d+/);
    await page.getByTestId('dashboard-entity').filter({ hasText: 'Oakfield House' }).waitFor();
    await page.locator('#out-of-date').getByRole('link').first().waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('reads at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/management-dashboard`);
    await page
      .getByRole('table', { name: /lowest score first/i })
      .getByRole('link')
      .first()
      .waitFor();
    await checkPage(page, 'management-dashboard-narrow');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

async function downloadOf(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const stream = await download.createReadStream();
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * Clicks "Make inspection pack" for `home` inside `scope`, sees "Preparing…", and waits for the pack to be ready. The
 * pack (matrix PDF, certificates, zip) is a long job: in a full run with every lane beside it, it passed 120 s once
 * (the 375 px test, with its own pack, took 87 s in that run).
 */
async function makePack(scope, home) {
  await scope.getByRole('button', { name: `Make inspection pack for ${home}` }).click();
  await scope.getByRole('button', { name: `Preparing the inspection pack for ${home}` }).waitFor();
  await scope.getByText(`Inspection pack of ${home} ready`).waitFor({ timeout: 300_000 });
}

describe('inspection pack', () => {
  it('the manager makes it from the dashboard, and finds it by searching "inspection"', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await openFromMenu(page, 'Manager dashboard');
    const card = page.getByTestId('dashboard-inspection-pack');
    await card.waitFor();
    await checkPage(page, 'manager-dashboard-inspection-pack');
    await makePack(card, 'Oakfield House');
    const pdf = await downloadOf(page, () => card.getByRole('button', { name: 'Download PDF' }).click());
    assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
    await checkPage(page, 'manager-dashboard-inspection-pack-ready');
    // The card's link goes to every home's pack.
    await card.getByRole('link', { name: 'All inspection packs' }).click();
    await page.waitForURL(/\/reports\/inspection-pack$/);
    // A long job, so it is one of the header's tasks too, with its file.
    await page.getByTestId('tasks-badge').click();
    await page.waitForURL(/\/tasks-in-progress$/);
    await page.getByText('Inspection pack for Oakfield House').first().waitFor();

    await page.goto(`${BASE}/system/search?q=inspection`);
    const pages = page.getByTestId('search-pages');
    await pages.getByRole('link', { name: /Inspection pack/ }).click();
    await page.waitForURL(/\/reports\/inspection-pack$/);
    await page.getByRole('heading', { level: 1, name: 'Inspection pack' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the manager makes it from Reports → Inspection pack, at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await openFromMenu(page, 'Inspection pack');
    await page.waitForURL(/\/reports\/inspection-pack$/);
    const list = page.getByRole('list', { name: 'Inspection packs' });
    const row = list.getByRole('listitem').filter({ hasText: 'Oakfield House' });
    await row.waitFor();
    await checkPage(page, 'reports-inspection-pack-narrow');
    await makePack(row, 'Oakfield House');
    const zip = await downloadOf(page, () =>
      row.getByRole('button', { name: 'Download evidence (zip)' }).click(),
    );
    assert.equal(zip.subarray(0, 2).toString(), 'PK');
    await checkPage(page, 'reports-inspection-pack-ready-narrow');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

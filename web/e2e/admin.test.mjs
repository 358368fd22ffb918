import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGet, BASE, checkPage, launch, login, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Organisation and user administration: acting-as and its theme, users, entities, roles, permissions,
 * branding. Runs on the demo organisation (admin@demo.test is a super admin of Meadowbrook Care Group).
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const primary500 = (page) =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--cc-primary-500').trim().toLowerCase(),
  );

describe('acting-as', () => {
  it('switching to Brightpath Training applies its white-label colour, and resetting restores ours', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    assert.notEqual(await primary500(page), '#7c3aed', 'not Brightpath’s colour to start with');
    await page.getByTestId('acting-as').click();
    const dialog = page.getByRole('dialog', { name: /act as another organisation/i });
    await dialog.waitFor();
    await dialog.getByRole('searchbox').fill('Brightpath');
    const row = dialog.getByRole('listitem').filter({ hasText: 'Brightpath Training' });
    await row.waitFor();
    await checkPage(page, 'acting-as-modal');
    await row.getByRole('button', { name: 'Act as' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(
      () =>
        getComputedStyle(document.documentElement)
          .getPropertyValue('--cc-primary-500')
          .trim()
          .toLowerCase() === '#7c3aed',
    );
    assert.equal(await page.getByTestId('acting-as').innerText(), 'Brightpath Training');
    // Lists now follow the acted-as organisation (in-app navigation: see the report on reloads).
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Users', exact: true })
      .click();
    await page.waitForURL(`${BASE}/users`);
    await page.getByRole('link', { name: 'Jordan Reid' }).first().waitFor();
    await checkPage(page, 'users-as-brightpath');
    // Reset to my organisation (null).
    await page.getByTestId('acting-as').click();
    await dialog.getByRole('button', { name: /Back to Meadowbrook Care Group/ }).click();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.documentElement)
          .getPropertyValue('--cc-primary-500')
          .trim()
          .toLowerCase() === '#0f766e',
    );
    assert.deepEqual(errors, []);
    await context.close();
  });
  it('a super admin viewing Meadowbrook opens Brightpath’s provider settings by their address: Viewing follows (issue 38 §3)', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    assert.equal(await page.getByTestId('acting-as').innerText(), 'Meadowbrook Care Group');
    const address = `${BASE}/entities/brightpath-training/training-provider-settings`;
    await page.goto(address);
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
    await page.getByText('How Brightpath Training runs its sessions for other organisations.').waitFor();
    await toast(page, 'Now viewing Brightpath Training.');
    assert.equal(page.url(), address);
    assert.equal(await page.getByTestId('acting-as').innerText(), 'Brightpath Training');
    // Saving goes to Brightpath too, under the Viewing the page now shows.
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Settings updated.');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('users', () => {
  it('an admin creates a user with a password, and that user can sign in', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/users`);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('link', { name: 'Alex Morgan' }).first().waitFor();
    await checkPage(page, 'users');
    await page.getByRole('link', { name: 'Add a user' }).first().click();
    await page.waitForURL(`${BASE}/users/create`);
    const email = `e2e.user.${Date.now()}@demo.test`;
    const password = `Qz8-vRt2-${Date.now()}`;
    await page.getByLabel(/^Name/).fill('Robin Example');
    await page.getByLabel(/^E-mail/).fill(email);
    const entity = page.locator('select[name=primary_entity_id]');
    await entity.locator('option', { hasText: 'Oakfield House' }).waitFor({ state: 'attached' });
    await entity.selectOption({ label: 'Oakfield House (Meadowbrook Care Group)' });
    const role = page.locator('select[name=role_id]');
    await role.locator('option', { hasText: 'Care Assistant' }).waitFor({ state: 'attached' });
    await role.selectOption({ label: 'Care Assistant' });
    const type = page.locator('select[name=type_id]');
    await type.locator('option', { hasText: 'Learner' }).waitFor({ state: 'attached' });
    await type.selectOption({ label: 'Learner' });
    await page.getByRole('switch', { name: 'Send a welcome e-mail' }).click();
    await page.getByLabel(/^Password/).fill(password);
    await checkPage(page, 'user-create');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Robin Example' }).waitFor();
    await toast(page, 'User has been created.');
    const details = await page.getByTestId('user-details').innerText();
    assert.match(details, new RegExp(email.replace(/\./g, '\\.')));
    await page.getByTestId('user-permissions').waitFor();
    await checkPage(page, 'user-view');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/users\/update\//);
    await page.getByLabel(/^Name/).waitFor();
    await checkPage(page, 'user-update');
    // Issue 11 §3: a new address waits for its confirmation links (issue 29 §4: the new address's and the current
    // one's); the account keeps (and signs in with) the old one.
    const newEmail = `e2e.moved.${Date.now()}@demo.test`;
    await page.getByLabel(/^E-mail/).fill(newEmail);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/);
    await toast(page, 'Confirmation links have been sent to the new address and to the current one.');
    assert.equal(await page.getByTestId('pending-email').innerText(), newEmail);
    assert.match(await page.getByTestId('user-details').innerText(), /Confirmation sent to the new address/);
    assert.match(await page.getByTestId('user-details').innerText(), new RegExp(email.replace(/\./g, '\\.')));

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    // A fresh sign-in page (no ?redirect= back to the admin's last page, which the new user may not see).
    await page.goto(`${BASE}/login`);
    await login(page, { email, password });
    await page.waitForURL(`${BASE}/`);
    const who = page.getByTestId('who-am-i');
    await who.waitFor();
    assert.match(await who.innerText(), /Robin Example/);
    assert.match(await who.innerText(), /Oakfield House/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a manager opening another organisation’s user lands on the 404 page', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page);
    const found = await apiGet(admin.page, '/users?search=Dana%20Brooks&deep=1&actingAs=brightpath-training');
    assert.equal(found.status, 200);
    const dana = found.body.data.find((u) => u.primary_entity.slug === 'brightpath-training');
    assert.ok(dana, 'a Brightpath user to try');
    await admin.context.close();

    const { page, context } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/users/${dana.uuid}`);
    await page.waitForURL(`${BASE}/404?resource=user`);
    await page.getByRole('heading', { name: "We couldn't find that user" }).waitFor();
    await checkPage(page, 'user-404');
    // …and their own organisation's users still open.
    const own = await apiGet(page, '/users?search=Casey');
    const casey = own.body.data[0];
    await page.goto(`${BASE}/users/${casey.uuid}`);
    await page.getByRole('heading', { level: 1, name: casey.name }).waitFor();
    await context.close();
  });

  it('lists and forms work at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/users`);
    await page.getByRole('list', { name: 'Users' }).getByRole('button').first().waitFor();
    await checkPage(page, 'users');
    await page.goto(`${BASE}/users/create`);
    await page.getByLabel(/^Name/).waitFor();
    await checkPage(page, 'user-create');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no sideways scrolling of the page');
    await context.close();
  });
});

describe('entities', () => {
  it('list → view → update saves', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities`);
    await page.getByRole('link', { name: 'Riverside Lodge' }).waitFor();
    await checkPage(page, 'entities');
    await page.getByRole('link', { name: 'Riverside Lodge' }).click();
    await page.waitForURL(`${BASE}/entities/riverside-lodge`);
    await page.getByRole('heading', { level: 1, name: 'Riverside Lodge' }).waitFor();
    await checkPage(page, 'entity-view');
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`${BASE}/entities/riverside-lodge/update`);
    const phone = `01904 ${String(Date.now()).slice(-6)}`;
    await page.getByLabel('Telephone').fill(phone);
    await page.getByLabel('Expiry warning (days)').fill('45');
    const google = page.getByRole('switch', { name: 'Allow Google sign-in' });
    const googleBefore = (await google.getAttribute('aria-checked')) === 'true';
    await google.click();
    await checkPage(page, 'entity-update');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${BASE}/entities/riverside-lodge`);
    // The server's 'Entity has been updated.' in the organisation's own word (the demo says Home).
    await toast(page, 'Home has been updated.');
    await page.getByTestId('entity-details').getByText(phone).waitFor();
    const saved = await apiGet(page, '/entities/riverside-lodge');
    assert.equal(saved.body.data.telephone, phone);
    assert.equal(saved.body.data.expiry_warning, 45);
    assert.equal(saved.body.data.allow_google_sign_in, !googleBefore);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a 422 from the server shows next to the field', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/create`);
    await page.getByLabel(/^Name/).fill('Duplicate Slug Home');
    await page.getByLabel('Web address').fill('oakfield-house');
    await page.getByLabel(/^Parent/).selectOption({ label: 'Meadowbrook Care Group' });
    await page.getByRole('button', { name: /^Add / }).click();
    const slug = page.getByLabel('Web address');
    await page.locator('#main p', { hasText: 'The web address has already been taken.' }).first().waitFor();
    assert.equal(await slug.getAttribute('aria-invalid'), 'true');
    await checkPage(page, 'entity-create-error');
    await context.close();
  });

  it('lists and forms work at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/entities`);
    await page.getByRole('button', { name: /Riverside Lodge/ }).waitFor();
    await checkPage(page, 'entities');
    await page.goto(`${BASE}/entities/oakfield-house/update`);
    await page.getByLabel('Telephone').waitFor();
    await checkPage(page, 'entity-update');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no sideways scrolling of the page');
    await context.close();
  });
});

describe('job roles', () => {
  it('create, rename and delete (with a confirm)', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/roles/`);
    await page.getByRole('heading', { level: 1, name: 'Job roles' }).waitFor();
    await page
      .getByRole('cell', { name: /Care Assistant/ })
      .first()
      .waitFor();
    await checkPage(page, 'roles');
    const name = `E2E Role ${Date.now()}`;
    await page.getByRole('button', { name: 'Add job role' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add job role' });
    await dialog.getByLabel('Name').fill(name);
    await checkPage(page, 'role-modal');
    await dialog.getByRole('button', { name: 'Add job role' }).click();
    await toast(page, 'Job Role has been created.');
    await page.getByRole('searchbox').fill(name);
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit job role' });
    await edit.getByLabel('Name').fill(`${name} renamed`);
    await edit.getByRole('switch', { name: 'Inspectable' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Job Role has been updated.');
    const renamed = page.getByRole('row').filter({ hasText: `${name} renamed` });
    await renamed.waitFor();
    assert.match(await renamed.innerText(), /Yes/, 'now inspectable');

    await renamed.getByRole('button', { name: `Delete ${name} renamed` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).waitFor();
    await checkPage(page, 'role-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Job Role has been deleted.');
    await renamed.waitFor({ state: 'detached' });
    const left = await apiGet(page, `/entities/meadowbrook/roles?search=${encodeURIComponent(name)}`);
    assert.equal(left.body.data.length, 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('user types list renders at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/types`);
    // At 375 px the row actions sit in the first cell, under the name.
    await page
      .getByRole('cell', { name: /^Learner\b/ })
      .first()
      .waitFor();
    await checkPage(page, 'types');
    await context.close();
  });
});

describe('permissions and branding', () => {
  it('granting an entity permission says “Permission granted”, revoking says “Permission revoked”', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/oakfield-house/permissions/`);
    await page.getByRole('heading', { level: 1, name: 'Permissions' }).waitFor();
    const first = page.locator('[role=switch]:not([disabled])').first();
    await first.waitFor();
    await checkPage(page, 'entity-permissions');
    const label = await first.getAttribute('aria-label');
    const state = () =>
      page.evaluate(
        (l) => document.querySelector(`[role=switch][aria-label="${l}"]`)?.getAttribute('aria-checked'),
        label,
      );
    const toggle = page.getByRole('switch', { name: label, exact: true });
    // Leave it as found: revoke first when it is granted, then grant (and the other way round).
    if ((await state()) === 'true') {
      await toggle.click();
      await toast(page, 'Permission revoked');
      await page.waitForFunction(
        (l) =>
          document.querySelector(`[role=switch][aria-label="${l}"]`)?.getAttribute('aria-checked') ===
          'false',
        label,
      );
      await toggle.click();
      await toast(page, 'Permission granted');
      assert.equal(await state(), 'true');
    } else {
      await toggle.click();
      await toast(page, 'Permission granted');
      await page.waitForFunction(
        (l) =>
          document.querySelector(`[role=switch][aria-label="${l}"]`)?.getAttribute('aria-checked') === 'true',
        label,
      );
      await toggle.click();
      await toast(page, 'Permission revoked');
    }
    const saved = await apiGet(page, '/entity-permissions/oakfield-house/permissions');
    // The switch is labelled with the permission's plain description (issue 33 §1), not its catalogue name.
    const shown = saved.body.data.find((p) => p.description.replace(/\.$/, '') === label);
    assert.equal(shown?.granted, (await state()) === 'true');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('type permissions, branding with live preview and password requirements render', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/types/permissions`);
    await page.getByLabel('User type', { exact: true }).waitFor();
    await page.locator('[role=switch]').first().waitFor();
    await checkPage(page, 'type-permissions');

    // The acted-as organisation (Meadowbrook) is the admin's scope: its branding and its sites'.
    await page.goto(`${BASE}/entities/meadowbrook/branding`);
    const preview = page.getByTestId('branding-preview');
    await preview.waitFor();
    const previewColour = () =>
      preview.evaluate((el) =>
        getComputedStyle(el).getPropertyValue('--cc-primary-500').trim().toLowerCase(),
      );
    assert.equal(await previewColour(), '#0f766e');
    await page.getByLabel('Primary', { exact: true }).fill('#be123c');
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('[data-testid=branding-preview]'))
          .getPropertyValue('--cc-primary-500')
          .trim() === '#be123c',
    );
    assert.notEqual(await primary500(page), '#be123c', 'the app theme is untouched until saved');
    await checkPage(page, 'branding');
    await page.getByRole('button', { name: 'Reset changes' }).click();

    await page.goto(`${BASE}/entities/meadowbrook/password-requirements`);
    await page.getByLabel('Minimum length').waitFor();
    await checkPage(page, 'password-requirements');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('saving the acted-as entity’s branding re-applies the theme', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/branding`);
    await page.getByTestId('branding-preview').waitFor();
    await page.getByLabel('Accent', { exact: true }).fill('#f59e0c');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await toast(page, 'Branding has been updated.');
    await page.waitForFunction(
      () =>
        getComputedStyle(document.documentElement)
          .getPropertyValue('--cc-accent-500')
          .trim()
          .toLowerCase() === '#f59e0c',
    );
    // Put the demo colour back.
    await page.getByLabel('Accent', { exact: true }).fill('#f59e0b');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.documentElement)
          .getPropertyValue('--cc-accent-500')
          .trim()
          .toLowerCase() === '#f59e0b',
    );
    await context.close();
  });
});

import { DEFAULT_WHITELABEL, MAX_IMAGE_BYTES, Messages, Perm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, snapshot } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { dateFormatOf } from './service';
import { subdomainFromHost } from './settings';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

interface FilePart {
  field: string;
  filename: string;
  type?: string;
  bytes: Buffer;
}

/** A multipart/form-data body built by hand (what a browser's FormData sends). */
function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----cc-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.type ?? 'image/png'}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(
  url: string,
  userId: number | null,
  fields: Record<string, string>,
  files: FilePart[] = [],
  method: 'POST' | 'PATCH' = 'POST',
) {
  const body = multipart(fields, files);
  const auth = userId === null ? {} : await bearer(h.db, userId);
  return h.app.inject({
    method,
    url,
    payload: body.payload,
    headers: { ...auth, 'content-type': body.contentType },
  });
}

async function organisation() {
  const a = await buildEntity(h.db);
  const b1 = await buildEntity(h.db, { parentId: a.id });
  const b2 = await buildEntity(h.db, { parentId: a.id });
  return { a, b1, b2 };
}

const fileCount = () =>
  h.db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));

describe('GET /api/whitelabel (spec 2 §7, public)', () => {
  it('answers the defaults with entity null for an unknown sub-domain or slug, without login', async () => {
    for (const query of ['subdomain=nobody-here', 'slug=nobody-here', '']) {
      const res = await h.app.inject({ method: 'GET', url: `/api/whitelabel?${query}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        entity: null,
        logo: null,
        primary: DEFAULT_WHITELABEL.primary,
        accent: DEFAULT_WHITELABEL.accent,
        entityAltName: 'Entity',
        primaryComplianceAltName: 'Mandatory',
        greenScoreBandLowerMargin: 85,
        trafficLightWarning: '#ffbf00',
      });
    }
  });

  it('answers 422 for a bad query', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/api/whitelabel?subdomain=${'a'.repeat(64)}` });
    expect(res.statusCode).toBe(422);
  });

  it('finds the entity by slug, sub-domain or the Host header, and a site inherits its group', async () => {
    const sub = `brand${Date.now()}`;
    const a = await buildEntity(h.db, {
      settings: { subdomain: sub, whitelabel: JSON.stringify({ primary: '#0f766e', companyName: 'Meadow' }) },
    });
    const b = await buildEntity(h.db, {
      parentId: a.id,
      settings: { whitelabel: JSON.stringify({ accent: '#123456', junk: '<script>' }) },
    });
    const bySlug = (await h.app.inject({ method: 'GET', url: `/api/whitelabel?slug=${a.slug}` })).json().data;
    expect(bySlug).toMatchObject({ entity: { id: a.id, slug: a.slug, name: a.name }, primary: '#0f766e' });
    const bySub = (await h.app.inject({ method: 'GET', url: `/api/whitelabel?subdomain=${sub}` })).json()
      .data;
    expect(bySub.entity.id).toBe(a.id);
    const byHost = await h.app.inject({
      method: 'GET',
      url: '/api/whitelabel',
      headers: { host: `${sub}.example.com` },
    });
    expect(byHost.json().data.entity.id).toBe(a.id);
    const site = (await h.app.inject({ method: 'GET', url: `/api/whitelabel?slug=${b.slug}` })).json().data;
    expect(site).toMatchObject({
      entity: { id: b.id },
      primary: '#0f766e',
      accent: '#123456',
      companyName: 'Meadow',
    });
    expect(site).not.toHaveProperty('junk');
  });

  it('reads the sub-domain from the first label of a host name only', () => {
    expect(subdomainFromHost('meadowbrook.example.com:3000')).toBe('meadowbrook');
    expect(subdomainFromHost('meadowbrook.localhost')).toBe('meadowbrook');
    expect(subdomainFromHost('example.com')).toBeNull();
    expect(subdomainFromHost('localhost:3000')).toBeNull();
    expect(subdomainFromHost('127.0.0.1')).toBeNull();
    expect(subdomainFromHost('www.example.com')).toBeNull();
  });
});

describe('POST|PATCH /api/entities/{slug}/whitelabel (spec 2 §7, permission 20)', () => {
  it('answers 401 to an anonymous caller and stores nothing', async () => {
    const { a } = await organisation();
    const before = await fileCount();
    const res = await post(`/api/entities/${a.slug}/whitelabel`, null, { primaryColour: '#000000' }, [
      { field: 'logo', filename: 'logo.png', bytes: PNG },
    ]);
    expect(res.statusCode).toBe(401);
    expect((await post('/api/entities/bad_ref/whitelabel', null, {})).statusCode).toBe(401);
    expect(await fileCount()).toBe(before);
  });

  it('answers 403 to an insider without permission 20', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] });
    const before = await snapshot(h.db, 'entities');
    const res = await post(`/api/entities/${a.slug}/whitelabel`, user.id, { primaryColour: '#000000' });
    expect(res.statusCode).toBe(403);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });

  it('answers 404 to another organisation holding 20 and changes nothing', async () => {
    const { a } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: other.a.id, permissions: [Perm.whiteLabel] });
    const before = await snapshot(h.db, 'entities');
    const files = await fileCount();
    for (const ref of [a.slug, String(a.id)]) {
      const res = await post(`/api/entities/${ref}/whitelabel`, user.id, { primaryColour: '#000000' }, [
        { field: 'logo', filename: 'logo.png', bytes: PNG },
      ]);
      expect(res.statusCode).toBe(404);
    }
    expect(await snapshot(h.db, 'entities')).toBe(before);
    expect(await fileCount()).toBe(files);
  });

  it('answers 422 for bad fields, a script file named .png, HTML and an oversized image', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.whiteLabel] });
    const url = `/api/entities/${a.slug}/whitelabel`;
    const before = await snapshot(h.db, 'entities');
    const files = await fileCount();

    const bad = await post(url, user.id, {
      _method: 'PATCH',
      primaryColour: 'red',
      logoRedirectUrl: 'javascript-not-a-url',
      greenScoreBandLowerMargin: '50',
      amberScoreBandLowerMargin: '60',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['primaryColour', 'logoRedirectUrl', 'amberScoreBandLowerMargin']),
    );

    const svg = await post(url, user.id, { _method: 'PATCH' }, [
      { field: 'logo', filename: 'logo.png', type: 'image/png', bytes: SVG },
      { field: 'favicon', filename: 'favicon.ico', type: 'image/x-icon', bytes: HTML },
    ]);
    expect(svg.statusCode).toBe(422);
    expect(svg.json().errors.logo).toEqual(['The logo must be an image of type: png, jpg, gif, webp, ico.']);
    expect(svg.json().errors.favicon).toBeDefined();

    const huge = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    const big = await post(url, user.id, { _method: 'PATCH' }, [
      { field: 'loginLogo', filename: 'big.png', bytes: huge },
    ]);
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.loginLogo).toEqual(['The login logo may not be greater than 2048 kilobytes.']);

    const method = await post(url, user.id, { _method: 'DELETE' });
    expect(method.statusCode).toBe(422);
    expect(method.json().errors._method).toBeDefined();

    // The margins are checked against the stored ones too: amber must stay below green.
    const amber = await post(url, user.id, { amberScoreBandLowerMargin: '90' });
    expect(amber.statusCode).toBe(422);
    expect(amber.json().errors.amberScoreBandLowerMargin).toBeDefined();

    expect(await snapshot(h.db, 'entities')).toBe(before);
    expect(await fileCount()).toBe(files);
  });

  it('saves colours, labels and a logo (form names mapped), serves the logo, replaces and removes it', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.whiteLabel] });
    const url = `/api/entities/${a.slug}/whitelabel`;
    const res = await post(
      url,
      user.id,
      {
        _method: 'PATCH',
        primaryColour: '#112233',
        secondaryColour: '#eeeeee',
        accentPrimaryColour: '#aa0000',
        accentSecondaryColour: '#550000',
        successPrimaryColour: '#00aa00',
        dangerPrimaryColour: '#ff0000',
        warningSecondaryColour: '#ffaa00',
        entityAltName: 'Home',
        entitiesAltName: 'Homes',
        companyName: 'Meadowbrook',
        logoRedirectUrl: 'https://meadowbrook.example',
        greenScoreBandLowerMargin: '90',
        amberScoreBandLowerMargin: '70',
      },
      [{ field: 'logo', filename: 'my logo (1).png', bytes: PNG }],
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.whitelabelUpdated);
    const data = res.json().data;
    expect(data).toMatchObject({
      entity: { id: a.id, slug: a.slug },
      primary: '#112233',
      secondary: '#eeeeee',
      accent: '#aa0000',
      accentSecondary: '#550000',
      success: '#00aa00',
      danger: '#ff0000',
      warning: DEFAULT_WHITELABEL.warning,
      warningSecondary: '#ffaa00',
      entityAltName: 'Home',
      entitiesAltName: 'Homes',
      companyName: 'Meadowbrook',
      logoRedirectUrl: 'https://meadowbrook.example',
      greenScoreBandLowerMargin: 90,
      amberScoreBandLowerMargin: 70,
      loginLogo: null,
    });
    expect(data.logo).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const stored = await h.db
      .selectFrom('entities')
      .select('whitelabel')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(stored.whitelabel).toMatchObject({
      primary: '#112233',
      accent: '#aa0000',
      accentSecondary: '#550000',
    });

    // The public file route serves it with safe headers.
    const served = await h.app.inject({ method: 'GET', url: data.logo });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['cache-control']).toBe('public, max-age=86400');
    expect(served.headers['content-disposition']).toBe('inline; filename="my_logo_1_.png"');

    // A site sees its group's logo and colours.
    const site = (await h.app.inject({ method: 'GET', url: `/api/whitelabel?slug=${b1.slug}` })).json().data;
    expect(site).toMatchObject({ logo: data.logo, primary: '#112233' });

    // Replacing the logo (a real PATCH this time) removes the old file row and its bytes after commit.
    const oldUuid = data.logo.split('/').pop();
    const oldRow = await h.db
      .selectFrom('files')
      .selectAll()
      .where('uuid', '=', oldUuid)
      .executeTakeFirstOrThrow();
    expect(oldRow).toMatchObject({ entity_id: a.id, purpose: 'logo', mime_type: 'image/png' });
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const replaced = await post(
      url,
      user.id,
      {},
      [{ field: 'logo', filename: 'new.gif', bytes: gif }],
      'PATCH',
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data.logo).not.toBe(data.logo);
    expect(replaced.json().data.primary).toBe('#112233'); // untouched fields stay
    expect(
      await h.db.selectFrom('files').select('id').where('uuid', '=', oldUuid).executeTakeFirst(),
    ).toBeUndefined();
    expect(await h.deps.storage.get(oldRow.storage_key)).toBeNull();
    expect((await h.app.inject({ method: 'GET', url: data.logo })).statusCode).toBe(404);
    const newServed = await h.app.inject({ method: 'GET', url: replaced.json().data.logo });
    expect(newServed.headers['content-type']).toBe('image/gif');

    // removeLogo=1 drops it; an empty URL clears the redirect.
    const removed = await post(url, user.id, { _method: 'PATCH', removeLogo: '1', logoRedirectUrl: '' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toMatchObject({ logo: null, logoRedirectUrl: null });
  });

  it('accepts a JSON PATCH without files, and an empty file part as "no new file"', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.whiteLabel] });
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/entities/${a.id}/whitelabel`,
      headers: await bearer(h.db, user.id),
      payload: { trafficLightOk: '#00ff00', faviconUrl: 'https://cdn.example/favicon.ico' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      trafficLightOk: '#00ff00',
      favicon: 'https://cdn.example/favicon.ico',
    });
    const empty = await post(`/api/entities/${a.slug}/whitelabel`, user.id, { _method: 'PATCH' }, [
      { field: 'favicon', filename: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) },
    ]);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data.favicon).toBe('https://cdn.example/favicon.ico');
  });

  it('acting-as: own site ok; a sibling without 19 is 403; another organisation is 404', async () => {
    const { b1, b2 } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: b1.id, permissions: [Perm.whiteLabel] });
    const ok = await post(`/api/entities/${b1.slug}/whitelabel?actingAs=${b1.slug}`, user.id, {
      primaryColour: '#010203',
    });
    expect(ok.statusCode).toBe(200);
    const before = await snapshot(h.db, 'entities');
    const sibling = await post(`/api/entities/${b2.slug}/whitelabel?actingAs=${b2.slug}`, user.id, {
      primaryColour: '#010203',
    });
    expect(sibling.statusCode).toBe(403);
    const outside = await post(`/api/entities/${other.a.slug}/whitelabel?actingAs=${other.a.slug}`, user.id, {
      primaryColour: '#010203',
    });
    expect(outside.statusCode).toBe(404);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });
});

describe('GET /api/files/{uuid}', () => {
  it('answers 404 for unknown, malformed and non-public files', async () => {
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/files/00000000-0000-0000-0000-000000000000' }))
        .statusCode,
    ).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/api/files/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(
      404,
    );
    const a = await buildEntity(h.db);
    const key = await h.deps.storage.put('documents', PNG, 'png');
    const row = await h.db
      .insertInto('files')
      .values({
        entity_id: a.id,
        purpose: 'document',
        storage_key: key,
        original_name: 'private.png',
        mime_type: 'image/png',
        size_bytes: PNG.length,
      })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    expect((await h.app.inject({ method: 'GET', url: `/api/files/${row.uuid}` })).statusCode).toBe(404);
  });
});

describe('date format (issue 13: one date format, the organisation setting)', () => {
  it('defaults to DD/MM/YYYY, is saved with the white-label, inherited by a site and cleared with ""', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.whiteLabel] });
    const get = async (slug: string) =>
      (await h.app.inject({ method: 'GET', url: `/api/whitelabel?slug=${slug}` })).json().data.dateFormat;
    expect(await get(a.slug)).toBe('DD/MM/YYYY');
    expect(await dateFormatOf({ db: h.db }, b1.id)).toBe('DD/MM/YYYY');

    const saved = await post(`/api/entities/${a.slug}/whitelabel`, user.id, { dateFormat: 'YYYY-MM-DD' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.dateFormat).toBe('YYYY-MM-DD');
    expect(await get(a.slug)).toBe('YYYY-MM-DD');
    expect(await get(b1.slug)).toBe('YYYY-MM-DD');
    expect(await dateFormatOf({ db: h.db }, b1.id)).toBe('YYYY-MM-DD');

    // A site's own choice wins over its group's; '' follows the group again.
    await post(`/api/entities/${b1.slug}/whitelabel`, user.id, { dateFormat: 'MM/DD/YYYY' });
    expect(await get(b1.slug)).toBe('MM/DD/YYYY');
    expect(await dateFormatOf({ db: h.db }, b1.id)).toBe('MM/DD/YYYY');
    await post(`/api/entities/${b1.slug}/whitelabel`, user.id, { dateFormat: '' });
    expect(await get(b1.slug)).toBe('YYYY-MM-DD');

    // Saving other settings leaves the format alone.
    await post(`/api/entities/${a.slug}/whitelabel`, user.id, { primaryColour: '#112233' });
    expect(await get(a.slug)).toBe('YYYY-MM-DD');
  });

  it('refuses an unknown format with 422 and a field error', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.whiteLabel] });
    const res = await post(`/api/entities/${a.slug}/whitelabel`, user.id, { dateFormat: 'D.M.YY' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain('dateFormat');
  });
});

/**
 * GraphQL updates change only what they are sent (issue 10 §2), like PATCH: generated over the schema's update
 * mutations and the fields of their inputs. Each resource is created and read back with the REST PATCH fixtures
 * (test/patch-fixtures.ts), updated through GraphQL with one field, and every other field must be unchanged.
 * A mutation that is neither listed as an update nor as another kind of write fails the coverage test.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness } from '../../test/harness';
import {
  buildWorld,
  changedWhatItShould,
  changesOf,
  otherChanges,
  PATCH_FIXTURES,
  type PatchFixture,
  type Row,
  type World,
} from '../../test/patch-fixtures';

const h = await createHarness();
afterAll(async () => h.close());
const world = await buildWorld(h);

async function gql(query: string, variables: Row = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: world.adminHeaders,
    payload: { query, variables },
  });
  return res.json() as { data?: Row | null; errors?: { message: string }[] };
}

interface GraphqlUpdate {
  /** The REST operation whose fixture creates, reads back and gives new values. */
  rest: string;
  /** The input type whose fields are sent one by one (else the REST fixture's fields). */
  input?: string;
  /** Input fields that only a create reads, with a value to send: on an update they change nothing. */
  createOnly?: Row;
  /** Sends one field as this mutation. */
  send(state: unknown, w: World, field: string, value: unknown): Promise<Row>;
}

const UPDATES: Record<string, GraphqlUpdate> = {
  upsertTrainingSession: {
    rest: 'PATCH /api/training-sessions/{id}',
    input: 'TrainingSessionInput',
    send: (s, _w, field, value) =>
      gql('mutation ($input: TrainingSessionInput!) { upsertTrainingSession(input: $input) { id } }', {
        input: { id: String((s as { id: number }).id), [field]: value },
      }),
  },
  upsertEntity: {
    rest: 'PATCH /api/entities/{id}',
    input: 'EntityInput',
    send: (s, _w, field, value) =>
      gql('mutation ($input: EntityInput!) { upsertEntity(input: $input) { id } }', {
        input: { id: String((s as { id: number }).id), [field]: value },
      }),
  },
  upsertUser: {
    rest: 'PATCH /api/users/{id}',
    input: 'UserInput',
    createOnly: { password: 'Another-Password-7', send_welcome_email: true },
    send: (s, _w, field, value) =>
      gql('mutation ($input: UserInput!) { upsertUser(input: $input) { id } }', {
        input: { id: String((s as { id: number }).id), [field]: value },
      }),
  },
  updateWhitelabel: {
    rest: 'PATCH /api/entities/{id}/whitelabel',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($entity: String!, $settings: JSON) { updateWhitelabel(entity: $entity, settings: $settings) }',
        {
          entity: (s as { slug: string }).slug,
          settings: { [field]: value },
        },
      ),
  },
  upsertHelpArticle: {
    rest: 'PATCH /api/help-articles/{id}',
    input: 'HelpArticleInput',
    send: (s, _w, field, value) =>
      gql('mutation ($input: HelpArticleInput!) { upsertHelpArticle(input: $input) { id } }', {
        input: { id: String((s as { id: number }).id), [field]: value },
      }),
  },
  updateTrainingProviderSettings: {
    rest: 'PATCH /api/entities/{slug}/training-provider-settings',
    input: 'TrainingProviderSettingsInput',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($slug: String!, $input: TrainingProviderSettingsInput!) { updateTrainingProviderSettings(slug: $slug, input: $input) { entity_id } }',
        { slug: (s as { slug: string }).slug, input: { [field]: value } },
      ),
  },
  upsertObservation: {
    rest: 'PATCH /api/care-certificates/{uuid}/observations/{id}',
    input: 'CareCertificateObservationInput',
    createOnly: { supersedes_id: 1, correction_reason: 'Create only' },
    send: (s, _w, field, value) => {
      const { uuid, id } = s as { uuid: string; id: number };
      return gql(
        'mutation ($uuid: String!, $input: CareCertificateObservationInput!) { upsertObservation(uuid: $uuid, input: $input) { id } }',
        { uuid, input: { id: String(id), [field]: value } },
      );
    },
  },
  updateHistoricalCareCertificate: {
    rest: 'PATCH /api/historical-care-certificates/{uuid}',
    input: 'HistoricalCareCertificateInput',
    createOnly: { user_id: 1 },
    send: (s, _w, field, value) =>
      gql(
        'mutation ($uuid: String!, $input: HistoricalCareCertificateInput!) { updateHistoricalCareCertificate(uuid: $uuid, input: $input) { uuid } }',
        { uuid: (s as { uuid: string }).uuid, input: { [field]: value } },
      ),
  },
  updateDelegateSettings: {
    rest: 'PATCH /api/entities/{slug}/delegate-settings',
    input: 'DelegateSettingsInput',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($slug: String!, $input: DelegateSettingsInput!) { updateDelegateSettings(slug: $slug, input: $input) { entity_id } }',
        { slug: (s as { slug: string }).slug, input: { [field]: value } },
      ),
  }, // The Care Certificate (issue 16): copy_from_id is read on create only.
  updateCareCertificateVersion: {
    rest: 'PATCH /api/care-certificate-versions/{id}',
    input: 'CareCertificateVersionInput',
    createOnly: { copy_from_id: 1 },
    send: (s, _w, field, value) =>
      gql(
        'mutation ($id: ID!, $input: CareCertificateVersionInput!) { updateCareCertificateVersion(id: $id, input: $input) { id } }',
        { id: String((s as { id: number }).id), input: { [field]: value } },
      ),
  },
  updateCareCertificateStandard: {
    rest: 'PATCH /api/care-certificate-standards/{id}',
    input: 'CareCertificateStandardInput',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($id: ID!, $input: CareCertificateStandardInput!) { updateCareCertificateStandard(id: $id, input: $input) { id } }',
        { id: String((s as { id: number }).id), input: { [field]: value } },
      ),
  },
  updateCareCertificateOutcome: {
    rest: 'PATCH /api/care-certificate-outcomes/{id}',
    input: 'CareCertificateOutcomeInput',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($id: ID!, $input: CareCertificateOutcomeInput!) { updateCareCertificateOutcome(id: $id, input: $input) { id } }',
        { id: String((s as { id: number }).id), input: { [field]: value } },
      ),
  },
  updateCareCertificateCriterion: {
    rest: 'PATCH /api/care-certificate-criteria/{id}',
    input: 'CareCertificateCriterionInput',
    send: (s, _w, field, value) =>
      gql(
        'mutation ($id: ID!, $input: CareCertificateCriterionInput!) { updateCareCertificateCriterion(id: $id, input: $input) { id } }',
        { id: String((s as { id: number }).id), input: { [field]: value } },
      ),
  },
  // Pathways (issue 17): entity is read on create only.
  upsertPathway: {
    rest: 'PATCH /api/pathways/{id}',
    input: 'PathwayInput',
    createOnly: { entity: 'anything' },
    send: (s, _w, field, value) =>
      gql('mutation ($input: PathwayInput!) { upsertPathway(input: $input) { id } }', {
        input: { id: String((s as { id: number }).id), [field]: value },
      }),
  },
  updateCareCertificateSettings: {
    rest: 'PATCH /api/care-certificate-settings',
    input: 'CareCertificateSettingsInput',
    send: (_s, _w, field, value) =>
      gql(
        'mutation ($input: CareCertificateSettingsInput!) { updateCareCertificateSettings(input: $input) { entity_id } }',
        { input: { [field]: value } },
      ),
  },
  // The content designer (issue 17): a save carries the revision it was read at (sent with every field; sent
  // alone it only moves the revision on, a volatile key); entity is read on create only.
  saveDesign: {
    rest: 'PATCH /api/designs/{id}',
    input: 'SaveDesignInput',
    createOnly: { entity: 'create-only', revision: 0 },
    send: async (s, w, field, value) => {
      const { id } = s as { id: number };
      const read = (await w.admin('GET', `/api/designs/${id}`)).json() as { data: { revision: number } };
      return gql('mutation ($input: SaveDesignInput!) { saveDesign(input: $input) { id } }', {
        input: { id: String(id), [field]: value, revision: read.data.revision },
      });
    },
  },
  updateLibrary: {
    rest: 'PATCH /api/libraries/{id}',
    input: 'LibraryInput',
    createOnly: { entity: 'not-read-on-update' },
    send: (s, _w, field, value) =>
      gql('mutation ($id: ID!, $input: LibraryInput!) { updateLibrary(id: $id, input: $input) { id } }', {
        id: String((s as { id: number }).id),
        input: { [field]: value },
      }),
  },
};
/**
 * Mutations that create or act rather than update fields of a record. updatePreferences merges the keys it is sent
 * into one JSON document; graphql/preferences.test.ts proves that omitted keys stay.
 */
const NOT_UPDATES = [
  // Integrations (issue 18): creates, actions and revocations. upsertWebhook updates through PATCH
  // /api/webhooks/{id}'s service with only the fields it was sent (`defined(fields)`), which
  // http/patch-operations.test.ts covers field by field.
  'applyImport',
  'approveSignUp',
  'createAttempts',
  'createPersonalAccessToken',
  'createSignUpLink',
  'deleteWebhook',
  'dismissTask',
  'planImport',
  'rejectSignUp',
  'resendWebhookDelivery',
  'resolveImportError',
  'revokePersonalAccessToken',
  'revokeSignUpLink',
  'rotateWebhookSecret',
  'testWebhook',
  'undoImport',
  'upsertWebhook',
  // Push devices (issue 19): register (an upsert on the phone's token, every field sent) and remove.
  'registerPushDevice',
  'removePushDevice',
  'createAttempt',
  'approvePendingResult',
  'deletePendingResult',
  'updatePreferences',
  'deleteHelpArticle',
  'cancelTrainingSession',
  'cancelBookings',
  'trainingOrder',
  // Training company approval (issue 29 §7): the organisation's request and a super admin's answer, no fields.
  'requestTrainingCompany',
  'approveTrainingCompany',
  'refuseTrainingCompany',
  // Booking the gaps (issue 33 §2): places given to a list of people, no fields of a record.
  'bookGap',
  // Who is behind (issue 33 §7): reminders recorded in the ledger, no fields of a record.
  'remindBehind',
  // Data protection (issue 35 §4): a leaving date set whole (its one value), an erasure with its typed name.
  'setLeavingDate',
  'erasePersonalDetails',
  // Starter training matrix (issue 37 §2): adds what is missing from a fixed catalogue; no fields of a record.
  'applyStarterMatrix',
  // The ASC-WDS export (issue 37 §1): a home's workplace ID and a course's category, each one value set whole.
  'setAscWdsWorkplaceId',
  'setAscWdsCategory',
  // The Care Certificate (issue 16): creates, deletes, a set replaced whole, an assignment and its withdrawal.
  'createCareCertificateVersion',
  'deleteCareCertificateVersion',
  'addCareCertificateStandard',
  'deleteCareCertificateStandard',
  'addCareCertificateOutcome',
  'deleteCareCertificateOutcome',
  'addCareCertificateCriterion',
  'deleteCareCertificateCriterion',
  'setCourseCareCertificateCriteria',
  // Issue 32 §2: a file's criteria previewed, or applied (added and changed as the file says, nothing else).
  'previewCareCertificateCriteriaImport',
  'importCareCertificateCriteria',
  'assignCareCertificate',
  'withdrawCareCertificate',
  // The Care Certificate's workflow (issue 16): actions on observations, standards and a new historical record.
  'deleteObservation',
  'approveObservation',
  'submitCareCertificateStandard',
  'approveCareCertificateStandard',
  'rejectCareCertificateStandard',
  'createHistoricalCareCertificate',
  // The content designer (issue 17): publishing makes or updates content, it edits no field of the design.
  'publishDesign',
  // Pathways (issue 17): allocations, sign-offs and a role allocation are actions, not field updates.
  'allocatePathway',
  'withdrawPathwayAllocation',
  'signOffPathwayStep',
  'signOffPathwayAllocation',
  'allocatePathwayToRole',
  // Documents and libraries (issue 17): creates, a new version and an acknowledgement.
  'createLibrary',
  'createDocument',
  'addDocumentVersion',
  'acknowledgeDocument',
];

/** The schema's mutations and the update inputs' fields, asked in batches under the server's limit of 15 aliases. */
async function readSchema() {
  const inputs = Object.values(UPDATES).flatMap((u) => (u.input ? [u.input] : []));
  const first = await gql('{ __schema { mutationType { fields { name } } } }');
  const data: Record<string, unknown> = { ...first.data };
  const errors: unknown[] = [...(first.errors ?? [])];
  for (let i = 0; i < inputs.length; i += 10) {
    const aliases = inputs
      .slice(i, i + 10)
      .map((name) => `${name}: __type(name: "${name}") { inputFields { name } }`);
    const batch = await gql(`{ ${aliases.join('\n  ')} }`);
    Object.assign(data, batch.data);
    errors.push(...(batch.errors ?? []));
  }
  return { data, errors: errors.length ? errors : undefined };
}
const schema = await readSchema();
const mutationType = (schema.data?.__schema as { mutationType?: { fields: { name: string }[] } } | undefined)
  ?.mutationType;
const mutations = (mutationType?.fields ?? []).map((f) => f.name);

/** The fields an update mutation is tested with: its input type's (without the id), else the REST body's. */
function fieldsOf(update: GraphqlUpdate, fixture: PatchFixture): string[] {
  if (update.input) {
    const type = schema.data?.[update.input] as { inputFields: { name: string }[] } | undefined;
    return (type?.inputFields ?? []).map((f) => f.name).filter((name) => name !== 'id');
  }
  return Object.keys(fixture.bodySchema?.shape ?? {});
}

describe('GraphQL update mutations', () => {
  it('lists every mutation of the schema as an update or as another kind of write', () => {
    expect(schema.errors).toBeUndefined();
    expect(mutations.length).toBeGreaterThan(0);
    expect(mutations.filter((m) => !UPDATES[m] && !NOT_UPDATES.includes(m))).toEqual([]);
  });
});

for (const [name, update] of Object.entries(UPDATES)) {
  const fixture = PATCH_FIXTURES[update.rest] as PatchFixture;
  const fields = fieldsOf(update, fixture);
  const createOnly = Object.keys(update.createOnly ?? {});
  // A create-only field is accepted on an update and changes nothing.
  const expected: PatchFixture = {
    ...fixture,
    effects: { ...fixture.effects, ...Object.fromEntries(createOnly.map((f) => [f, []])) },
  };

  describe(name, () => {
    it('has fields to send', () => expect(fields.length).toBeGreaterThan(0));

    for (const field of fields) {
      it(`changes only ${field}`, async () => {
        const state = await fixture.create(world);
        const values = { ...fixture.values(state, world), ...update.createOnly };
        expect(field in values, `no new value for ${field} in the ${update.rest} fixture`).toBe(true);
        const before = await fixture.read(state, world);
        const res = await update.send(state, world, field, values[field]);
        expect(res.errors, `${name} {${field}}`).toBeUndefined();
        const after = await fixture.read(state, world);
        expect(
          otherChanges(expected, field, before, after),
          `${name} {${field}} changed other fields`,
        ).toEqual([]);
        expect(
          changedWhatItShould(expected, field, before, after),
          `${name} {${field}} changed none of ${changesOf(expected, field).join(', ')}`,
        ).toBe(true);
      });
    }
  });
}

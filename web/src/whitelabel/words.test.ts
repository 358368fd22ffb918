import { DEFAULT_WHITELABEL, Messages } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { levelChoice, levelLabel, PERMISSION_DENIED_TEXT, userFieldWords, userWords } from './words';

const homes = { entityAltName: 'Home', entitiesAltName: 'Homes' };

describe('userWords', () => {
  it('puts the organisation’s own words in the spec’s messages', () => {
    expect(userWords(Messages.entityCreated, homes)).toBe('Home has been created.');
    expect(userWords('The entity must be an id or a slug.', homes)).toBe(
      'The home must be an id or a web address.',
    );
    expect(userWords('Two entities were moved.', homes)).toBe('Two homes were moved.');
    // Field names such as entity_id are not words.
    expect(userWords('entity_id is required', homes)).toBe('entity_id is required');
  });

  it('shows a permission failure in plain words', () => {
    expect(userWords(Messages.forbidden, homes)).toBe(PERMISSION_DENIED_TEXT);
    expect(PERMISSION_DENIED_TEXT).toMatch(/don't have permission.*administrator/);
  });

  it('rewrites 422 field errors too', () => {
    expect(userFieldWords({ slug: ['The slug has already been taken.'] }, homes)).toEqual({
      slug: ['The web address has already been taken.'],
    });
  });
});

describe('levels in product words', () => {
  it('names level A a group and level B a site (or the white-label name)', () => {
    expect(levelLabel('A', homes)).toBe('Group');
    expect(levelLabel('B', homes)).toBe('Home');
    expect(levelLabel('B', DEFAULT_WHITELABEL)).toBe('Site');
    expect(levelChoice('B', homes)).toMatch(/^Home \(one place within a group\)$/);
  });
});

describe('organisation words', () => {
  it('never shows the spec default "Entity" to users', async () => {
    const { organisationWord, organisationsWord } = await import('./words');
    expect(organisationWord(DEFAULT_WHITELABEL)).toBe('Organisation');
    expect(organisationsWord(DEFAULT_WHITELABEL)).toBe('Organisations');
    expect(organisationWord(homes)).toBe('Home');
  });
  it('names a person\'s own organisation "Main home", never "Primary entity"', async () => {
    const { mainOrganisationLabel } = await import('./words');
    expect(mainOrganisationLabel(homes)).toBe('Main home');
    expect(mainOrganisationLabel(DEFAULT_WHITELABEL)).toBe('Main organisation');
  });
});

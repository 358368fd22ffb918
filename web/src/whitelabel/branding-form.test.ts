import { DEFAULT_WHITELABEL, type Whitelabel } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { shades } from '../app/theme';
import {
  brandingFields,
  previewVariables,
  scoreBand,
  toFormData,
  validateBranding,
  whitelabelToForm,
} from './branding-form';

const wl: Whitelabel = {
  entity: { id: 5, slug: 'brightpath-training', name: 'Brightpath Training' },
  logo: '/files/logo.png',
  loginLogo: null,
  favicon: null,
  companyName: 'Brightpath Training',
  logoRedirectUrl: null,
  accentSecondary: null,
  successSecondary: null,
  warningSecondary: null,
  dangerSecondary: '#aa0000',
  dateFormat: 'YYYY-MM-DD',
  ...DEFAULT_WHITELABEL,
  primary: '#7c3aed',
};

describe('whitelabelToForm', () => {
  it('maps the stored names to the settings form’s names; a never-set secondary shows its primary', () => {
    const form = whitelabelToForm(wl);
    expect(form.primaryColour).toBe('#7c3aed');
    expect(form.accentPrimaryColour).toBe(DEFAULT_WHITELABEL.accent);
    expect(form.accentSecondaryColour).toBe(DEFAULT_WHITELABEL.accent);
    expect(form.dangerSecondaryColour).toBe('#aa0000');
    expect(form.greenScoreBandLowerMargin).toBe('85');
    expect(form.dateFormat).toBe('YYYY-MM-DD');
    expect(form.logoRedirectUrl).toBe('');
  });
});

describe('brandingFields (multipart of POST /entities/{slug}/whitelabel)', () => {
  it('sends _method=PATCH and only what changed', () => {
    const original = whitelabelToForm(wl);
    expect(brandingFields(original, original)).toEqual({ _method: 'PATCH' });
    const edited = {
      ...original,
      primaryColour: ' #be123c ',
      entityAltName: 'Site',
      amberScoreBandLowerMargin: '60',
    };
    expect(brandingFields(edited, original)).toEqual({
      _method: 'PATCH',
      primaryColour: '#be123c',
      entityAltName: 'Site',
      amberScoreBandLowerMargin: '60',
    });
  });

  it('sends new files, and remove flags only for removed images without a replacement', () => {
    const original = whitelabelToForm(wl);
    const logo = new File(['png'], 'logo.png', { type: 'image/png' });
    const fields = brandingFields(
      {
        ...original,
        files: { logo, loginLogo: null, favicon: null },
        remove: { logo: true, loginLogo: false, favicon: true },
      },
      original,
    );
    expect(fields.logo).toBe(logo);
    expect(fields.removeLogo).toBeUndefined();
    expect(fields.removeFavicon).toBe('1');
    const data = toFormData(fields);
    expect(data.get('_method')).toBe('PATCH');
    expect(data.get('logo')).toBeInstanceOf(File);
    expect(data.get('removeFavicon')).toBe('1');
  });
});

describe('validateBranding', () => {
  it('uses the contract: hex colours, amber below green, a valid link', () => {
    const form = whitelabelToForm(wl);
    expect(validateBranding(form)).toEqual({});
    const bad = validateBranding({
      ...form,
      primaryColour: 'purple',
      amberScoreBandLowerMargin: '90',
      logoRedirectUrl: 'not a url',
    });
    expect(Object.keys(bad).sort()).toEqual([
      'amberScoreBandLowerMargin',
      'logoRedirectUrl',
      'primaryColour',
    ]);
  });
});

describe('previewVariables (live preview shades)', () => {
  it('expands the edited colours with the theme maths, 500 the base', () => {
    const vars = previewVariables({ ...whitelabelToForm(wl), primaryColour: '#be123c' });
    const scale = shades('#be123c');
    expect(vars['--cc-primary-500']).toBe('#be123c');
    expect(vars['--cc-primary-100']).toBe(scale[100]);
    expect(vars['--cc-primary-900']).toBe(scale[900]);
    expect(vars['--cc-primary-700-text']).toBe('#ffffff');
    expect(vars['--cc-accent-500']).toBe(DEFAULT_WHITELABEL.accent.toLowerCase());
  });

  it('falls back to the default for a colour still being typed', () => {
    const vars = previewVariables({ ...whitelabelToForm(wl), primaryColour: '#be1' + 'x' });
    expect(vars['--cc-primary-500']).toBe(DEFAULT_WHITELABEL.primary.toLowerCase());
  });
});

describe('scoreBand', () => {
  it('uses the configurable lower margins (spec 2 §9)', () => {
    expect(scoreBand(85, 85, 65)).toBe('green');
    expect(scoreBand(84, 85, 65)).toBe('amber');
    expect(scoreBand(65, 85, 65)).toBe('amber');
    expect(scoreBand(64, 85, 65)).toBe('red');
    expect(scoreBand(80, 80, 50)).toBe('green');
  });
});

describe('date format (issue 13)', () => {
  it('sends the format only when changed, and the contract refuses an unknown one', () => {
    const original = whitelabelToForm(wl);
    expect(brandingFields(original, original)).not.toHaveProperty('dateFormat');
    expect(brandingFields({ ...original, dateFormat: 'DD/MM/YYYY' }, original)).toMatchObject({
      dateFormat: 'DD/MM/YYYY',
    });
    expect(validateBranding({ ...original, dateFormat: 'D.M.YY' })).toHaveProperty('dateFormat');
  });
});

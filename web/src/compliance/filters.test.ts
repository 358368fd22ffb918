import { describe, expect, it } from 'vitest';
import { validityLabel } from './api';
import { COMPLIANCE_FILTER_DEFAULTS, complianceFilterParams, parseComplianceFilters } from './filters';

describe('compliance navigation filters (spec 2 §4)', () => {
  it('defaults: new starters included, primary, all roles; unknown values fall back', () => {
    expect(parseComplianceFilters(new URLSearchParams(''))).toEqual(COMPLIANCE_FILTER_DEFAULTS);
    expect(COMPLIANCE_FILTER_DEFAULTS).toEqual({
      newStarters: 'include',
      complianceType: 'primary',
      inspectable: 'all',
    });
    expect(parseComplianceFilters(new URLSearchParams('compliance_type=bogus&new_starters=maybe'))).toEqual(
      COMPLIANCE_FILTER_DEFAULTS,
    );
  });

  it('reads the URL query and maps to API parameters', () => {
    const f = parseComplianceFilters(
      new URLSearchParams('new_starters=exclude&compliance_type=all&inspectable=1'),
    );
    expect(f).toEqual({ newStarters: 'exclude', complianceType: 'all', inspectable: '1' });
    expect(complianceFilterParams(f)).toEqual({
      new_starters: 'exclude',
      new_starters_filter: 'exclude_new_starters',
      compliance_type: 'all',
      inspectable: '1',
    });
    expect(complianceFilterParams(COMPLIANCE_FILTER_DEFAULTS).inspectable).toBeUndefined();
  });

  it('labels validity as people read it', () => {
    expect(validityLabel(null)).toBe('Never expires');
    expect(validityLabel(12)).toBe('1 year');
    expect(validityLabel(36)).toBe('3 years');
    expect(validityLabel(6)).toBe('6 months');
  });
});

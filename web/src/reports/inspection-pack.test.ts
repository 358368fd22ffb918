import { ReportsPerm } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { pageHits } from '../activity/search-pages';
import { inspectionPackButtonText } from './InspectionPackButton';
import { INSPECTION_PACK_PATH, packPlaces } from './inspection-pack';

const group = { id: 1, slug: 'sunrise', name: 'Sunrise Care Group', level: 'A' as const };
const oak = { id: 2, slug: 'oakfield-house', name: 'Oakfield House', level: 'B' as const };
const mead = { id: 3, slug: 'meadowbrook', name: 'Meadowbrook', level: 'B' as const };

describe('inspection pack places', () => {
  it('lists the group first, then its homes by name, each once', () => {
    expect(packPlaces([oak, mead, group, oak], null).map((p) => p.name)).toEqual([
      'Sunrise Care Group',
      'Meadowbrook',
      'Oakfield House',
    ]);
  });
  it("falls back to the caller's own home when they cannot list organisations", () => {
    expect(packPlaces(undefined, oak)).toEqual([oak]);
    expect(packPlaces([], null)).toEqual([]);
  });
});

describe('inspection pack button', () => {
  it('says what it will do, then "Preparing…" while the pack is made', () => {
    expect(inspectionPackButtonText(null, false)).toBe('Make inspection pack');
    expect(inspectionPackButtonText(null, true)).toBe('Preparing the inspection pack…');
    expect(inspectionPackButtonText('queued', false)).toBe('Preparing the inspection pack…');
    expect(inspectionPackButtonText('running', false)).toBe('Preparing the inspection pack…');
    expect(inspectionPackButtonText('done', false)).toBe('Make the pack again');
    expect(inspectionPackButtonText('failed', false)).toBe('Make inspection pack');
  });
});

describe('search finds pages', () => {
  const manager = (ids: number[]) => ids.every((id) => id === ReportsPerm.complianceReport);
  it('"inspection" finds the inspection pack for a manager with the compliance report', () => {
    expect(pageHits('inspection', manager)).toEqual([
      expect.objectContaining({ title: 'Inspection pack', to: INSPECTION_PACK_PATH }),
    ]);
    expect(pageHits('  CQC pack ', manager).map((p) => p.title)).toEqual(['Inspection pack']);
  });
  it('finds nothing for one letter, an unknown word, or without the permission', () => {
    expect(pageHits('i', manager)).toEqual([]);
    expect(pageHits('inspection zebra', manager)).toEqual([]);
    expect(pageHits('inspection', () => false)).toEqual([]);
  });
});

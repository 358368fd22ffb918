import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../app/query-client';
import { json, stubApi } from '../test/fake-api';
import { deliveryStatusLabel } from '../webhooks/DeliveryLog';
import { applyImport, undoImport } from './api';

/** Issue 28's smaller truths: the header counts an import while it applies; a delivery not yet tried is waiting. */

beforeEach(() => {
  stubApi(() => json(202, { data: { uuid: 'u', status: 'applying' } }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the header count of tasks in progress', () => {
  it('is refreshed the moment an import starts applying or undoing', async () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await applyImport('u');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['tasks'] });
    invalidate.mockClear();
    await undoImport('u');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['tasks'] });
  });
});

describe('a webhook delivery status', () => {
  it('reads Waiting before its first attempt, Retrying after a failed one', () => {
    expect(deliveryStatusLabel('pending', 0)).toBe('Waiting');
    expect(deliveryStatusLabel('pending', 2)).toBe('Retrying');
    expect(deliveryStatusLabel('succeeded', 1)).toBe('Delivered');
  });
});
